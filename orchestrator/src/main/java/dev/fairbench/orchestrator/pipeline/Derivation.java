package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsDocument.Calibration;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.LittlesLaw;
import dev.fairbench.orchestrator.stats.MedianInterval;
import dev.fairbench.orchestrator.stats.RoundBlocks;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * From the recorded runs to the derived figures: each cell's statistics (median, its
 * distribution-free 95% interval, CPU-µs/request and its interval, ratios to the calibration server
 * of the same endpoint), the round effects of the block design, the calibration summary, and every
 * flag through {@link Quality}. Pure: the same document in gives the same document out, so a results
 * file can be re-derived (report, reproduce) without measuring again.
 */
public final class Derivation {
  private Derivation() {}

  public static ResultsDocument derive(ResultsDocument document, RunConfig config) {
    return derive(document, config.threads(), CpuSet.count(config.limits().serverCpus()),
        config.limits().memoryBytes(), config.connections() * Math.max(1, config.pipeline()));
  }

  /**
   * @param concurrency connections × pipeline depth: the requests in flight of a throughput cell
   */
  public static ResultsDocument derive(ResultsDocument document, int clientThreads, int serverCpus, long memoryBytes,
      int concurrency) {
    // First the calibration, since every other cell is shown against it.
    Calibration calibration = null;
    List<EntryResult> first = new ArrayList<>();
    for (EntryResult entry : document.entries()) {
      first.add(entry.withCells(entry.cells().stream().map(c -> withStats(c, serverCpus, concurrency, null)).toList()));
    }
    Optional<EntryResult> nginx = first.stream().filter(EntryResult::calibration).findFirst();
    if (nginx.isPresent()) {
      Map<String, Double> rps = new LinkedHashMap<>();
      Map<String, Double> cpu = new LinkedHashMap<>();
      double ceiling = 0;
      for (CellResult cell : nginx.get().cells()) {
        if (cell.measured() && cell.kind() == CellKind.THROUGHPUT) {
          rps.put(cell.endpoint(), cell.stats().medianRequestsPerSecond());
          cpu.put(cell.endpoint(), cell.stats().cpuMicrosPerRequest());
          ceiling = Math.max(ceiling, cell.stats().medianRequestsPerSecond());
        }
      }
      if (!rps.isEmpty()) {
        calibration = new Calibration(nginx.get().id(), rps, cpu, ceiling);
      }
    }
    double ceiling = calibration == null ? 0 : calibration.clientCeilingRequestsPerSecond();
    List<EntryResult> entries = new ArrayList<>();
    for (EntryResult entry : first) {
      Quality.Context context = new Quality.Context(clientThreads, serverCpus, memoryBytes,
          entry.calibration() ? 0 : ceiling, !entry.acceptedFailures().isEmpty());
      final Calibration cal = entry.calibration() ? null : calibration;
      entries.add(entry.withCells(entry.cells().stream().map(c -> {
        CellResult derived = withStats(c, serverCpus, concurrency, cal);
        return new CellResult(derived.endpoint(), derived.kind(), derived.rate(), derived.status(), derived.reason(),
            derived.runs(), derived.stats(), derived.workers(), Quality.flags(derived, context));
      }).toList()));
    }
    List<RoundRecord> rounds = roundEffects(document.rounds(), entries);
    return new ResultsDocument(document.schemaVersion(), document.methodVersion(), document.environment(),
        document.method(), rounds, calibration, document.breaks(), entries);
  }

