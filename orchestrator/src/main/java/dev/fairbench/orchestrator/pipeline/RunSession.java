package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CpuGauge;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.events.RunListener;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.load.LoadClient;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.LocalLoadClient;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import dev.fairbench.orchestrator.load.WrkLoadGenerator;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.Invocation;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.runtime.RuntimeUnavailableException;
import dev.fairbench.orchestrator.runtime.Runtimes;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A whole `run` (or `conformance` of entries), from a request to an exit code: preflight (a
 * machine-wide lock so two runs never share the CPUs, the output folder, the tools, the runtime),
 * the pipeline, then the reports beside results.json. The CLI only turns options into a
 * {@link Request}.
 */
public final class RunSession {
  /** The machine-wide lock: two benchmark runs at once would measure each other. */
  public static final Path LOCK = Path.of(System.getProperty("java.io.tmpdir"), "fairbench-run.lock");
  /** Below this much free space in the output folder a run refuses to start. */
  static final long MIN_FREE_BYTES = 64L << 20;
  /** The probe file written and deleted in the output folder before anything starts. */
  static final int PROBE_BYTES = 4 << 20;

  /**
   * @param selectors     what the user typed (empty: every entry); unavailable entries are then not failures
   * @param implsDir      the entries
   * @param calibrationDir the calibration servers' folder (calibration/ of the checkout)
   * @param output        the run's folder; must not hold a results.json
   * @param runtimeFactory makes the runtime, given the folder for logs
   * @param baselines      false: leave out the entries of kind baseline (run --no-baselines)
   * @param serverHost     --server-host as given (recorded for --resume); empty for none
   * @param serverAddress  --server-address as given; empty for none
   * @param resume         the stopped run this one continues (its folder is the output); null for a fresh run
   * @param clientHost     --client-host as given (recorded for --resume); empty for the local client
   * @param loadClient     where wrk and oha run, given the client CPU set: this machine, or a
   *                       container on a client host's engine (run --client-host)
   * @param runtimes       makes the runtime a selector names when it is not the default one
   *                       (`go-gin@docker` in a native run), given the folder for its logs
   * @param verdicts       where the suite's verdicts are kept, and whether they are reused (none: neither)
   */
  public record Request(
      List<String> selectors,
      EntryCatalog catalog,
      Path calibrationDir,
      String calibrationServer,
      RunConfig config,
      Path output,
      Function<Path, ServerRuntime> runtimeFactory,
      EnvironmentFactory environment,
      boolean baselines,
      String serverHost,
      String serverAddress,
      Resumption resume,
      String clientHost,
      LoadClientFactory loadClient,
      RuntimeMaker runtimes,
      VerdictStore verdicts) {
    public Request {
      verdicts = verdicts == null ? VerdictStore.NONE : verdicts;
    }

    /** Neither keeping nor reusing conformance verdicts. */
    public Request(List<String> selectors, EntryCatalog catalog, Path calibrationDir, String calibrationServer,
        RunConfig config, Path output, Function<Path, ServerRuntime> runtimeFactory, EnvironmentFactory environment,
        boolean baselines, String serverHost, String serverAddress, Resumption resume, String clientHost,
        LoadClientFactory loadClient, RuntimeMaker runtimes) {
      this(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory, environment, baselines,
          serverHost, serverAddress, resume, clientHost, loadClient, runtimes, VerdictStore.NONE);
    }

    /** The same request with the suite's verdicts kept in, and perhaps reused from, {@code store}. */
    public Request withVerdicts(VerdictStore store) {
      return new Request(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory,
          environment, baselines, serverHost, serverAddress, resume, clientHost, loadClient, runtimes, store);
    }

    /** With the runtimes of this machine for selectors that name one. */
    public Request(List<String> selectors, EntryCatalog catalog, Path calibrationDir, String calibrationServer,
        RunConfig config, Path output, Function<Path, ServerRuntime> runtimeFactory, EnvironmentFactory environment,
        boolean baselines, String serverHost, String serverAddress, Resumption resume, String clientHost,
        LoadClientFactory loadClient) {
      this(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory, environment, baselines,
          serverHost, serverAddress, resume, clientHost, loadClient, Runtimes::local);
    }

    public Request(List<String> selectors, EntryCatalog catalog, Path calibrationDir, String calibrationServer,
        RunConfig config, Path output, Function<Path, ServerRuntime> runtimeFactory, EnvironmentFactory environment,
        boolean baselines) {
      this(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory, environment, baselines,
          "", "", null, "", LocalLoadClient::new);
    }

    /** A fresh run on this machine's load client (the tests' form). */
    public Request(List<String> selectors, EntryCatalog catalog, Path calibrationDir, String calibrationServer,
        RunConfig config, Path output, Function<Path, ServerRuntime> runtimeFactory, EnvironmentFactory environment,
        boolean baselines, String serverHost, String serverAddress, Resumption resume) {
      this(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory, environment, baselines,
          serverHost, serverAddress, resume, "", LocalLoadClient::new);
    }

    /** A fresh run with the given load client. */
    public Request(List<String> selectors, EntryCatalog catalog, Path calibrationDir, String calibrationServer,
        RunConfig config, Path output, Function<Path, ServerRuntime> runtimeFactory, EnvironmentFactory environment,
        boolean baselines, LoadClientFactory loadClient) {
      this(selectors, catalog, calibrationDir, calibrationServer, config, output, runtimeFactory, environment, baselines,
          "", "", null, "", loadClient);
    }
  }

