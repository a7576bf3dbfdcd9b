package dev.fairbench.orchestrator.cli;

import dev.fairbench.conformance.ClauseResult;
import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.UnreachableServerException;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.load.ConstantRateResult;
import dev.fairbench.orchestrator.load.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import dev.fairbench.orchestrator.load.RateResults;
import dev.fairbench.orchestrator.load.RateResults.Cell;
import dev.fairbench.orchestrator.load.RateResults.EntryRecord;
import dev.fairbench.orchestrator.load.RateResults.Measurement;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.EnvironmentProbe;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.NativeRuntime;
import dev.fairbench.orchestrator.runtime.ResourceUsage;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.SelfAffinity;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "rate",
    mixinStandardHelpOptions = true,
    header = "Send a fixed request rate to entries with oha; report success, statuses and corrected latencies.",
    description = {
      "Constant-rate mode. For each entry (none given: every entry; unavailable ones are recorded with their "
          + "reason): build it, start it on the server CPU set under the memory limit with WORKERS set, run the "
          + "conformance suite (a FAIL means it is not loaded), then for each endpoint warm up at --rate for "
          + "--warmup and measure one run at --rate for --duration, with oha pinned to the client CPU set.",
      "",
      "oha sends each request at its scheduled time whether or not earlier ones were answered, and measures "
          + "latency from that time (--latency-correction), so the queueing of a server that cannot keep up is "
          + "counted instead of hidden (coordinated omission). Requests still in flight at the deadline are "
          + "awaited, up to the 2 s request timeout.",
      "",
      "Per cell: target and achieved rate, requests sent and completed, responses by status, errors by kind, "
          + "success rate (200 responses over requests sent), latency p50/p90/p99/p99.9/max, server CPU seconds "
          + "and peak RSS, oha's CPU. Flags: saturated (achieved rate below 95%% of the target: the server or the "
          + "client could not keep up), invalid (success below 99.9%%).",
      "",
      "rate.json is rewritten after every cell; the table goes to stdout, progress to stderr. Exit 0 when every "
          + "selected entry was measured (flags do not change it), 1 when one failed to build, start, pass "
          + "conformance or be measured, 2 for a usage error or when oha is not installed."
    })
public final class RateCommand implements Callable<Integer> {
  private static final int TAIL_LINES = 20;

  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Parameters(paramLabel = "ENTRY[:VARIANT]", arity = "0..*", description = "Entries to load; none means all.")
  List<String> entries = List.of();

  @Option(names = "--rate", paramLabel = "REQ/S", required = true,
      description = "Requests per second sent to each endpoint, e.g. 1000 (required).")
  double rate;

