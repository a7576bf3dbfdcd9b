package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.core.ProbePages;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RoundEffects;
import dev.fairbench.orchestrator.results.ResultsDocument.Calibration;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.LittlesLaw;
import dev.fairbench.orchestrator.stats.MedianInterval;
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

  /** From the settings the document itself records (what `report --rederive` uses). */
  public static ResultsDocument derive(ResultsDocument document) {
    var env = document.environment();
    int depth = document.method() == null ? 1 : Math.max(1, document.method().pipeline());
    return derive(document, env.load().threads(), CpuSet.count(env.limits().serverCpus()), env.limits().memoryBytes(),
        env.load().connections() * depth);
  }

  /**
   * @param concurrency connections × pipeline depth: the requests in flight of a throughput cell
   */
  public static ResultsDocument derive(ResultsDocument document, int clientThreads, int serverCpus, long memoryBytes,
      int concurrency) {
    // The rounds are blocks: every cell is visited once per round, so a round the whole machine was slow
    // in (its CPU drifts over minutes on these VMs) shows in every cell at once. Each round's effect is
    // estimated from all throughput cells and taken out of every run before a cell's median and interval.
    RoundEffects blocks = RoundEffects.of(document);
    MedianIntervalKind intervals = document.intervalKind();
    // First the calibration, since every other cell is shown against it.
    Calibration calibration = null;
    List<EntryResult> first = new ArrayList<>();
    for (EntryResult entry : document.entries()) {
      first.add(entry.withCells(entry.cells().stream()
          .map(c -> withStats(c, serverCpus, concurrency, null, blocks, intervals)).toList()));
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
          entry.calibration() ? 0 : ceiling, !entry.acceptedFailures().isEmpty(), concurrency);
      final Calibration cal = entry.calibration() ? null : calibration;
      entries.add(entry.withCells(entry.cells().stream().map(c -> {
        CellResult derived = withStats(c, serverCpus, concurrency, cal, blocks, intervals);
        return new CellResult(derived.endpoint(), derived.kind(), derived.rate(), derived.status(), derived.reason(),
            derived.runs(), derived.stats(), derived.workers(), Quality.flags(derived, context), derived.answerBytes(),
            derived.warmup());
      }).toList()));
    }
    List<RoundRecord> rounds = withFactors(document.rounds(), blocks);
    return new ResultsDocument(document.schemaVersion(), document.methodVersion(), document.environment(),
        document.method(), rounds, calibration, document.breaks(), entries, document.invocation());
  }

  /** The median's interval drawn as the file says, at the thresholds' confidence; null with too few runs. */
  static Interval interval(List<Double> values, MedianIntervalKind kind) {
    double confidence = Quality.THRESHOLDS.confidence();
    return (kind == MedianIntervalKind.INTERPOLATED ? MedianInterval.interpolated(values, confidence)
        : MedianInterval.of(values, confidence)).orElse(null);
  }

  static CellResult withStats(CellResult cell, int serverCpus, int concurrency, Calibration calibration, RoundEffects blocks,
      MedianIntervalKind intervals) {
    List<RunRecord> runs = cell.countedRuns();
    if (runs.isEmpty()) {
      return new CellResult(cell.endpoint(), cell.kind(), cell.rate(), cell.status(), cell.reason(), cell.runs(), null,
          cell.workers(), List.of(), cell.answerBytes(), cell.warmup());
    }
    boolean throughput = cell.kind() == CellKind.THROUGHPUT;
    List<Double> rawRps = runs.stream().map(RunRecord::requestsPerSecond).toList();
    List<Double> rps = throughput ? runs.stream().map(r -> r.requestsPerSecond() / blocks.rps(r.round())).toList() : rawRps;
    List<Double> cpuPerRequest = runs.stream()
        .map(r -> blocks.cpuPerRequest(cell, r))
        .filter(v -> !v.isNaN()).toList();
    double median = Statistics.median(rps);
    double cpuMedian = cpuPerRequest.isEmpty() ? Double.NaN : Statistics.median(cpuPerRequest);
    Interval rpsInterval = interval(rps, intervals);
    Interval cpuInterval = cpuPerRequest.isEmpty() ? null : interval(cpuPerRequest, intervals);
    long requests = runs.stream().mapToLong(RunRecord::requests).sum();
    long errors = runs.stream().mapToLong(r -> r.non2xx() + r.socketErrors().total()).sum();
    double serverUtilisation = Statistics.median(runs.stream()
        .map(r -> r.durationSeconds() > 0 ? r.serverCpuSeconds() / r.durationSeconds() / serverCpus : 0.0).toList());
    List<RunRecord> timed = runs.stream().filter(r -> r.latencyMicros() != null).toList();
    double littles = cell.kind().constantRate() || timed.isEmpty() ? Double.NaN : Statistics.median(timed.stream()
        .map(r -> LittlesLaw.consistency(concurrency, r.latencyMicros().mean() / 1e6, r.requestsPerSecond())).toList());
    CellStats.Ratios ratios = null;
    if (calibration != null && cell.kind() == CellKind.THROUGHPUT && calibration.requestsPerSecond().containsKey(cell.endpoint())) {
      ratios = new CellStats.Ratios(median / calibration.requestsPerSecond().get(cell.endpoint()),
          cpuMedian / calibration.cpuMicrosPerRequest().get(cell.endpoint()));
    }
    CellStats.RateStats rate = null;
    if (cell.kind().constantRate()) {
      List<RunRecord.RateRecord> rr = runs.stream().map(RunRecord::rate).filter(r -> r != null).toList();
      long scheduledTotal = rr.stream().mapToLong(RunRecord.RateRecord::scheduled).sum();
      long okTotal = rr.stream().mapToLong(RunRecord.RateRecord::ok).sum();
      long cutTotal = rr.stream().mapToLong(RunRecord.RateRecord::cutAtDeadline).sum();
      long held = scheduledTotal - cutTotal;
      // Over every round, as the table says: one round that dropped requests is not hidden by a median.
      rate = new CellStats.RateStats(Statistics.median(rr.stream().map(RunRecord.RateRecord::targetRate).toList()),
          held <= 0 ? 1 : (double) okTotal / held, scheduledTotal, okTotal,
          runs.stream().mapToLong(RunRecord::non2xx).sum(), runs.stream().mapToLong(r -> r.socketErrors().total()).sum(),
          rr.stream().mapToLong(RunRecord.RateRecord::unsent).sum() - cutTotal, cutTotal);
      errors = held - rate.ok();
      requests = held;
    }
    CellStats stats = new CellStats(runs.size(), median, Statistics.min(rawRps), Statistics.max(rawRps), rpsInterval,
        Statistics.coefficientOfVariation(rps), Statistics.microsPerRequest(median), cpuMedian, cpuInterval,
        latency(timed, RunRecord.LatencyRecord::p50), latency(timed, RunRecord.LatencyRecord::p99),
        latency(timed, RunRecord.LatencyRecord::p999),
        runs.stream().mapToLong(RunRecord::serverPeakRssBytes).max().orElse(0),
        runs.stream().mapToDouble(RunRecord::clientCpuUtilisation).max().orElse(0), serverUtilisation, littles,
        requests == 0 ? 1 : (double) errors / requests, ratios, rate,
        cell.kind().constantRate() ? RssTrends.of(runs) : null);
    return new CellResult(cell.endpoint(), cell.kind(), cell.rate(), cell.status(), cell.reason(), cell.runs(), stats,
        cell.workers(), cell.flags(), cell.answerBytes(), cell.warmup());
  }

  /** The median over the runs that have latency figures; null when none has. */
  private static Long latency(List<RunRecord> timed, java.util.function.ToLongFunction<RunRecord.LatencyRecord> figure) {
    return timed.isEmpty() ? null
        : Math.round(median(timed.stream().map(r -> (double) figure.applyAsLong(r.latencyMicros())).toList()));
  }

  /** The rounds with their req/s effect on the log scale (0 = typical; -0.05 ≈ every cell 5% slower). */
  static List<RoundRecord> withFactors(List<RoundRecord> rounds, RoundEffects blocks) {
    List<RoundRecord> out = new ArrayList<>();
    for (RoundRecord round : rounds) {
      int i = round.index() - 1;
      double effect = i >= 0 && i < blocks.rpsLog().length && Double.isFinite(blocks.rpsLog()[i]) ? blocks.rpsLog()[i] : 0;
      out.add(new RoundRecord(round.index(), round.started(), round.order(), round.probe(), effect));
    }
    return out;
  }

  static ResultsDocument withPlacement(ResultsDocument header, boolean moved, String clientCpus) {
    String placement = moved ? "every thread on CPUs " + clientCpus + " (checked)"
        : "NOT moved off the server's CPUs: taskset failed or a thread stayed; the orchestrator may have taken server CPU time";
    return new ResultsDocument(header.schemaVersion(), header.methodVersion(),
        header.environment() == null ? null : header.environment().withOrchestratorPlacement(placement), header.method(),
        header.rounds(), header.calibration(), header.breaks(), header.entries(), header.invocation());
  }

  /** The header with the pages its memory probe reads on; as it was where no memory probe runs here. */
  static ResultsDocument withMemoryProbePages(ResultsDocument header, ProbePages pages) {
    if (pages == null || header.method() == null) {
      return header;
    }
    return new ResultsDocument(header.schemaVersion(), header.methodVersion(), header.environment(),
        header.method().withMemoryProbePages(pages), header.rounds(), header.calibration(), header.breaks(),
        header.entries(), header.invocation());
  }

  static double median(List<Double> values) {
    return values.isEmpty() ? 0 : Statistics.median(values);
  }
}