  /** Makes a runtime of this machine by kind. */
  @FunctionalInterface
  public interface RuntimeMaker {
    /**
     * @param logDir where its build and server logs go
     * @throws RuntimeUnavailableException when it cannot run servers here (no Docker engine answers)
     */
    ServerRuntime make(RuntimeKind kind, Path logDir);
  }

  /** Opens the load client on the client CPU set. */
  @FunctionalInterface
  public interface LoadClientFactory {
    LoadClient open(String clientCpus) throws LoadException;
  }

  /** Builds the environment block once the runtime and the load generator are known. */
  @FunctionalInterface
  public interface EnvironmentFactory {
    /** @param loadClient where the load generator runs; null when nothing is measured */
    Environment make(Instant now, ServerRuntime runtime, LoadClient loadClient, String loadGenerator, RunConfig config);
  }

  /** A request that cannot run; the CLI prints it and exits 2. */
  public static class PreflightException extends RuntimeException {
    public PreflightException(String message) {
      super(message);
    }
  }

  /** A tool the run needs is not installed. */
  public static final class MissingToolException extends PreflightException {
    public MissingToolException(String message) {
      super(message);
    }
  }

  /**
   * The results file could not be written mid-run (disk full, folder gone): the run stops measuring,
   * stops every server, and the last results file written stays as it was.
   */
  public static final class ResultsWriteException extends RuntimeException {
    private final Path file;

    public ResultsWriteException(Path file, IOException cause) {
      super("cannot write the results to " + file + ": " + describe(cause), cause);
      this.file = file;
    }

    public Path file() {
      return file;
    }

    private static String describe(IOException e) {
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason() : message;
    }
  }

  /** What the run produced. */
  public record Outcome(ResultsDocument results, Path resultsFile, Reports.Written reports, boolean failed) {}

  private RunSession() {}

  public static Outcome run(Request request, RunListener listener, PrintWriter err) throws InterruptedException, IOException {
    RunConfig config = request.config();
    List<ServerSelector> selectors;
    try {
      selectors = ServerSelector.parseAll(request.selectors());
    } catch (IllegalArgumentException e) {
      throw new PreflightException(e.getMessage());
    }
    List<Chosen> chosen = choose(request, selectors);
    if (chosen.isEmpty()) {
      throw new PreflightException("there are no entries under " + request.catalog().implsDir());
    }
    // Before the load client, the lock and the output folder: a runtime that cannot run here is one line.
    Path logs = request.output().toAbsolutePath().normalize().resolve("logs");
    ServerRuntime runtime = request.runtimeFactory().apply(logs);
    List<Placement> servers = place(request, chosen, runtime, logs);
    WrkLoadGenerator wrk = null;
    OhaLoadGenerator oha = null;
    LoadClient client = null;
    String loadGenerator = "none";
    if (config.benchmark()) {
      try {
        client = request.loadClient().open(config.limits().clientCpus());
        wrk = WrkLoadGenerator.create(client);
        loadGenerator = wrk.version();
        if (config.kind() == CellKind.RATE) {
          oha = OhaLoadGenerator.create(client);
          loadGenerator = oha.version() + " (rate), " + wrk.version() + " (warm-up)";
        } else if (config.ladderShare() > 0) {
          try {
            oha = OhaLoadGenerator.create(client);
            loadGenerator = wrk.version() + ", " + oha.version() + " (ladder cells)";
          } catch (LoadException e) {
            err.println("fairbench run: note: no ladder cells: " + e.getMessage());
          }
        }
        if (!(client instanceof LocalLoadClient)) {
          loadGenerator += " in " + client.describe();
        }
      } catch (LoadException e) {
        if (client != null) {
          client.close();
        }
        throw new MissingToolException("unavailable: " + e.getMessage());
      }
    }
    try (LoadClient held = client) {
      return run(request, listener, err, config, runtime, servers, held, wrk, oha, loadGenerator);
    }
  }

