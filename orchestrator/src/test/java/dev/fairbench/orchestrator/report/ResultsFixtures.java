package dev.fairbench.orchestrator.report;

import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.pipeline.Derivation;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Results documents made in code, shaped like the orchestrator's, for the report tests. Cells hold
 * raw runs; {@link #derived} computes their statistics and flags the way a run does.
 */
public final class ResultsFixtures {
  public static final int CONNECTIONS = 64;

  private ResultsFixtures() {}

  public static Environment environment() {
    return new Environment(Instant.parse("2026-11-30T12:00:00Z"), "bench-host", "Test CPU @ 2.0GHz", 2,
        "6.1.0-test", "v1 (hybrid)", "cgroup-v1", "", "native", "wrk 4.1.0", "25", "0123abcd", false,
        new Environment.LimitsRecord("1", "0", 512L << 20, 1),
        new Environment.LoadSettings(2, 2, CONNECTIONS, 1, 2, 0.05),
        List.of("plaintext", "json"), "every thread on CPUs 0 (checked)",
        new Environment.Topology(Environment.Topology.ONE_HOST,
            List.of(new Environment.Host("orchestrator, load client, servers", "bench-host", "Test CPU @ 2.0GHz", 2,
                "6.1.0-test", "none", "v1 (hybrid)", "127.0.0.1")),
            new Environment.NetworkPath("bench-host", "127.0.0.1", "probe server (perl) on the server CPU set", 2000, 9.5,
                48.0, 2.1e9, 1)));
  }

  public static ResultsDocument.Method method(int rounds) {
    return new ResultsDocument.Method(CellKind.THROUGHPUT, rounds, 0, 42, 1, List.of(), 0.05, 1, true, 0.5,
        List.of("plaintext", "json"), null, null, null, null, null);
  }

  /**
   * One counted run of round {@code round}: 2 s at {@code rps}, the client at {@code clientUtilisation}
   * of its core, the server at {@code serverUtilisation} of its CPU, mean latency as Little's law says.
   */
  public static RunRecord run(int round, double rps, double clientUtilisation, double serverUtilisation, long errors) {
    long requests = Math.round(rps * 2);
    double meanMicros = CONNECTIONS / rps * 1e6;
    return new RunRecord(round, 1, true, requests, 2, rps, requests * 120, errors, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(800, 1200, 2500, 4000, 9000, meanMicros), 2 * serverUtilisation, 40L << 20,
        60L << 20, 2 * clientUtilisation, clientUtilisation, RunRecord.Disturbance.NONE, null);
  }

  /** Runs of rounds 1..n at the given req/s, the server busy and the client not. */
  public static List<RunRecord> runs(double... rps) {
    return IntStream.range(0, rps.length).mapToObj(i -> run(i + 1, rps[i], 0.5, 0.99, 0)).toList();
  }

  /** A counted ladder (constant-rate) run: {@code rate} req/s for 2 s, all answered, at {@code cpuMicros} per request. */
  public static RunRecord ladderRun(int round, double rate, double cpuMicros) {
    long requests = Math.round(rate * 2);
    return new RunRecord(round, 1, true, requests, 2, rate, 0, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(300, 400, 700, 900, 1200, 320), requests * cpuMicros / 1e6, 40L << 20, 60L << 20,
        0.2, 0.1, RunRecord.Disturbance.NONE, new RunRecord.RateRecord(rate, requests, requests, requests,
            Map.of("200", requests), Map.of(), 0, false, 1.0, rate));
  }

  /** A counted ladder run as {@link #ladderRun(int, double, double)}, the load client at {@code clientCpuMicros} per request. */
  public static RunRecord ladderRun(int round, double rate, double cpuMicros, double clientCpuMicros) {
    RunRecord r = ladderRun(round, rate, cpuMicros);
    double client = r.requests() * clientCpuMicros / 1e6;
    return new RunRecord(r.round(), r.visit(), r.counted(), r.requests(), r.durationSeconds(), r.requestsPerSecond(),
        r.bytes(), r.non2xx(), r.socketErrors(), r.latencyMicros(), r.serverCpuSeconds(), r.serverPeakRssBytes(),
        r.serverMemoryPeakBytes(), client, client / r.durationSeconds(), r.disturbance(), r.rate());
  }

  public static CellResult ladderCell(String endpoint, List<RunRecord> runs) {
    return new CellResult(endpoint, CellKind.LADDER, "50%", CellStatus.MEASURED, "", runs, null,
        new WorkerObservation("threads", 1, 1, 1, 1, 12, 1, true), List.of());
  }

  /** An entry standing on {@code baseline} (empty for none), with the given role. */
  public static EntryResult rung(String id, Role role, String baseline, List<CellResult> cells) {
    EntryResult e = entry(id, id, role, cells, role == Role.CALIBRATION ? null : conformance(0, List.of()));
    return new EntryResult(e.id(), e.entry(), e.variant(), e.role(), e.language(), e.framework(), e.versions(),
        e.workersModel(), e.status(), e.reason(), e.logTail(), e.conformance(), e.cells(), e.limitsReadBack(), e.freeze(),
        e.acceptedFailures(), e.facts(), baseline);
  }

  /** The cell with the size of the answer checked before its runs (the fixture's runs read 120 bytes an answer). */
  public static CellResult answered(CellResult c, int answerBytes) {
    return new CellResult(c.endpoint(), c.kind(), c.rate(), c.status(), c.reason(), c.runs(), c.stats(), c.workers(),
        c.flags(), answerBytes);
  }

  /** The cell with the req/s of its warm-up runs before round 1. */
  public static CellResult warmed(CellResult c, Double... warmup) {
    return new CellResult(c.endpoint(), c.kind(), c.rate(), c.status(), c.reason(), c.runs(), c.stats(), c.workers(),
        c.flags(), c.answerBytes(), List.of(warmup));
  }

  public static CellResult cell(String endpoint, List<RunRecord> runs) {
    return new CellResult(endpoint, CellKind.THROUGHPUT, "", CellStatus.MEASURED, "", runs, null,
        new WorkerObservation("threads", 1, 1, 1, 1, 12, 1, true), List.of());
  }

  public static EntryResult measured(String id, String framework, List<CellResult> cells, ConformanceSummary conformance) {
    return entry(id, framework, Role.ENTRY, cells, conformance);
  }

  public static EntryResult entry(String id, String framework, Role role, List<CellResult> cells,
      ConformanceSummary conformance) {
    return new EntryResult(id, id, "default", role, "Lang", framework, Map.of("framework", "1.0.0"), "threads",
        EntryStatus.MEASURED, "", "", conformance, cells, "cpuset 1, memory 512 MiB", null, List.of(),
        new EntryResult.Facts(framework + " in production mode", List.of("release build"), List.of()), "", null, null,
        RuntimeKind.NATIVE);
  }

  public static ConformanceSummary conformance(int warn, List<String> warned) {
    return new ConformanceSummary(warn > 0 ? Verdict.WARN : Verdict.PASS, 60 - warn, warn, 0, List.of(), warned,
        "conformance.json");
  }

  public static ResultsDocument document(int rounds, List<EntryResult> entries) {
    List<ResultsDocument.RoundRecord> roundRecords = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      roundRecords.add(new ResultsDocument.RoundRecord(r, Instant.parse("2026-11-30T12:00:00Z").plusSeconds(60L * r),
          List.of(), new ResultsDocument.Probe(0.2, 0.2, 320), 0));
    }
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, ResultsDocument.METHOD_VERSION, environment(),
        method(rounds), roundRecords, null, List.of(), entries);
  }

  /** Statistics, calibration and flags as the pipeline derives them (1 client thread, 1 server CPU). */
  public static ResultsDocument derived(ResultsDocument document) {
    return Derivation.derive(document, 1, 1, 512L << 20, CONNECTIONS);
  }

  /**
   * Three entries and the calibration server over 9 rounds: one trustworthy, one client-bound on
   * plaintext and invalid on json, one unavailable.
   */
  public static ResultsDocument mixed() {
    EntryResult good = measured("steady-entry", "Steady 1.0",
        List.of(warmed(answered(cell("plaintext", runs(20_000, 20_200, 20_100, 20_050, 19_900, 20_150, 20_000, 20_100, 19_950)), 120),
                12_000.0, 19_000.0, 19_600.0),
            cell("json", runs(18_000, 18_100, 17_900, 18_050, 17_950, 18_000, 18_100, 17_980, 18_020))),
        conformance(1, List.of("7.10: 30.0 answered 400 (integral floats rejected)")));
    List<RunRecord> fastPlaintext = IntStream.range(0, 9)
        .mapToObj(i -> run(i + 1, 60_000 + 100 * i, 0.97, 0.70, 0)).toList();
    List<RunRecord> fastJson = IntStream.range(0, 9).mapToObj(i -> run(i + 1, 30_000 + 50 * i, 0.6, 0.99, 900)).toList();
    EntryResult fast = measured("fast-entry", "Fast 2.0", List.of(cell("plaintext", fastPlaintext), cell("json", fastJson)),
        conformance(0, List.of()));
    EntryResult missing = new EntryResult("absent-entry", "absent-entry", "default", Role.ENTRY, "Elixir", "Phoenix",
        Map.of("framework", "1.7.14"), "threads", EntryStatus.UNAVAILABLE,
        "dependencies not fetched: hex.pm is unreachable", "", null, List.of(), "", null, List.of(), null, "", null, null,
        RuntimeKind.NATIVE);
    List<RunRecord> nginxPlaintext = IntStream.range(0, 9)
        .mapToObj(i -> run(i + 1, 64_000 + 100 * i, 0.96, 0.60, 0)).toList();
    List<RunRecord> nginxJson = IntStream.range(0, 9).mapToObj(i -> run(i + 1, 62_000 + 100 * i, 0.96, 0.60, 0)).toList();
    EntryResult nginx = entry("nginx", "nginx", Role.CALIBRATION,
        List.of(cell("plaintext", nginxPlaintext), cell("json", nginxJson)), null);
    return derived(document(9, List.of(good, fast, missing, nginx)));
  }

  /**
   * A counted run in which nothing was answered: 0 requests, 0 req/s, the latencies wrk reports for
   * none (its nan read as 0), a little server CPU; for a rate cell ({@code targetRate} above 0) every
   * scheduled request got a connect error.
   */
  public static RunRecord silentRun(int round, double targetRate) {
    long scheduled = Math.round(targetRate * 2);
    return new RunRecord(round, 1, true, 0, 2, 0, 0, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(0, 0, 0, 0, 0, 0), 0.01, 40L << 20, 60L << 20, 0.05, 0.05,
        RunRecord.Disturbance.NONE, targetRate <= 0 ? null : new RunRecord.RateRecord(targetRate, scheduled, scheduled,
            0, Map.of(), Map.of("connect", scheduled), 0, false, 0, 0));
  }

  /**
   * {@link #mixed()} with two servers that answered nothing in any of the 9 rounds: silent-entry on
   * plaintext (its json is fine), and the baseline silent-base in its ladder cell, under
   * steady-entry's ladder cell.
   */
  public static ResultsDocument silent() {
    List<EntryResult> entries = new ArrayList<>(mixed().entries());
    entries.add(measured("silent-entry", "Silent 0.1", List.of(
        cell("plaintext", IntStream.range(0, 9).mapToObj(i -> silentRun(i + 1, 0)).toList()),
        cell("json", runs(18_000, 18_100, 17_900, 18_050, 17_950, 18_000, 18_100, 17_980, 18_020))),
        conformance(0, List.of())));
    entries.add(rung("silent-base", Role.BASELINE, "", List.of(
        ladderCell("json", IntStream.range(0, 9).mapToObj(i -> silentRun(i + 1, 1000)).toList()))));
    entries.add(rung("on-silent-base", Role.ENTRY, "silent-base", List.of(
        ladderCell("json", IntStream.range(0, 9).mapToObj(i -> ladderRun(i + 1, 1000, 50)).toList()))));
    return derived(document(9, entries));
  }

  /**
   * {@link #mixed()} as a run of two runtimes: fast-entry ran in Docker ({@code fast-entry@docker}),
   * the others and the calibration server natively, the default.
   */
  public static ResultsDocument mixedRuntimes() {
    ResultsDocument doc = mixed();
    List<EntryResult> entries = doc.entries().stream().map(e -> !e.id().equals("fast-entry") ? e
        : e.withId("fast-entry@docker").withRuntime(RuntimeKind.DOCKER)).toList();
    Environment env = doc.environment().withRuntimes(List.of(
        new Environment.RuntimeUse(RuntimeKind.NATIVE, "native", "cgroup-v1", "",
            List.of("steady-entry", "absent-entry", "nginx")),
        new Environment.RuntimeUse(RuntimeKind.DOCKER, "docker", "docker-cgroup-v1", "", List.of("fast-entry@docker"))));
    return new ResultsDocument(doc.schemaVersion(), doc.methodVersion(), env, doc.method(), doc.rounds(),
        doc.calibration(), doc.breaks(), entries, doc.invocation());
  }
}
