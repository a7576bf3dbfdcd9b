package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.conformance.ClauseResult;
import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.UnreachableServerException;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.events.RunListener;
import dev.fairbench.orchestrator.load.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.LoadGenerator;
import dev.fairbench.orchestrator.load.LoadResult;
import dev.fairbench.orchestrator.load.LoadSpec;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.EnvironmentProbe;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.NativeRuntime;
import dev.fairbench.orchestrator.runtime.ResourceUsage;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.SelfAffinity;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import dev.fairbench.orchestrator.runtime.ThreadSample;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import dev.fairbench.orchestrator.stats.Statistics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The pipeline: for each selected variant, check availability, build and start it under the
 * limits, gate it on conformance, then measure every endpoint (one correctness request, warmup,
 * N runs). The results file is rewritten after every cell; a failure of one entry is recorded and
 * the run goes on with the next.
 */
public final class BenchmarkRunner {
  private static final int TAIL_LINES = 20;

  private final RunConfig config;
  private final ServerRuntime runtime;
  private final LoadGenerator load;
  private final RunListener listener;
  private final ResultsDocument header;
  private final Path resultsFile;
  private final List<EntryResult> done = new ArrayList<>();

  /**
   * @param load        null when only conformance runs
   * @param header      the document to fill: its environment is kept, its entries replaced
   * @param resultsFile rewritten after every cell; conformance reports go beside it
   */
  public BenchmarkRunner(RunConfig config, ServerRuntime runtime, LoadGenerator load, RunListener listener,
      ResultsDocument header, Path resultsFile) {
    this.config = config;
    this.runtime = runtime;
    this.load = load;
    this.listener = listener;
    this.header = header;
    this.resultsFile = resultsFile;
  }

  public ResultsDocument run(List<Selection> selections) throws InterruptedException {
    save(Optional.empty()); // the environment is on disk before the first server starts
    int index = 0;
    for (Selection selection : selections) {
      listener.entryStarted(selection.id(), ++index, selections.size());
      EntryResult result;
      try {
        result = runOne(selection);
      } catch (RuntimeException e) {
        // A defect or an I/O failure while handling one entry must not cost the others their turn.
        result = unexpected(selection, e);
      }
      done.add(result);
      save(Optional.empty());
      listener.entryFinished(result);
    }
    return document(Optional.empty());
  }

  private static EntryResult unexpected(Selection selection, RuntimeException e) {
    String reason = "unexpected error: " + (e.getMessage() == null ? e.getClass().getName() : e.getMessage());
    return selection.variant()
        .map(v -> new Partial(v, EntryStatus.FAILED).failed(reason, ""))
        .orElseGet(() -> new EntryResult(selection.id(), selection.id(), EntryVariant.DEFAULT_VARIANT, "", "", Map.of(),
            "", EntryStatus.FAILED, reason, "", null, List.of()));
  }