  /** A selected entry variant and the runtime its selector named (empty: the run's default). */
  private record Chosen(Selection selection, Optional<RuntimeKind> runtime) {}

  /** The selections of every selector, in order, each once per runtime; every entry when none is given. */
  private static List<Chosen> choose(Request request, List<ServerSelector> selectors) {
    List<Chosen> chosen = new ArrayList<>();
    try {
      if (selectors.isEmpty()) {
        request.catalog().select(List.of()).forEach(s -> chosen.add(new Chosen(s, Optional.empty())));
      } else {
        // Every unknown name at once, then each selector's own selections in the order given.
        request.catalog().select(selectors.stream().map(ServerSelector::entry).toList());
        for (ServerSelector selector : selectors) {
          request.catalog().select(List.of(selector.entry())).forEach(s -> chosen.add(new Chosen(s, selector.runtime())));
        }
      }
    } catch (UnknownEntryException e) {
      throw new PreflightException(e.getMessage());
    }
    // --no-baselines leaves out the baselines that "every entry" would bring; one named is run.
    return chosen.stream()
        .filter(c -> request.baselines() || !selectors.isEmpty()
            || !c.selection().variant().map(v -> v.baseline()).orElse(false))
        .toList();
  }

  /**
   * Each chosen entry in its runtime: the default one, or the one its selector names, made once.
   * Refused before anything starts: a second runtime on a remote engine's run (the servers would run
   * on two machines), one that cannot run here (no engine), or one whose limits are weaker than a
   * cgroup (taskset: memory not limited), since the servers of both runtimes must get the same limits.
   */
  private static List<Placement> place(Request request, List<Chosen> chosen, ServerRuntime defaultRuntime, Path logs) {
    RuntimeKind defaultKind = defaultRuntime.kind();
    Map<RuntimeKind, ServerRuntime> runtimes = new java.util.EnumMap<>(RuntimeKind.class);
    runtimes.put(defaultKind, defaultRuntime);
    List<Placement> servers = new ArrayList<>();
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (Chosen c : chosen) {
      RuntimeKind kind = c.runtime().orElse(defaultKind);
      String named = c.selection().id() + ServerSelector.RUNTIME_MARK + kind.wireName();
      if (c.runtime().isPresent() && defaultRuntime.remote()) {
        // Even @docker: it would be this machine's engine, not the server host's.
        throw new PreflightException(named + ": a runtime of its own cannot be given with --server-host: every server "
            + "runs on the server host's engine there (" + defaultRuntime.name() + "), and @" + kind.wireName()
            + " would run this one on this machine, over another path to the load client; name it without @, or run "
            + "the two runtimes on one host");
      }
      ServerRuntime runtime = runtimes.get(kind);
      if (runtime == null) {
        try {
          runtime = request.runtimes().make(kind, logs.resolve(kind.wireName()));
        } catch (RuntimeUnavailableException e) {
          // Like a missing tool: the command was right, the machine lacks the engine.
          throw new MissingToolException(named + ": the " + kind.wireName() + " runtime cannot run servers here: "
              + e.getMessage());
        }
        runtimes.put(kind, runtime);
      }
      Placement placement = new Placement(c.selection(), runtime, kind != defaultKind);
      if (ids.add(placement.id())) {
        servers.add(placement);
      }
    }
    if (runtimes.size() > 1) {
      for (ServerRuntime runtime : runtimes.values()) {
        if (!runtime.limitsNote().isEmpty()) {
          throw new PreflightException("the " + runtime.name() + " runtime cannot give its servers the limits the other "
              + "one gives (" + runtime.limitsMode() + ": " + runtime.limitsNote() + "), and a run of two runtimes "
              + "needs the same limits in both; run each runtime on its own");
        }
      }
    }
    return servers;
  }