  static CellResult withStats(CellResult cell, int serverCpus, int concurrency, Calibration calibration) {
    List<RunRecord> runs = cell.countedRuns();
    if (runs.isEmpty()) {
      return new CellResult(cell.endpoint(), cell.kind(), cell.rate(), cell.status(), cell.reason(), cell.runs(), null,
          cell.workers(), List.of());
    }
    List<Double> rps = runs.stream().map(RunRecord::requestsPerSecond).toList();
    List<Double> cpuPerRequest = runs.stream()
        .map(r -> Statistics.cpuMicrosPerRequest(r.serverCpuSeconds(), r.requests())).filter(v -> !v.isNaN()).toList();
    double median = Statistics.median(rps);
    double cpuMedian = cpuPerRequest.isEmpty() ? Double.NaN : Statistics.median(cpuPerRequest);
    Interval rpsInterval = MedianInterval.of(rps, Quality.THRESHOLDS.confidence()).orElse(null);
    Interval cpuInterval = cpuPerRequest.isEmpty() ? null
        : MedianInterval.of(cpuPerRequest, Quality.THRESHOLDS.confidence()).orElse(null);
    long requests = runs.stream().mapToLong(RunRecord::requests).sum();
    long errors = runs.stream().mapToLong(r -> r.non2xx() + r.socketErrors().total()).sum();
    double serverUtilisation = Statistics.median(runs.stream()
        .map(r -> r.durationSeconds() > 0 ? r.serverCpuSeconds() / r.durationSeconds() / serverCpus : 0.0).toList());
    double littles = cell.kind().constantRate() ? Double.NaN : Statistics.median(runs.stream()
        .map(r -> LittlesLaw.consistency(concurrency, r.latencyMicros().mean() / 1e6, r.requestsPerSecond())).toList());
    CellStats.Ratios ratios = null;
    if (calibration != null && cell.kind() == CellKind.THROUGHPUT && calibration.requestsPerSecond().containsKey(cell.endpoint())) {
      ratios = new CellStats.Ratios(median / calibration.requestsPerSecond().get(cell.endpoint()),
          cpuMedian / calibration.cpuMicrosPerRequest().get(cell.endpoint()));
    }
    CellStats.RateStats rate = null;
    if (cell.kind().constantRate()) {
      List<RunRecord.RateRecord> rr = runs.stream().map(RunRecord::rate).filter(r -> r != null).toList();
      rate = new CellStats.RateStats(Statistics.median(rr.stream().map(RunRecord.RateRecord::targetRate).toList()),
          Statistics.median(rr.stream().map(RunRecord.RateRecord::successRate).toList()),
          rr.stream().mapToLong(RunRecord.RateRecord::scheduled).sum(), rr.stream().mapToLong(RunRecord.RateRecord::ok).sum(),
          runs.stream().mapToLong(RunRecord::non2xx).sum(), runs.stream().mapToLong(r -> r.socketErrors().total()).sum(),
          rr.stream().mapToLong(RunRecord.RateRecord::unsent).sum());
      long scheduled = rate.scheduled();
      errors = scheduled - rate.ok();
      requests = scheduled;
    }
    CellStats stats = new CellStats(runs.size(), median, Statistics.min(rps), Statistics.max(rps), rpsInterval,
        Statistics.coefficientOfVariation(rps), Statistics.microsPerRequest(median), cpuMedian, cpuInterval,
        Math.round(median(runs.stream().map(r -> (double) r.latencyMicros().p50()).toList())),
        Math.round(median(runs.stream().map(r -> (double) r.latencyMicros().p99()).toList())),
        Math.round(median(runs.stream().map(r -> (double) r.latencyMicros().p999()).toList())),
        runs.stream().mapToLong(RunRecord::serverPeakRssBytes).max().orElse(0),
        runs.stream().mapToDouble(RunRecord::clientCpuUtilisation).max().orElse(0), serverUtilisation, littles,
        requests == 0 ? 1 : (double) errors / requests, ratios, rate);
    return new CellResult(cell.endpoint(), cell.kind(), cell.rate(), cell.status(), cell.reason(), cell.runs(), stats,
        cell.workers(), cell.flags());
  }

  /**
   * Each round's effect on the log scale: a median polish of the cells × rounds table of log req/s
   * (throughput cells, counted runs). A round the whole machine was slow in shows as a negative
   * effect on every cell at once; the effect is recorded, never silently subtracted.
   */
  static List<RoundRecord> roundEffects(List<RoundRecord> rounds, List<EntryResult> entries) {
    if (rounds.isEmpty()) {
      return rounds;
    }
    int maxRound = rounds.stream().mapToInt(RoundRecord::index).max().orElse(0);
    List<double[]> rows = new ArrayList<>();
    for (EntryResult entry : entries) {
      for (CellResult cell : entry.cells()) {
        if (cell.kind() != CellKind.THROUGHPUT) {
          continue;
        }
        double[] row = new double[maxRound];
        java.util.Arrays.fill(row, Double.NaN);
        for (RunRecord run : cell.countedRuns()) {
          if (run.round() >= 1 && run.round() <= maxRound && run.requestsPerSecond() > 0) {
            row[run.round() - 1] = Math.log(run.requestsPerSecond());
          }
        }
        rows.add(row);
      }
    }
    if (rows.isEmpty() || maxRound < 2) {
      return rounds;
    }
    RoundBlocks.Result polish = RoundBlocks.medianPolish(rows.toArray(new double[0][]));
    List<RoundRecord> out = new ArrayList<>();
    for (RoundRecord round : rounds) {
      double effect = round.index() >= 1 && round.index() <= maxRound ? polish.roundEffects()[round.index() - 1] : 0;
      out.add(new RoundRecord(round.index(), round.started(), round.order(), round.probe(), effect));
    }
    return out;
  }

  static ResultsDocument withPlacement(ResultsDocument header, boolean moved, String clientCpus) {
    String placement = moved ? "every thread on CPUs " + clientCpus + " (checked)"
        : "NOT moved off the server's CPUs: taskset failed or a thread stayed; the orchestrator may have taken server CPU time";
    return new ResultsDocument(header.schemaVersion(), header.methodVersion(),
        header.environment() == null ? null : header.environment().withOrchestratorPlacement(placement), header.method(),
        header.rounds(), header.calibration(), header.breaks(), header.entries());
  }

  static double median(List<Double> values) {
    return values.isEmpty() ? 0 : Statistics.median(values);
  }
}