  private EntryResult runOne(Selection selection) throws InterruptedException {
    if (selection.variant().isEmpty()) {
      String reason = "manifest error: " + selection.manifestError().orElse("unknown");
      return new EntryResult(selection.id(), selection.id(), EntryVariant.DEFAULT_VARIANT, "", "", Map.of(), "",
          EntryStatus.UNAVAILABLE, reason, "", null, List.of());
    }
    EntryVariant variant = selection.variant().get();
    Availability availability = runtime.availability(variant);
    if (!availability.available()) {
      return new Partial(variant, EntryStatus.UNAVAILABLE).failed(availability.reason(), "");
    }
    listener.building(variant.id());
    RunningServer server;
    try {
      server = runtime.start(variant, config.limits(), NativeRuntime.freePort());
    } catch (ServerStartException e) {
      // Versions after the build: some commands need its output (a virtualenv's python).
      return new Partial(variant, statusOf(e.stage())).withVersions(EnvironmentProbe.versions(variant))
          .failed(e.getMessage(), e.logTail());
    }
    Partial entry = new Partial(variant, EntryStatus.FAILED).withVersions(EnvironmentProbe.versions(variant))
        .withLimitsReadBack(server.limitsReadBack());
    try (server) {
      listener.serverReady(variant.id(), server.baseUrl().toString());
      Path reportFile = resultsFile.resolveSibling("conformance").resolve(variant.id().replace(':', '_') + ".json");
      SuiteReport report;
      try {
        report = ConformanceSuite.run(server.baseUrl());
      } catch (UnreachableServerException e) {
        return entry.failed("the conformance suite could not reach the server: " + e.getMessage()
            + server.exitReason().map(r -> " (server " + r + ")").orElse(""), server.logTail(TAIL_LINES));
      }
      try {
        ConformanceReports.writeJson(report, reportFile);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the conformance report " + reportFile, e);
      }
      listener.conformanceFinished(variant.id(), report, reportFile);
      entry = entry.withConformance(summary(report, resultsFile.getParent().relativize(reportFile).toString()));
      if (report.overall() == Verdict.FAIL) {
        return entry.withStatus(EntryStatus.CONFORMANCE_FAILED).failed(
            "conformance FAIL in clause" + (report.withVerdict(Verdict.FAIL).size() == 1 ? " " : "s ")
                + String.join(", ", report.withVerdict(Verdict.FAIL).stream().map(ClauseResult::id).toList())
                + (config.benchmark() ? "; not benchmarked" : ""), "");
      }
      if (!server.isAlive()) {
        return entry.failed("the server " + server.exitReason().orElse("exited") + " during the conformance suite",
            server.logTail(TAIL_LINES));
      }
      if (!config.benchmark()) {
        return entry.withStatus(EntryStatus.CONFORMANT).finish();
      }
      boolean allMeasured = true;
      // While cells run, the orchestrator stays off the server's CPUs; builds afterwards get every CPU again.
      SelfAffinity.set(config.limits().clientCpus());
      try {
        for (Endpoint endpoint : config.endpoints()) {
          listener.cellStarted(variant.id(), endpoint.wireName());
          CellResult cell = measure(variant, server, endpoint);
          allMeasured &= cell.status().equals(CellResult.MEASURED);
          entry = entry.withCell(cell);
          listener.cellFinished(variant.id(), cell);
          // Until the entry is done the file says so: a crash leaves it marked interrupted, not measured.
          save(Optional.of(
              entry.withStatus(EntryStatus.INTERRUPTED).failed("the run stopped before this entry finished", "")));
        }
      } finally {
        SelfAffinity.restore();
      }
      return allMeasured ? entry.withStatus(EntryStatus.MEASURED).finish()
          : entry.withStatus(EntryStatus.PARTIAL).failed("some endpoints could not be measured", server.logTail(TAIL_LINES));
    }
  }

  private CellResult measure(EntryVariant variant, RunningServer server, Endpoint endpoint) throws InterruptedException {
    String name = endpoint.wireName();
    if (!server.isAlive()) {
      return failedCell(name, "the server " + server.exitReason().orElse("exited") + " before this endpoint", List.of());
    }
    Optional<String> wrong = CorrectnessCheck.check(server.baseUrl(), endpoint);
    if (wrong.isPresent()) {
      return failedCell(name, "correctness check failed: " + wrong.get(), List.of());
    }
    List<RunRecord> runs = new ArrayList<>();
    WorkerObservation workers = null;
    try {
      if (!config.warmup().isZero()) {
        load.run(spec(server, endpoint, config.warmup()));
      }
      for (int i = 1; i <= config.runs(); i++) {
        ResourceUsage before = server.usage();
        ThreadSample threads = server.sampleThreads();
        LoadResult result = load.run(spec(server, endpoint, config.duration()));
        workers = server.observeWorkers(threads);
        ResourceUsage after = server.usage();
        if (!server.isAlive()) {
          return failedCell(name, "the server " + server.exitReason().orElse("exited") + " during run " + i, runs);
        }
        runs.add(record(result, before, after));
        listener.runFinished(variant.id(), name, i, config.runs(), result);
      }
    } catch (LoadException e) {
      return failedCell(name, e.getMessage(), runs);
    }
    CellStats stats = stats(runs);
    List<String> flags = new ArrayList<>();
    if (stats.clientBound()) {
      flags.add("client-bound");
    }
    if (stats.invalid()) {
      flags.add("invalid");
    }
    if (workers != null && !workers.matches()) {
      flags.add("workers-mismatch");
    }
    if (stats.cv() > 0.10) {
      flags.add("unstable");
    }
    return new CellResult(name, CellResult.MEASURED, "", runs, stats, workers, flags);
  }

  private LoadSpec spec(RunningServer server, Endpoint endpoint, java.time.Duration duration) {
    return new LoadSpec(server.baseUrl(), endpoint, duration, config.connections(), config.threads(),
        config.requestTimeout());
  }

  private static RunRecord record(LoadResult r, ResourceUsage before, ResourceUsage after) {
    return new RunRecord(r.requests(), r.durationSeconds(), r.requestsPerSecond(), r.bytes(), r.non2xx(),
        new RunRecord.SocketErrors(r.connectErrors(), r.readErrors(), r.writeErrors(), r.timeouts()),
        new RunRecord.LatencyRecord(r.latency().p50(), r.latency().p90(), r.latency().p99(), r.latency().p999(),
            r.latency().max(), r.latency().mean()),
        after.cpuSeconds() - before.cpuSeconds(), after.peakRssBytes(), after.memoryPeakBytes(),
        r.clientCpuSeconds(), r.clientCpuUtilisation());
  }