  private static Outcome run(Request request, RunListener listener, PrintWriter err, RunConfig config,
      ServerRuntime runtime, List<Placement> servers, LoadClient client, WrkLoadGenerator wrk, OhaLoadGenerator oha,
      String loadGenerator) throws InterruptedException, IOException {
    Resumption resume = request.resume();
    Path dir = request.output().toAbsolutePath().normalize();
    Path resultsFile = dir.resolve("results.json");
    boolean existed = Files.exists(dir);
    prepareOutput(dir, resultsFile, resume != null);
    Optional<Selection> calibration = Optional.empty();
    if (config.benchmark() && config.calibration()) {
      calibration = calibrationSelection(request);
    }
    Map<String, String> sources = new TreeMap<>();
    Map<String, String> code = new TreeMap<>();
    List<Selection> selections = servers.stream().map(Placement::selection).distinct().toList();
    for (Selection selection : calibration.isPresent() ? concat(selections, calibration.get()) : selections) {
      Path entryDir = selection.variant().map(v -> v.dir())
          .orElse(request.catalog().implsDir().resolve(selection.id()));
      sources.put(selection.id(), EntrySources.digest(entryDir));
      code.put(selection.id(), EntrySources.codeDigest(entryDir));
    }
    RunLock acquired;
    try {
      acquired = config.benchmark() ? RunLock.acquire(LOCK) : RunLock.NONE;
    } catch (PreflightException e) {
      // Refused before anything ran: leave no empty results folder behind.
      if (!existed) {
        try {
          Files.deleteIfExists(dir);
        } catch (IOException notEmpty) {
          // something was written there after all; keep it
        }
      }
      throw e;
    }
    try (RunLock lock = acquired) {
      Instant now = Instant.now();
      Environment environment = request.environment().make(now, runtime, client, loadGenerator, config);
      Optional<Placement> calibrationServer = calibration.map(c -> Placement.inDefault(c, runtime));
      environment = withRuntimes(environment, servers, calibrationServer, config);
      ResultsDocument header;
      if (resume == null) {
        header = new ResultsDocument(ResultsDocument.SCHEMA_VERSION, ResultsDocument.METHOD_VERSION, environment,
            new ResultsDocument.Method(config.kind(), config.rounds(), config.extraRounds(), config.seed(), config.rewarm().toMillis() / 1e3,
                config.rates().stream().map(r -> r.wireName()).toList(), config.disturbanceThreshold(), config.pipeline(),
                config.keepAlive(), config.ladderShare(), config.ladderEndpoints().stream().map(Endpoint::wireName).toList(),
                Defaults.SLOW_WAKEUPS, (double) Defaults.SPELL_WAIT.toSeconds(),
                config.ladderShare() > 0 ? config.ladderDuration().toMillis() / 1e3 : null,
                config.ladderShare() > 0 ? config.ladderRate() : null, config.forks(), CpuGauge.CLIENT,
                config.baselinesNarrowed() ? config.baselineEndpoints().stream().map(Endpoint::wireName).toList() : null,
                config.heldLadderRates() == null ? null : config.heldLadderRates().from(), null,
                MedianIntervalKind.INTERPOLATED),
            List.of(), null, List.of(), List.of(),
            new Invocation(config, request.selectors(), request.baselines(), request.catalog().implsDir().toString(),
                runtime.name(), request.serverHost(), request.serverAddress(), request.clientHost(), sources,
                code));
      } else {
        // Before any server starts: the same checkout, entries and machine as the run being continued.
        resume.checkCheckout(environment == null ? "unknown" : environment.gitCommit(),
            environment != null && environment.gitDirty(), sources);
        if (environment != null) {
          resume.checkEnvironment(environment);
        }
        ResultsDocument before = resume.previous();
        List<String> breaks = new ArrayList<>(before.breaks());
        breaks.add(resume.breakRecord(now));
        header = new ResultsDocument(before.schemaVersion(), before.methodVersion(), before.environment(), before.method(),
            List.of(), null, breaks, List.of(), before.invocation());
        err.printf(Locale.ROOT, "fairbench run: resuming %s from round %d of %d (results last written %s%s); "
                + "every entry is prepared again%n", resultsFile, resume.fromRound(), config.rounds(), resume.lastWritten(),
            resume.droppedRuns() == 0 ? "" : "; " + resume.droppedRuns() + " partial run"
                + (resume.droppedRuns() == 1 ? "" : "s") + " of round " + resume.fromRound() + " dropped");
      }
      if (config.benchmark()) {
        List<VisitBudget.Server> budgetServers = new java.util.ArrayList<>();
        for (Placement server : servers) {
          server.selection().variant().ifPresent(v -> budgetServers.add(new VisitBudget.Server(server.id(), v.baseline(),
              server.standsOn(), false)));
        }
        calibration.ifPresent(c -> budgetServers.add(new VisitBudget.Server(c.id(), false, "", true)));
        VisitBudget budget = VisitBudget.of(budgetServers, budgetServers.size(), oha != null, config);
        err.printf(Locale.ROOT, "fairbench run: %d entr%s%s, %s cells of %s, %d rounds × %ds (re-warm %d ms), seed %d; "
                + "server CPUs %s (%s), client CPUs %s%n",
            servers.size(), servers.size() == 1 ? "y" : "ies", calibration.map(c -> " + calibration " + c.id()).orElse(""),
            config.kind().wireName(), config.endpoints().stream().map(Endpoint::wireName).collect(Collectors.joining(",")),
            config.rounds(), config.duration().toSeconds(), config.rewarm().toMillis(), config.seed(),
            config.limits().serverCpus(), describeRuntimes(runtime, servers), config.limits().clientCpus());
        if (client != null && !(client instanceof LocalLoadClient)) {
          err.println("  load client: " + client.describe() + ", CPUs " + client.cpus());
        }
        // Before availability and conformance are known: an upper bound; the pipeline says the real count once prepared.
        err.printf(Locale.ROOT, "  up to %s, with warm build caches%n  results: %s (rewritten after every visit)%n",
            budget.describe(), resultsFile);
        if (header.environment() != null && header.environment().topology() != null) {
          err.println("  topology: " + dev.fairbench.orchestrator.runtime.Topology.describe(header.environment().topology()));
        }
        err.flush();
      }
      Pipeline pipeline = new Pipeline(config, runtime, wrk, oha, listener, header, resultsFile);
      if (resume != null) {
        pipeline.resuming(resume);
      }
      pipeline.keepingVerdicts(request.verdicts());
      ResultsDocument results = pipeline.run(servers, calibrationServer);
      Reports.Written written = config.benchmark() ? Reports.writeAll(results, dir) : null;
      boolean failed = false;
      for (EntryResult entry : results.entries()) {
        boolean skipped = request.selectors().isEmpty() && entry.status() == EntryStatus.UNAVAILABLE;
        failed |= entry.status().failed() && !skipped && !entry.calibration();
      }
      return new Outcome(results, resultsFile, written, failed);
    }
  }