  @Option(names = "--duration", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Length of the measured run of each endpoint, e.g. 30s (default: 5s on 2-3 cores, 10s from 4).")
  Duration duration;

  @Option(names = "--warmup", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Warm-up at the same rate before each measured run, 0 for none (default: 2s on 2-3 cores, 5s from 4).")
  Duration warmup;

  @Option(names = "--endpoints", paramLabel = "LIST", split = ",",
      description = "Endpoints to load, comma-separated: plaintext, json, user, validate (default: all four).")
  List<String> endpoints = Defaults.ENDPOINTS;

  @Option(names = "--connections", paramLabel = "N",
      description = "Connections oha opens (default: 64 on 2-3 cores, 128 from 4). Holding a rate R at a latency "
          + "of L s takes about R × L of them; with fewer, oha, not the server, limits the rate.")
  Integer connections;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Folder for rate.json, conformance reports and logs (default: results/rate-<time>/).")
  Path output;

  private PrintWriter err;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    err = spec.commandLine().getErr();
    FairbenchPaths paths = FairbenchPaths.detect();
    Defaults.Profile profile = Defaults.forThisMachine();
    Limits limits = limitOptions.limits(profile);
    Duration runLength = duration == null ? profile.duration() : duration;
    Duration warmupLength = warmup == null ? profile.warmup() : warmup;
    int connectionCount = connections == null ? profile.connections() : connections;
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new UsageException("--rate must be a positive number of requests per second, got " + rate);
    }
    if (connectionCount < 1) {
      throw new UsageException("--connections must be at least 1, got " + connectionCount);
    }
    int clientThreads = Math.min(CpuSet.count(limits.clientCpus()), connectionCount);
    RunConfig config;
    try {
      config = new RunConfig(true, endpoints.stream().map(String::trim).map(Endpoint::parse).distinct().toList(),
          runLength, warmupLength, 1, connectionCount, clientThreads, Defaults.REQUEST_TIMEOUT, limits, 0);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }

    EntryCatalog catalog = impls.catalog(paths);
    List<Selection> selections;
    try {
      selections = catalog.select(entries);
    } catch (UnknownEntryException e) {
      throw new UsageException(e.getMessage());
    }
    if (selections.isEmpty()) {
      throw new UsageException("there are no entries under " + catalog.implsDir());
    }

    // Preflight: everything that can fail cheaply fails before any server starts.
    OhaLoadGenerator oha;
    try {
      oha = OhaLoadGenerator.create(limits.clientCpus());
    } catch (LoadException e) {
      err.println("fairbench rate: unavailable: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Instant now = Instant.now();
    Path dir = (output != null ? output : paths.results().resolve("rate-" + Converters.timestamp(now)))
        .toAbsolutePath().normalize();
    Path file = dir.resolve("rate.json");
    if (Files.exists(file)) {
      throw new UsageException(file + " already exists; choose another --output");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UsageException("cannot create the output folder " + dir + ": " + e.getMessage());
    }
    ServerRuntime runtime = limitOptions.runtime(dir.resolve("logs"));
    RateResults.Document document = new RateResults.Document(RateResults.SCHEMA_VERSION, RateResults.KIND,
        Sessions.environment(now, paths, runtime, oha.version(), config),
        new RateResults.Settings(rate, runLength.toMillis() / 1e3, warmupLength.toMillis() / 1e3, connectionCount,
            Defaults.REQUEST_TIMEOUT.toMillis() / 1e3, true, ConstantRateResult.SATURATION_THRESHOLD,
            ConstantRateResult.VALID_SUCCESS_RATE),
        List.of());
    err.printf(Locale.ROOT, "fairbench rate: %d entr%s, endpoints %s, %s req/s for %ds after %ds warm-up, %d connections;"
            + " server CPUs %s (%s), oha CPUs %s%n",
        selections.size(), selections.size() == 1 ? "y" : "ies",
        config.endpoints().stream().map(Endpoint::wireName).collect(Collectors.joining(",")), formatRate(rate),
        runLength.toSeconds(), warmupLength.toSeconds(), connectionCount, limits.serverCpus(), runtime.limitsMode(),
        limits.clientCpus());
    err.println("results: " + file + " (rewritten after every cell)");
    err.flush();

    Session session = new Session(config, runtime, oha, document, file);
    session.save(null);
    int index = 0;
    for (Selection selection : selections) {
      err.printf("[%d/%d] %s%n", ++index, selections.size(), selection.id());
      err.flush();
      EntryRecord result;
      try {
        result = session.runOne(selection);
      } catch (RuntimeException e) {
        // A defect or an I/O failure while handling one entry must not cost the others their turn.
        result = failedEntry(selection, EntryStatus.FAILED,
            "unexpected error: " + (e.getMessage() == null ? e.getClass().getName() : e.getMessage()), "", Map.of());
      }
      session.done.add(result);
      session.save(null);
      if (result.status() != EntryStatus.MEASURED) {
        err.println("  " + result.status().wireName() + ": " + result.reason());
        err.flush();
      }
    }

    List<EntryRecord> results = session.done;
    out.print(table(results));
    boolean failed = false;
    for (EntryRecord entry : results) {
      boolean skipped = entries.isEmpty() && entry.status() == EntryStatus.UNAVAILABLE;
      failed |= entry.status().failed() && !skipped;
    }
    out.println("Results: " + file);
    out.flush();
    return failed ? ExitCodes.FAILED : ExitCodes.OK;
  }

  /** One invocation's state: the entries done so far and where they are saved. */
  private final class Session {
    private final RunConfig config;
    private final ServerRuntime runtime;
    private final OhaLoadGenerator oha;
    private final RateResults.Document header;
    private final Path file;
    private final List<EntryRecord> done = new ArrayList<>();

    Session(RunConfig config, ServerRuntime runtime, OhaLoadGenerator oha, RateResults.Document header, Path file) {
      this.config = config;
      this.runtime = runtime;
      this.oha = oha;
      this.header = header;
      this.file = file;
    }

    EntryRecord runOne(Selection selection) throws InterruptedException {
      if (selection.variant().isEmpty()) {
        return failedEntry(selection, EntryStatus.UNAVAILABLE,
            "manifest error: " + selection.manifestError().orElse("unknown"), "", Map.of());
      }
      EntryVariant variant = selection.variant().get();
      Availability availability = runtime.availability(variant);
      if (!availability.available()) {
        return failedEntry(selection, EntryStatus.UNAVAILABLE, availability.reason(), "", Map.of());
      }
      err.println("  building and starting ...");
      err.flush();
      RunningServer server;
      try {
        server = runtime.start(variant, config.limits(), NativeRuntime.freePort());
      } catch (ServerStartException e) {
        return failedEntry(selection, statusOf(e.stage()), e.getMessage(), e.logTail(),
            EnvironmentProbe.versions(variant));
      }
      Map<String, String> versions = EnvironmentProbe.versions(variant);
      try (server) {
        err.println("  ready at " + server.baseUrl() + "; running the conformance suite ...");
        err.flush();
        SuiteReport report;
        try {
          report = ConformanceSuite.run(server.baseUrl());
        } catch (UnreachableServerException e) {
          return entry(variant, versions, EntryStatus.FAILED, "the conformance suite could not reach the server: "
              + e.getMessage() + server.exitReason().map(r -> " (server " + r + ")").orElse(""),
              server.logTail(TAIL_LINES), null, List.of());
        }
        Path reportFile = file.resolveSibling("conformance").resolve(variant.id().replace(':', '_') + ".json");
        try {
          ConformanceReports.writeJson(report, reportFile);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot write the conformance report " + reportFile, e);
        }
        ConformanceSummary conformance = summary(report, file.getParent().relativize(reportFile).toString());
        err.printf("  conformance: %s (%d PASS, %d WARN, %d FAIL)%n", report.overall(), conformance.pass(),
            conformance.warn(), conformance.fail());
        err.flush();
        if (report.overall() == Verdict.FAIL) {
          List<String> ids = report.withVerdict(Verdict.FAIL).stream().map(ClauseResult::id).toList();
          return entry(variant, versions, EntryStatus.CONFORMANCE_FAILED, "conformance FAIL in clause"
              + (ids.size() == 1 ? " " : "s ") + String.join(", ", ids) + "; not loaded", "", conformance, List.of());
        }
        List<Cell> cells = new ArrayList<>();
        // Until the entry is done the file says so: a crash leaves it marked interrupted.
        EntryRecord interrupted = entry(variant, versions, EntryStatus.INTERRUPTED,
            "the run stopped before this entry finished", "", conformance, cells);
        save(interrupted);
        // While cells run, the orchestrator stays off the server's CPUs (oha is pinned there too).
        SelfAffinity.set(config.limits().clientCpus());
        try {
          for (Endpoint endpoint : config.endpoints()) {
            Cell cell = measure(server, endpoint);
            cells.add(cell);
            err.println("  " + describe(cell));
            err.flush();
            save(entry(variant, versions, EntryStatus.INTERRUPTED, interrupted.reason(), "", conformance, cells));
          }
        } finally {
          SelfAffinity.restore();
        }
        boolean allMeasured = cells.stream().allMatch(c -> c.status().equals(Cell.MEASURED));
        return allMeasured
            ? entry(variant, versions, EntryStatus.MEASURED, "", "", conformance, cells)
            : entry(variant, versions, EntryStatus.PARTIAL, "some endpoints could not be measured",
                server.logTail(TAIL_LINES), conformance, cells);
      }
    }

    private Cell measure(RunningServer server, Endpoint endpoint) throws InterruptedException {
      String name = endpoint.wireName();
      if (!server.isAlive()) {
        return failedCell(name, "the server " + server.exitReason().orElse("exited") + " before this endpoint");
      }
      try {
        if (!config.warmup().isZero()) {
          oha.run(spec(server, endpoint, config.warmup()));
        }
        ResourceUsage before = server.usage();
        ConstantRateResult result = oha.run(spec(server, endpoint, config.duration()));
        ResourceUsage after = server.usage();
        if (!server.isAlive()) {
          return failedCell(name, "the server " + server.exitReason().orElse("exited") + " during the run");
        }
        Measurement measurement = new Measurement(rate, result.achievedRate(), result.durationSeconds(),
            Math.round(rate * config.duration().toMillis() / 1e3), result.sent(), result.completed(), result.errors(), result.successRate(), result.statusCountsByName(),
            result.errorCounts(), result.latency(), after.cpuSeconds() - before.cpuSeconds(), after.peakRssBytes(),
            after.memoryPeakBytes(), result.clientCpuSeconds(), result.clientCpuUtilisation());
        return new Cell(name, Cell.MEASURED, "", measurement, result.flags(rate));
      } catch (LoadException e) {
        return failedCell(name, e.getMessage());
      }
    }

    private OhaLoadGenerator.Spec spec(RunningServer server, Endpoint endpoint, Duration length) {
      return new OhaLoadGenerator.Spec(server.baseUrl(), endpoint, rate, length, config.connections(),
          config.requestTimeout());
    }

    /** Writes what is done so far, plus {@code current} (the entry being measured) when not null. */
    void save(EntryRecord current) {
      List<EntryRecord> all = new ArrayList<>(done);
      if (current != null) {
        all.add(current);
      }
      try {
        RateResults.write(header.withEntries(all), file);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the results to " + file, e);
      }
    }
  }

  private static Cell failedCell(String endpoint, String reason) {
    return new Cell(endpoint, Cell.FAILED, reason, null, List.of());
  }

  private static EntryRecord entry(EntryVariant v, Map<String, String> versions, EntryStatus status, String reason,
      String logTail, ConformanceSummary conformance, List<Cell> cells) {
    return new EntryRecord(v.id(), v.entry(), v.variant(), v.language(), v.framework(), versions, status, reason,
        logTail, conformance, List.copyOf(cells));
  }

  private static EntryRecord failedEntry(Selection selection, EntryStatus status, String reason, String logTail,
      Map<String, String> versions) {
    return selection.variant()
        .map(v -> entry(v, versions.isEmpty() ? Map.of("framework", v.frameworkVersion()) : versions, status, reason,
            logTail, null, List.of()))
        .orElseGet(() -> new EntryRecord(selection.id(), selection.id(), EntryVariant.DEFAULT_VARIANT, "", "",
            Map.of(), status, reason, logTail, null, List.of()));
  }

  private static ConformanceSummary summary(SuiteReport report, String reportPath) {
    java.util.function.Function<Verdict, List<String>> describe = verdict -> report.withVerdict(verdict).stream()
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

  private static String describe(Cell cell) {
    if (cell.measurement() == null) {
      return cell.endpoint() + ": failed: " + cell.reason();
    }
    Measurement m = cell.measurement();
    return String.format(Locale.ROOT, "%s: %s of %s req/s, success %s, p99 %s%s", cell.endpoint(),
        formatRate(m.achievedRate()), formatRate(m.targetRate()), percent(m.successRate()),
        m.latencyMicros() == null ? "-" : millis(m.latencyMicros().p99()) + " ms",
        cell.flags().isEmpty() ? "" : " [" + String.join(", ", cell.flags()) + "]");
  }

  /** The table of seed 001, one row per cell, then the entries that were not loaded. */
  static String table(List<EntryRecord> results) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"entry", "endpoint", "status 200", "other status", "errors", "success", "p50 ms",
        "p99 ms", "max ms", "achieved/target req/s", "flags"});
    List<String> notLoaded = new ArrayList<>();
    for (EntryRecord entry : results) {
      if (entry.cells().isEmpty()) {
        notLoaded.add(entry.id() + ": " + entry.status().wireName() + ": " + entry.reason());
      }
      for (Cell cell : entry.cells()) {
        Measurement m = cell.measurement();
        if (m == null) {
          rows.add(new String[] {entry.id(), cell.endpoint(), "-", "-", "-", "-", "-", "-", "-", "-",
              "failed: " + cell.reason()});
          continue;
        }
        long ok = m.statusCounts().getOrDefault("200", 0L);
        ConstantRateResult.Latency l = m.latencyMicros();
        rows.add(new String[] {entry.id(), cell.endpoint(), Long.toString(ok), Long.toString(m.completed() - ok),
            Long.toString(m.errors()), percent(m.successRate()), l == null ? "-" : millis(l.p50()),
            l == null ? "-" : millis(l.p99()), l == null ? "-" : millis(l.max()),
            formatRate(m.achievedRate()) + " / " + formatRate(m.targetRate()), String.join(", ", cell.flags())});
      }
    }
    int[] widths = new int[rows.getFirst().length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        boolean numeric = i >= 2 && i <= 9;
        String format = "%" + (numeric ? "" : "-") + widths[i] + "s";
        line.append(i == 0 ? "" : "  ").append(String.format(Locale.ROOT, format, row[i]));
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    for (String line : notLoaded) {
      text.append("not loaded: ").append(line).append('\n');
    }
    return text.toString();
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.3f%%", share * 100);
  }

  private static String millis(long micros) {
    return String.format(Locale.ROOT, "%.2f", micros / 1e3);
  }

  private static String formatRate(double perSecond) {
    return perSecond == Math.rint(perSecond) && perSecond < 1e15
        ? Long.toString((long) perSecond) : String.format(Locale.ROOT, "%.1f", perSecond);
  }
}