  CellStats stats(List<RunRecord> runs) {
    List<Double> rps = runs.stream().map(RunRecord::requestsPerSecond).toList();
    List<Double> cpuPerRequest =
        runs.stream().map(r -> Statistics.cpuMicrosPerRequest(r.serverCpuSeconds(), r.requests())).toList();
    double median = Statistics.median(rps);
    double clientUtilisation = Statistics.max(runs.stream().map(RunRecord::clientCpuUtilisation).toList());
    long requests = runs.stream().mapToLong(RunRecord::requests).sum();
    long non2xx = runs.stream().mapToLong(RunRecord::non2xx).sum();
    long socketErrors = runs.stream().mapToLong(r -> r.socketErrors().total()).sum();
    return new CellStats(median, Statistics.min(rps), Statistics.max(rps), Statistics.coefficientOfVariation(rps),
        Statistics.microsPerRequest(median), Statistics.median(cpuPerRequest),
        Math.round(Statistics.median(runs.stream().map(r -> (double) r.latencyMicros().p50()).toList())),
        Math.round(Statistics.median(runs.stream().map(r -> (double) r.latencyMicros().p99()).toList())),
        runs.stream().mapToLong(RunRecord::serverPeakRssBytes).max().orElse(0), clientUtilisation,
        Statistics.clientBound(clientUtilisation, config.threads(), median, config.clientCeiling()),
        Statistics.invalid(requests, non2xx, socketErrors));
  }

  private static CellResult failedCell(String endpoint, String reason, List<RunRecord> runs) {
    return new CellResult(endpoint, CellResult.FAILED, reason, runs, null, null, List.of());
  }

  static ConformanceSummary summary(SuiteReport report, String reportPath) {
    Function<Verdict, List<String>> describe = verdict -> report.withVerdict(verdict).stream()
        .map(c -> c.id() + (c.findings().isEmpty() ? "" : ": " + c.findings().getFirst()))
        .toList();
    return new ConformanceSummary(report.overall().name(), report.withVerdict(Verdict.PASS).size(),
        report.withVerdict(Verdict.WARN).size(), report.withVerdict(Verdict.FAIL).size(),
        describe.apply(Verdict.FAIL), describe.apply(Verdict.WARN), reportPath);
  }

  private static EntryStatus statusOf(ServerStartException.Stage stage) {
    return switch (stage) {
      case BUILD_FAILED -> EntryStatus.BUILD_FAILED;
      case PORT_IN_USE -> EntryStatus.PORT_IN_USE;
      case EXITED_AT_START -> EntryStatus.EXITED_AT_START;
      case NOT_READY -> EntryStatus.NOT_READY;
      case LIMITS_FAILED -> EntryStatus.LIMITS_FAILED;
    };
  }

  private ResultsDocument document(Optional<EntryResult> current) {
    List<EntryResult> entries = new ArrayList<>(done);
    current.ifPresent(entries::add);
    return new ResultsDocument(header.schemaVersion(), header.environment(), entries);
  }

  private void save(Optional<EntryResult> current) {
    try {
      ResultsJson.write(document(current), resultsFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the results to " + resultsFile, e);
    }
  }

  /** An entry result being filled in. */
  private record Partial(EntryVariant variant, EntryStatus status, Map<String, String> versions,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack) {
    Partial(EntryVariant variant, EntryStatus status) {
      this(variant, status, Map.of("framework", variant.frameworkVersion()), null, List.of(), "");
    }

    Partial withLimitsReadBack(String readBack) {
      return new Partial(variant, status, versions, conformance, cells, readBack);
    }

    Partial withStatus(EntryStatus newStatus) {
      return new Partial(variant, newStatus, versions, conformance, cells, limitsReadBack);
    }

    Partial withVersions(Map<String, String> newVersions) {
      return new Partial(variant, status, newVersions, conformance, cells, limitsReadBack);
    }

    Partial withConformance(ConformanceSummary summary) {
      return new Partial(variant, status, versions, summary, cells, limitsReadBack);
    }

    Partial withCell(CellResult cell) {
      List<CellResult> more = new ArrayList<>(cells);
      more.add(cell);
      return new Partial(variant, status, versions, conformance, more, limitsReadBack);
    }

    EntryResult failed(String reason, String logTail) {
      return build(reason, logTail);
    }

    EntryResult finish() {
      return build("", "");
    }

    private EntryResult build(String reason, String logTail) {
      return new EntryResult(variant.id(), variant.entry(), variant.variant(), variant.language(),
          variant.framework(), versions, variant.workersModel().wireName(), status, reason, logTail, conformance,
          cells, limitsReadBack);
    }
  }
}