  /**
   * In a run of two runtimes, the environment lists both, the default one first, each with the
   * servers prepared in it (the calibration server in the default one); the engine's settings are
   * recorded when the Docker runtime is the second one.
   */
  static Environment withRuntimes(Environment environment, List<Placement> servers, Optional<Placement> calibration,
      RunConfig config) {
    Map<ServerRuntime, List<String>> byRuntime = new java.util.LinkedHashMap<>();
    calibration.ifPresent(c -> byRuntime.put(c.runtime(), new ArrayList<>()));
    servers.stream().filter(s -> !s.suffixed()).forEach(s -> byRuntime.computeIfAbsent(s.runtime(), r -> new ArrayList<>()));
    for (Placement server : servers) {
      byRuntime.computeIfAbsent(server.runtime(), r -> new ArrayList<>()).add(server.id());
    }
    calibration.ifPresent(c -> byRuntime.get(c.runtime()).add(c.id()));
    if (environment == null || byRuntime.size() < 2) {
      return environment;
    }
    List<Environment.RuntimeUse> uses = new ArrayList<>();
    Environment.EngineSettings engine = environment.engine();
    for (Map.Entry<ServerRuntime, List<String>> used : byRuntime.entrySet()) {
      ServerRuntime runtime = used.getKey();
      uses.add(new Environment.RuntimeUse(runtime.kind(), runtime.name(), runtime.limitsMode(), runtime.limitsNote(),
          used.getValue()));
      if (engine == null) {
        engine = runtime.engineSettings(config.limits());
      }
    }
    return environment.withRuntimes(uses).withEngine(engine);
  }

