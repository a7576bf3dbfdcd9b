package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import dev.fairbench.orchestrator.stats.Statistics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Results documents made in code, shaped like the orchestrator's, for the report tests. */
public final class ResultsFixtures {
  private ResultsFixtures() {}

  public static Environment environment() {
    return new Environment(Instant.parse("2026-11-30T12:00:00Z"), "bench-host", "Test CPU @ 2.0GHz", 2,
        "6.1.0-test", "v1 (hybrid)", "cgroup-v1", "", "native", "wrk 4.1.0", "25", "0123abcd", false,
        new Environment.LimitsRecord("1", "0", 512L << 20, 1),
        new Environment.LoadSettings(5, 2, 3, 64, 1, 2, 0),
        List.of("/plaintext", "/json"));
  }

  /** A run with the given throughput; wrk's CPU share decides whether it reads as client-bound. */
  public static RunRecord run(double rps, double clientUtilisation, long errors) {
    long requests = Math.round(rps * 5);
    return new RunRecord(requests, 5, rps, requests * 120, errors, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(800, 1200, 2500, 4000, 9000, 900.0), requests * 20e-6, 40L << 20, 60L << 20,
        5 * clientUtilisation, clientUtilisation);
  }

  public static CellResult cell(String endpoint, List<RunRecord> runs) {
    List<Double> rps = runs.stream().map(RunRecord::requestsPerSecond).toList();
    double median = Statistics.median(rps);
    RunRecord first = runs.get(0);
    boolean clientBound = runs.stream().anyMatch(r -> r.clientCpuUtilisation() >= 0.9);
    long requests = runs.stream().mapToLong(RunRecord::requests).sum();
    long errors = runs.stream().mapToLong(r -> r.non2xx() + r.socketErrors().total()).sum();
    CellStats stats = new CellStats(median, Statistics.min(rps), Statistics.max(rps),
        Statistics.coefficientOfVariation(rps), Statistics.microsPerRequest(median),
        Statistics.cpuMicrosPerRequest(first.serverCpuSeconds(), first.requests()), first.latencyMicros().p50(),
        first.latencyMicros().p99(), first.serverPeakRssBytes(),
        runs.stream().mapToDouble(RunRecord::clientCpuUtilisation).max().orElse(0), clientBound,
        Statistics.invalid(requests, errors, 0));
    List<String> flags = new ArrayList<>();
    if (clientBound) flags.add("client-bound");
    if (stats.invalid()) flags.add("invalid");
    return new CellResult(endpoint, CellResult.MEASURED, "", runs, stats,
        new WorkerObservation("threads", 1, 1, 1, 1, 12, 1, true), flags);
  }

  public static EntryResult measured(String id, String framework, List<CellResult> cells, ConformanceSummary conformance) {
    return new EntryResult(id, id, "default", "Lang", framework, Map.of("framework", "1.0.0"), "threads",
        EntryStatus.MEASURED, "", "", conformance, cells);
  }

  public static ConformanceSummary conformance(int warn, List<String> warned) {
    return new ConformanceSummary(warn > 0 ? "WARN" : "PASS", 60 - warn, warn, 0, List.of(), warned, "conformance.json");
  }

  /**
   * Three entries: one trustworthy, one client-bound on /plaintext and invalid on /json, one
   * unavailable. Every mark the report knows appears once.
   */
  public static ResultsDocument mixed() {
    EntryResult good = measured("steady-entry", "Steady 1.0",
        List.of(cell("/plaintext", List.of(run(20_000, 0.5, 0), run(20_200, 0.5, 0), run(20_100, 0.5, 0))),
            cell("/json", List.of(run(18_000, 0.5, 0), run(18_100, 0.5, 0), run(17_900, 0.5, 0)))),
        conformance(1, List.of("7.10: 30.0 answered 400 (integral floats rejected)")));
    EntryResult fast = measured("fast-entry", "Fast 2.0",
        List.of(cell("/plaintext", List.of(run(60_000, 0.97, 0), run(61_000, 0.96, 0), run(60_500, 0.97, 0))),
            cell("/json", List.of(run(30_000, 0.6, 900), run(31_000, 0.6, 800), run(30_500, 0.6, 850)))),
        conformance(0, List.of()));
    EntryResult missing = new EntryResult("absent-entry", "absent-entry", "default", "Elixir", "Phoenix",
        Map.of("framework", "1.7.14"), "threads", EntryStatus.UNAVAILABLE,
        "dependencies not fetched: hex.pm is unreachable", "", null, List.of());
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, environment(), List.of(good, fast, missing));
  }
}