  /** For the banner: "cgroup-v1, native runtime", or both runtimes with what runs in the second one. */
  private static String describeRuntimes(ServerRuntime runtime, List<Placement> servers) {
    String first = runtime.limitsMode() + ", " + runtime.name() + " runtime";
    List<ServerRuntime> others = servers.stream().filter(Placement::suffixed).map(Placement::runtime).distinct().toList();
    if (others.isEmpty()) {
      return first;
    }
    return first + "; " + String.join("; ", others.stream().map(o -> o.limitsMode() + ", " + o.name() + " runtime for "
        + servers.stream().filter(s -> s.runtime() == o).map(Placement::id).collect(Collectors.joining(" "))).toList())
        + " — both in the same rounds, under the same limits; the calibration server in " + runtime.name();
  }

  private static Optional<Selection> calibrationSelection(Request request) {
    EntryCatalog servers;
    try {
      servers = EntryCatalog.load(request.calibrationDir());
      return servers.select(List.of(request.calibrationServer())).stream().findFirst();
    } catch (IllegalArgumentException | UnknownEntryException e) {
      throw new PreflightException("the calibration server " + request.calibrationServer() + " is not under "
          + request.calibrationDir() + ": " + e.getMessage() + " (or run with --no-calibration)");
    }
  }

  private static List<Selection> concat(List<Selection> selections, Selection more) {
    List<Selection> all = new ArrayList<>(selections);
    all.add(more);
    return all;
  }

  /**
   * The output folder exists, takes a probe file of a few MiB (written through to the disk, then
   * deleted: permission bits do not stop root, a full or read-only disk does), has room, and holds
   * no earlier results unless the run resumes them.
   */
  static void prepareOutput(Path dir, Path resultsFile, boolean resuming) {
    if (!resuming && Files.exists(resultsFile)) {
      throw new PreflightException(resultsFile + " already exists; choose another --output");
    }
    try {
      Files.createDirectories(dir);
      Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
      try {
        probeWriter.write(probe, PROBE_BYTES);
      } finally {
        Files.deleteIfExists(probe);
      }
      long free = Files.getFileStore(dir).getUsableSpace();
      if (free < MIN_FREE_BYTES) {
        throw new PreflightException(String.format(Locale.ROOT,
            "the output folder %s has %d MiB free; a run needs at least %d MiB", dir, free >> 20, MIN_FREE_BYTES >> 20));
      }
    } catch (IOException e) {
      String why = e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
          : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new PreflightException("cannot write to the output folder " + dir + ": " + why
          + " (a " + (PROBE_BYTES >> 20) + " MiB probe file); nothing was started");
    }
  }

  /** Writes the preflight's probe file (package-private seam: a test makes it fail). */
  interface ProbeWriter {
    void write(Path file, int bytes) throws IOException;
  }

  static volatile ProbeWriter probeWriter = RunSession::writeProbe;

  static void writeProbe(Path file, int bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      java.nio.ByteBuffer chunk = java.nio.ByteBuffer.allocate(1 << 20);
      for (int written = 0; written < bytes; written += chunk.capacity()) {
        chunk.clear();
        while (chunk.hasRemaining()) {
          channel.write(chunk);
        }
      }
      channel.force(true);
    }
  }

  /** Held for the whole run; released when closed or when the JVM dies. */
  static final class RunLock implements AutoCloseable {
    static final RunLock NONE = new RunLock(null, null);
    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(FileChannel channel, FileLock lock) {
      this.channel = channel;
      this.lock = lock;
    }

    static RunLock acquire(Path file) {
      try {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.READ);
        FileLock lock;
        try {
          lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null;
        }
        if (lock == null) {
          String holder = "";
          try {
            holder = Files.readString(file, StandardCharsets.UTF_8).trim();
          } catch (IOException e) {
            // unreadable: say nothing about the holder
          }
          channel.close();
          throw new PreflightException("another fairbench run holds " + file
              + (holder.isEmpty() ? "" : " (" + holder + ")") + "; two runs at once would measure each other — wait for it");
        }
        channel.truncate(0);
        channel.write(java.nio.ByteBuffer.wrap(("pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        return new RunLock(channel, lock);
      } catch (IOException e) {
        throw new PreflightException("cannot take the run lock " + file + ": " + e.getMessage());
      }
    }

    @Override
    public void close() {
      try {
        if (lock != null) {
          lock.release();
        }
        if (channel != null) {
          channel.close();
        }
      } catch (IOException e) {
        // released with the process anyway
      }
    }
  }

  /** Server CPUs as a count, for messages. */
  static int serverCpuCount(RunConfig config) {
    return CpuSet.count(config.limits().serverCpus());
  }
}
