package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.conformance.ClauseResult;
import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.UnreachableServerException;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.RateSpec;
import dev.fairbench.orchestrator.config.HeldLadderRates;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.events.RunListener;
import dev.fairbench.orchestrator.load.ConstantRateResult;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.LoadGenerator;
import dev.fairbench.orchestrator.load.LoadResult;
import dev.fairbench.orchestrator.load.LoadSpec;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import dev.fairbench.orchestrator.load.SlicedLoad;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsDocument.Probe;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.Disturbance;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.core.OpenFileLimit;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.ClockTicks;
import dev.fairbench.orchestrator.runtime.FreezeTiming;
import dev.fairbench.orchestrator.runtime.ListenCheck;
import dev.fairbench.orchestrator.runtime.LogFile;
import dev.fairbench.orchestrator.runtime.ResourceUsage;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.ServerRegistry;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import dev.fairbench.orchestrator.runtime.ThreadSample;
import dev.fairbench.orchestrator.stats.Statistics;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * The one pipeline. First every selected entry is prepared: availability, build, start under its
 * limits, readiness, the conformance gate, liveness; conformant ones are kept running and frozen.
 * Then every cell (entry × variant × endpoint, × rate for rate cells; the calibration server's too)
 * is warmed up, and measured in R rounds: each round visits every cell once in a fresh order
 * shuffled from the recorded seed — thaw, re-warm, one measured run, freeze. A visit disturbed by
 * other work on the server's CPUs is repeated once later in its round, both recorded, unless the repeat
 * would end the rounds past the run's time limit: then the disturbed visit counts. The
 * results file is rewritten after every visit. Statistics come at the end, from {@link Derivation}.
 */
public final class Pipeline {
  private static final int TAIL_LINES = 20;
  /** The suite's pipelining clause (docs/SPEC.md 11.6). */
  static final String PIPELINING_CLAUSE = "11.6";
  /** Connections of the re-warm after each thaw. */
  static final int REWARM_CONNECTIONS = 16;

  private final RunConfig config;
  /** When this run (or this resumption of it) began: the time limit of its extra visits counts from here. */
  private final Instant began = Instant.now();
  /** Visits made by this process since its first round began, and when that was: the seconds a visit costs here. */
  private int visitsMade;
  private Instant firstVisitStarted;
  /** Disturbed visits counted without a repeat, because one would have ended the rounds past the time limit. */
  private int unrepeated;
  private final ServerRuntime runtime;
  private final LoadGenerator wrk;
  private final OhaLoadGenerator oha;
  private final RunListener listener;
  private final Path resultsFile;
  private ResultsDocument header;
  private final List<Slot> slots = new ArrayList<>();
  private final List<Cell> cells = new ArrayList<>();
  private final List<RoundRecord> rounds = new ArrayList<>();
  /** The run this one continues; null for a fresh run. */
  private Resumption resumption;
  /** Where the suite's verdicts are kept and may be reused from. */
  private VerdictStore verdicts = VerdictStore.NONE;
  /** A resumed run leaves the file it continues as it is until the kept runs are in its cells. */
  private boolean mayWrite = true;
  /** The servers run in more than one runtime: every one's limits are read back and checked equal. */
  private boolean mixed;

  /** Writes the results file (package-private seam: a test makes it fail after some writes). */
  interface ResultsWriter {
    void write(ResultsDocument document, Path file) throws IOException;
  }

  /** Told after each visit's results are written (package-private seam: a test stops the run there). */
  interface VisitHook {
    void written(int round, int visitsInRound);
  }

  static volatile ResultsWriter resultsWriter = ResultsJson::write;
  static volatile VisitHook afterVisit = (round, visits) -> {};
  /**
   * Whether the JVM is stopping everything (Ctrl-C, SIGTERM): the rounds may still go on for a moment
   * against stopped servers, and nothing measured from then on is written. A seam for tests.
   */
  static volatile java.util.function.BooleanSupplier terminating = ServerRegistry::stopping;

  /**
   * @param wrk         the throughput load generator; null when only conformance runs
   * @param oha         the constant-rate load generator; null unless rate cells run
   * @param header      the document to fill: environment and method kept, rounds and entries replaced
   * @param resultsFile rewritten after every visit; conformance reports go beside it
   */
  public Pipeline(RunConfig config, ServerRuntime runtime, LoadGenerator wrk, OhaLoadGenerator oha,
      RunListener listener, ResultsDocument header, Path resultsFile) {
    this.config = config;
    this.runtime = runtime;
    this.wrk = wrk;
    this.oha = oha;
    this.listener = listener;
    this.header = header;
    this.resultsFile = resultsFile;
  }

  /**
   * Continues the run of {@code from}: every entry is prepared again (new processes), the runs of
   * its complete rounds are kept, and the rounds are measured from {@link Resumption#fromRound()}.
   */
  public Pipeline resuming(Resumption from) {
    this.resumption = from;
    this.mayWrite = false;
    return this;
  }

  /** Keeps the suite's verdicts in {@code store}, and reuses them if it says so. */
  public Pipeline keepingVerdicts(VerdictStore store) {
    this.verdicts = store;
    return this;
  }

  /**
   * @param servers     every server to prepare, each with its runtime (in a run that mixes runtimes, the
   *                    servers of both are measured in the same rounds)
   * @param calibration the calibration server, prepared and measured like an entry; empty for none
   */
  public ResultsDocument run(List<Placement> servers, Optional<Placement> calibration) throws InterruptedException {
    save();
    mixed = java.util.stream.Stream.concat(servers.stream(), calibration.stream())
        .map(p -> p.runtime().kind()).distinct().count() > 1;
    ServerRegistry.sayOnStop(config.benchmark() ? "fairbench run: interrupted, stopping every server; " + howToGoOn()
        : "fairbench conformance: interrupted, stopping every server");
    try {
      prepareAll(servers, calibration);
      if (config.benchmark() && !config.onlyStartup()) {
        measure();
      }
    } finally {
      ServerRegistry.sayOnStop(null);
      for (Slot slot : slots) {
        slot.stop();
      }
    }
    if (terminating.getAsBoolean()) {
      throw terminated(); // the visits since the signal met stopped servers; the file keeps those before it
    }
    if (resumption != null && !mayWrite) {
      keepRunsBeforeTheBreak(); // no cell was measured after the break: the rounds before it stay
    }
    ResultsDocument done = Derivation.derive(document(), config);
    write(done);
    return done;
  }

  private void prepareAll(List<Placement> servers, Optional<Placement> calibration) throws InterruptedException {
    List<Placement> all = new ArrayList<>(servers);
    calibration.ifPresent(all::add);
    int index = 0;
    for (Placement placement : all) {
      if (terminating.getAsBoolean()) {
        throw terminated();
      }
      Selection selection = placement.selection();
      Role role = calibration.isPresent() && placement == calibration.get() ? Role.CALIBRATION
          : selection.variant().map(EntryVariant::baseline).orElse(false) ? Role.BASELINE : Role.ENTRY;
      listener.preparing(placement.id(), ++index, all.size());
      Slot slot = new Slot(placement, role);
      slots.add(slot);
      try {
        prepare(slot);
      } catch (RuntimeException e) {
        // A defect or an I/O failure while handling one entry must not cost the others their turn.
        slot.fail(EntryStatus.FAILED, "unexpected error: " + (e.getMessage() == null ? e.getClass().getName() : e.getMessage()), "");
      }
      if (terminating.getAsBoolean()) {
        throw terminated(); // what it met since the signal is the shutdown's doing, not the entry's
      }
      if (slot.server != null && slot.status == EntryStatus.MEASURED) {
        // Kept running for the rounds; frozen so it takes no CPU while the others are built and measured.
        slot.freeze();
      }
      Optional<EntryResult> before = previousEntry(slot.id());
      slot.serverLog = before.map(EntryResult::serverLog).orElse(null); // the runs measured before a break
      if (before.isPresent() && before.get().processes() != null) { // those that served the rounds before it, too
        slot.processes.addAll(0, before.get().processes().stream()
            .filter(p -> p.firstRound() < resumption.fromRound()).toList());
      }
      if (before.isPresent() && before.get().startup() != null && slot.server != null && !slot.status.failed()) {
        slot.startup = before.get().startup(); // measured before the break, on fresh starts too: kept
      } else if (config.benchmark() && slot.server != null && slot.role != Role.CALIBRATION && !slot.status.failed()) {
        // Fresh starts of the built entry (the kept server stays frozen meanwhile): start time, memory, size.
        slot.startup = StartupMeasurement.measure(slot.runtime, selection.variant().orElseThrow(), config.limits(),
            new StartupMeasurement.Options(config.startups(), true, 200));
      }
      save();
      listener.prepared(slot.result(List.of()));
    }
  }

  private void prepare(Slot slot) throws InterruptedException {
    Selection selection = slot.selection;
    if (selection.variant().isEmpty()) {
      slot.fail(EntryStatus.UNAVAILABLE, "manifest error: " + selection.manifestError().orElse("unknown"), "");
      return;
    }
    EntryVariant variant = selection.variant().get();
    ServerRuntime runtime = slot.runtime;
    Availability availability = runtime.availability(variant);
    if (!availability.available()) {
      slot.fail(EntryStatus.UNAVAILABLE, availability.reason(), "");
      return;
    }
    listener.building(slot.id());
    RunningServer server;
    Instant started = Instant.now();
    try {
      server = runtime.start(variant, config.limits(), freePort());
    } catch (ServerStartException e) {
      // Versions after the build: some commands need its output (a virtualenv's python).
      slot.versions = runtime.versions(variant, null);
      slot.fail(statusOf(e.stage()), e.getMessage(), e.logTail());
      return;
    }
    slot.server = server;
    slot.processes.add(new EntryResult.ProcessStart(resumption == null ? 1 : resumption.fromRound(), started));
    slot.memory = new MemoryTracker(server);
    slot.memory.idle();
    // Where the server runs: in its image under Docker, not this machine's tools.
    slot.versions = runtime.versions(variant, server);
    slot.limitsReadBack = server.limitsReadBack();
    slot.openFiles = server.openFiles().orElse(null);
    if (mixed) {
      Optional<String> unlike = unlikeLimits(server);
      if (unlike.isPresent()) {
        slot.fail(EntryStatus.LIMITS_FAILED, slot.id() + ": " + unlike.get(), "");
        return;
      }
    }
    if (!runtime.remote()) {
      Optional<String> wider = ListenCheck.beyondHost(server);
      if (wider.isPresent()) {
        slot.fail(EntryStatus.FAILED, slot.id() + " " + wider.get(), server.logTail(TAIL_LINES));
        return;
      }
    }
    List<String> outside = server.outsideLimits();
    if (!outside.isEmpty()) {
      slot.fail(EntryStatus.LIMITS_FAILED, slot.id() + " runs outside its limits: " + String.join("; ", outside),
          server.logTail(TAIL_LINES));
      return;
    }
    listener.serverReady(slot.id(), server.baseUrl().toString());
    if (slot.role == Role.CALIBRATION) {
      // The calibration server answers three endpoints with fixed bodies; the correctness check of each
      // cell, not the suite, proves it does the same work there.
      slot.status = EntryStatus.MEASURED;
      return;
    }
    Path reportFile = resultsFile.resolveSibling("conformance").resolve(slot.id().replace(':', '_') + ".json");
    String contentHash = null;
    if (verdicts.records()) {
      try {
        contentHash = VerdictStore.contentHash(variant, runtime.name(), slot.versions, config.limits(),
            config.suiteTimeLimit());
      } catch (RuntimeException e) {
        // Without a hash the suite runs, as it would with nothing kept: reuse is a saving, never a condition.
        listener.note("  " + slot.id() + ": its conformance verdict can be neither reused nor kept (" + e.getMessage() + ")");
      }
    }
    Optional<VerdictStore.Kept> kept = contentHash == null ? Optional.empty() : verdicts.find(contentHash);
    SuiteReport report;
    if (kept.isPresent()) {
      report = kept.get().report();
    } else {
      try {
        report = ConformanceSuite.run(server.baseUrl(), config.suiteTimeLimit());
      } catch (UnreachableServerException e) {
        slot.fail(EntryStatus.FAILED, "the conformance suite could not reach the server: " + e.getMessage()
            + server.exitReason().map(r -> " (server " + r + ")").orElse(""), server.logTail(TAIL_LINES));
        return;
      }
    }
    try {
      ConformanceReports.writeJson(report, reportFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the conformance report " + reportFile, e);
    }
    String reportPath = resultsFile.getParent().relativize(reportFile).toString();
    if (kept.isPresent()) {
      listener.conformanceReused(slot.id(), report, reportFile, kept.get().reused());
      slot.conformance = summary(report, reportPath, kept.get().reused());
    } else {
      listener.conformanceFinished(slot.id(), report, reportFile);
      slot.conformance = summary(report, reportPath, null);
      // Kept only from a server still alive: a verdict of one that died during the suite is not its own.
      if (contentHash != null && server.isAlive()) {
        verdicts.keep(contentHash, report, config.suiteTimeLimit())
            .ifPresent(why -> listener.note("  " + slot.id() + ": " + why));
      }
    }
    List<String> failed = report.withVerdict(Verdict.FAIL).stream().map(ClauseResult::id).toList();
    // A server that mishandles pipelining cannot be measured pipelined, whatever --accept-fail says.
    List<String> notAccepted = failed.stream()
        .filter(id -> !config.acceptFail().contains(id) || (config.pipeline() > 1 && id.equals(PIPELINING_CLAUSE)))
        .toList();
    if (!notAccepted.isEmpty()) {
      slot.fail(EntryStatus.CONFORMANCE_FAILED, "conformance FAIL in clause" + (failed.size() == 1 ? " " : "s ")
          + String.join(", ", failed) + (config.benchmark() ? "; not benchmarked" : ""), "");
      return;
    }
    slot.acceptedFailures = failed;
    if (!server.isAlive()) {
      slot.fail(EntryStatus.FAILED, "the server " + server.exitReason().orElse("exited")
          + (kept.isPresent() ? " after it was ready" : " during the conformance suite"), server.logTail(TAIL_LINES));
      return;
    }
    slot.status = config.benchmark() ? EntryStatus.MEASURED : EntryStatus.CONFORMANT;
  }

  /**
   * In a run of two runtimes, what makes this server's limits differ from the run's: its CPU set,
   * memory limit and open-file limit as read back (cgroup files natively, docker inspect in Docker);
   * empty when they are the same. A server whose limits cannot be read back is not measured either.
   */
  private Optional<String> unlikeLimits(RunningServer server) {
    Optional<dev.fairbench.orchestrator.runtime.AppliedLimits> applied = server.appliedLimits();
    if (applied.isEmpty()) {
      return Optional.of("its limits cannot be read back, and a run of two runtimes measures only servers whose "
          + "limits are read back equal; not measured");
    }
    List<String> differences = applied.get().differences(config.limits());
    return differences.isEmpty() ? Optional.empty() : Optional.of("its limits differ from every other server's in this "
        + "run of two runtimes (read back from " + applied.get().source() + "): " + String.join("; ", differences)
        + "; not measured");
  }

  private void measure() throws InterruptedException {
    List<Slot> live = slots.stream().filter(s -> s.server != null && s.status == EntryStatus.MEASURED).toList();
    for (Slot slot : live) {
      // A baseline with a ladder in this run is there for its ladder cells: its throughput cells narrow to
      // --baseline-endpoints, which include the ladder endpoints its maximum is needed on.
      boolean laddered = oha != null && slot.role == Role.BASELINE
          && live.stream().anyMatch(s -> s.standsOn().equals(slot.id()));
      for (Endpoint endpoint : config.endpointsOf(laddered)) {
        if (slot.role == Role.CALIBRATION && endpoint == Endpoint.VALIDATE) {
          continue; // nginx has no JSON validation; the calibration covers the three GET endpoints
        }
        if (config.kind() == CellKind.RATE) {
          for (RateSpec rate : config.rates()) {
            cells.add(new Cell(slot, endpoint, rate));
          }
        } else {
          cells.add(new Cell(slot, endpoint, null));
        }
      }
    }
    if (cells.isEmpty()) {
      return;
    }
    VisitBudget budget = VisitBudget.of(live.stream().map(s -> new VisitBudget.Server(s.id(),
        s.role == Role.BASELINE, s.standsOn(), s.role == Role.CALIBRATION)).toList(), 0, oha != null, config);
    listener.note("measuring " + budget.describe());
    secondsPerFreshStart = config.forks() <= 1 ? 0 : budget.restartSeconds() / (config.forks() - 1);
    // While cells run, the orchestrator stays off the server's CPUs; the result is recorded.
    boolean moved = SelfPlacement.moveTo(config.limits().clientCpus());
    header = Derivation.withPlacement(header, moved, config.limits().clientCpus());
    DisturbanceMeter meter = runtime.remote() ? null : new DisturbanceMeter(config.limits().serverCpus(),
        clientHere() ? config.limits().clientCpus() : null, ClockTicks.perSecond());
    Optional<CpuProbe> probe = runtime.remote() ? Optional.empty() : CpuProbe.create(config.limits().serverCpus());
    speedProbe = runtime.remote() ? Optional.empty()
        : SpeedProbe.create(config.limits().serverCpus(), clientHere() ? config.limits().clientCpus() : null);
    header = Derivation.withMemoryProbePages(header, speedProbe.flatMap(SpeedProbe::memoryPages).orElse(null));
    if (runtime.remote()) {
      listener.note("note: the servers run on a remote engine: no disturbance evidence or CPU probe from this machine");
    } else if (probe.isEmpty()) {
      listener.note("note: the CPU probe (taskset + sha256sum) cannot run here; rounds have no probe figure");
    }
    if (speedProbe.isPresent() && clientHere() && !speedProbe.get().readsWakeups()) {
      listener.note("note: the wake-up probe (taskset + cat) cannot run here; no visit is judged by its wake-ups");
    }
    try {
      warmUp(live);
      readUsualWakeups();
      int firstHere = resumption == null ? 1 : resumption.fromRound();
      for (int round = firstHere; round <= config.rounds(); round++) {
        if (round > firstHere && config.firstRoundOf(config.forkOf(round)) == round) {
          Instant restarting = Instant.now();
          startAfresh(live, round);
          // what this one took is what the next one is reckoned to take
          secondsPerFreshStart = Duration.between(restarting, Instant.now()).toMillis() / 1e3;
          secondsStartingAfreshInRun += secondsPerFreshStart;
        }
        runRound(round, cells, meter, probe);
      }
      runExtraRounds(meter, probe);
      checkAnswersAfterTheRuns(live);
    } finally {
      probe.ifPresent(CpuProbe::close);
      speedProbe.ifPresent(SpeedProbe::close);
      speedProbe = Optional.empty();
      SelfPlacement.restore();
    }
  }

  private static final Duration ANSWER_CHECK_TIMEOUT = Duration.ofSeconds(5);

  /**
   * Before the first round of each process after the first (--forks): every server stopped and started afresh
   * from its build, checked as at its preparation (limits, listening address, every cell's answers) and warmed
   * up on each of its endpoints; the suite is not run again (the build is the same) and the rates chosen at
   * the warm-up stay. In a fresh shuffled order, like the warm-up.
   */
  private void startAfresh(List<Slot> live, int round) throws InterruptedException {
    int fork = config.forkOf(round);
    listener.note(String.format(Locale.ROOT, "process %d of %d of every server, for rounds %d–%d: starting afresh",
        fork, config.forks(), round, fork == config.forks() ? config.rounds() : config.firstRoundOf(fork + 1) - 1));
    List<Slot> order = new ArrayList<>(live);
    Collections.shuffle(order, new Random(config.seed() + round));
    for (Slot slot : order) {
      if (terminating.getAsBoolean()) {
        return; // the rounds end too; the run stops as after a visit
      }
      List<Cell> own = cells.stream().filter(c -> c.slot == slot && !c.failed()).toList();
      if (own.isEmpty() || slot.server == null || slot.brokenReason != null || slot.stopped) {
        continue;
      }
      try {
        startAfresh(slot, own, fork, round);
      } catch (RuntimeException e) {
        // A defect or an I/O failure while handling one entry must not cost the others their turn.
        failAllOf(slot, "unexpected error while starting its process " + fork + ": "
            + (e.getMessage() == null ? e.getClass().getName() : e.getMessage()));
        slot.stop();
      }
    }
    save();
  }

  private void startAfresh(Slot slot, List<Cell> own, int fork, int round) throws InterruptedException {
    if (!slot.server.isAlive()) {
      failAllOf(slot); // gone since its last visit: a fresh process must not hide that
      return;
    }
    slot.server.close();
    Instant started = Instant.now();
    RunningServer next;
    try {
      next = slot.runtime.startBuilt(slot.selection.variant().orElseThrow(), config.limits(), freePort());
    } catch (ServerStartException e) {
      failAllOf(slot, "its process " + fork + " (for the rounds from " + round + " on) did not start: " + e.getMessage());
      slot.logTail = e.logTail();
      slot.stopped = true;
      return;
    }
    slot.server = next;
    slot.frozen = false;
    slot.processes.add(new EntryResult.ProcessStart(round, started));
    slot.memory.follow(next);
    listener.note(String.format(Locale.ROOT, "  %s: process %d ready at %s after %.1f s", slot.id(), fork, next.baseUrl(),
        Duration.between(started, Instant.now()).toMillis() / 1e3));
    List<String> outside = next.outsideLimits();
    Optional<String> wider = slot.runtime.remote() ? Optional.empty() : ListenCheck.beyondHost(next);
    Optional<String> unlike = mixed ? unlikeLimits(next) : Optional.empty();
    if (!outside.isEmpty() || wider.isPresent() || unlike.isPresent()) {
      failAllOf(slot, "its process " + fork + " " + (!outside.isEmpty()
          ? "runs outside its limits: " + String.join("; ", outside) : wider.orElseGet(unlike::orElseThrow)));
      slot.stop();
      return;
    }
    slot.ohaAnswers.clear();
    Map<String, List<Double>> warmups = new LinkedHashMap<>();
    for (Cell cell : own) {
      listener.warmingUp(slot.id(), cell.name());
      Optional<String> wrong = CorrectnessCheck.check(next.baseUrl(), cell.endpoint);
      if (wrong.isEmpty()) {
        wrong = checkTheLoadClientsAnswers(slot, cell);
      }
      if (wrong.isPresent()) {
        cell.fail("correctness check of process " + fork + " failed: " + wrong.get());
        listener.cellFailed(slot.id(), cell.name(), cell.reason);
        continue;
      }
      if (config.warmup().isZero() || warmups.containsKey(cell.endpoint.wireName())) {
        continue;
      }
      try {
        // the rule of the warm-up before round 1, so that this process too begins its rounds warm
        WarmMaximum.Run run = () -> wrk.run(throughputSpec(next, cell.endpoint, config.warmup())).requestsPerSecond();
        double first = run.requestsPerSecond();
        WarmMaximum.Settled max = WarmMaximum.warm(first, run);
        warmups.put(cell.endpoint.wireName(), max.figures());
        if (max.runs() > 2 || !max.agreed()) {
          noteWarmup(slot.id() + " " + cell.endpoint.wireName(), " of process " + fork, max, false);
        }
      } catch (LoadException e) {
        failAllOf(slot, "the warm-up of its process " + fork + " failed: " + e.getMessage());
        break;
      }
    }
    slot.processes.set(slot.processes.size() - 1, new EntryResult.ProcessStart(round, started, warmups));
    checkAlive(slot, "during the warm-up of its process " + fork);
    slot.freeze();
  }

  /** "  go-gin json: 68,213 req/s after 5 warm-up runs (the first 41,319)", and how it ended if not by its rule. */
  private void noteWarmup(String subject, String whose, WarmMaximum.Settled max, boolean shareOfMax) {
    listener.note(String.format(Locale.ROOT, "  %s: %,.0f req/s after %d warm-up runs%s (the first %,.0f)%s", subject,
        max.requestsPerSecond(), max.runs(), whose, max.figures().getFirst(), max.agreed() ? ""
            : shareOfMax ? ", the last two still " + Math.round(WarmMaximum.AGREEMENT * 100) + "% or more apart"
            : ", the last still more than " + Math.round(WarmMaximum.AGREEMENT * 100) + "% faster than the one before"));
  }

  /** Every endpoint of every server once, before round 1: JITs compile, caches fill, pools grow. */
  private void warmUp(List<Slot> live) throws InterruptedException {
    List<Slot> order = new ArrayList<>(live);
    Collections.shuffle(order, new Random(config.seed()));
    for (Slot slot : order) {
      if (!slot.thawForUse()) {
        continue;
      }
      for (Cell cell : cells) {
        if (cell.slot != slot || cell.failed()) {
          continue;
        }
        listener.warmingUp(slot.id(), cell.name());
        Optional<String> wrong = CorrectnessCheck.check(slot.server.baseUrl(), cell.endpoint);
        if (wrong.isEmpty()) {
          wrong = checkTheLoadClientsAnswers(slot, cell);
        }
        if (wrong.isPresent()) {
          cell.fail("correctness check failed: " + wrong.get());
          listener.cellFailed(slot.id(), cell.name(), cell.reason);
          continue;
        }
        if (config.warmup().isZero()) {
          continue;
        }
        try {
          // wrk at full speed, the same in both modes, while the server is still getting faster, so
          // that round 1 does not begin cold; a share-of-max rate's maximum until two runs agree.
          double first = wrk.run(throughputSpec(slot.server, cell.endpoint, config.warmup())).requestsPerSecond();
          WarmMaximum.Run next = () -> wrk.run(throughputSpec(slot.server, cell.endpoint, config.warmup()))
              .requestsPerSecond();
          boolean shareOfMax = cell.rate != null && cell.rate.shareOfMax();
          WarmMaximum.Settled max = shareOfMax ? WarmMaximum.settle(first, next) : WarmMaximum.warm(first, next);
          cell.warmupMax = max.requestsPerSecond();
          cell.warmup = max.figures();
          if (max.runs() > 2 || !max.agreed() || shareOfMax) {
            noteWarmup(slot.id() + " " + cell.name(), "", max, shareOfMax);
          }
        } catch (LoadException e) {
          cell.fail("warm-up failed: " + e.getMessage());
          listener.cellFailed(slot.id(), cell.name(), cell.reason);
        }
      }
      checkAlive(slot, "during the warm-up");
      slot.memory.warm();
      slot.freeze();
    }
    for (Cell cell : cells) {
      if (cell.rate != null && !cell.failed()) {
        cell.targetRate = cell.rate.requestsPerSecond(cell.warmupMax);
        if (cell.rate.shareOfMax() && !(cell.warmupMax > 0)) {
          cell.fail("the warm-up measured no maximum to take " + cell.rate.wireName() + " of");
        } else if (!(cell.targetRate >= RateSpec.FEWEST_REQUESTS_PER_SECOND)) {
          cell.fail(String.format(Locale.ROOT, "%s of the maximum of %,.0f req/s is under 1 request per second: a run "
              + "would schedule no request", cell.rate.wireName(), cell.warmupMax));
        }
      }
    }
    addLadderCells(live);
    if (resumption != null) {
      keepRunsBeforeTheBreak();
    }
    save();
  }

  /**
   * The cell's load request as its load client sends it, answered once: wrk's for a throughput cell,
   * oha's for a rate cell. oha's answer is kept per endpoint too, for the ladder cells made after the
   * warm-up. The size of the answer goes to the cell; a wrong answer is the reason it fails.
   */
  private Optional<String> checkTheLoadClientsAnswers(Slot slot, Cell cell) {
    if (cell.kind == CellKind.THROUGHPUT) {
      switch (checkAsLoaded(slot, cell.endpoint, false)) {
        case AnswerCheck.Size size -> cell.answerBytes = size.bytes();
        case AnswerCheck.Wrong w -> {
          return Optional.of(w.why());
        }
      }
    }
    if (oha == null) {
      return Optional.empty();
    }
    AnswerCheck.Outcome ohas = slot.ohaAnswers.computeIfAbsent(cell.endpoint, endpoint -> checkAsLoaded(slot, endpoint, true));
    if (cell.rate != null) {
      switch (ohas) {
        case AnswerCheck.Size size -> cell.answerBytes = size.bodyBytes();
        case AnswerCheck.Wrong w -> {
          return Optional.of(w.why());
        }
      }
    }
    return Optional.empty();
  }

  /**
   * After the last round each measured cell's load request is answered once more and judged as at the
   * warm-up. A server that answered correctly before the runs and wrongly after them — a fault that
   * strikes after so many requests, an answer of the checked size but not the checked content — did
   * not do the measured work all along: the cell fails, its runs kept.
   */
  private void checkAnswersAfterTheRuns(List<Slot> live) {
    int checked = 0;
    int wrong = 0;
    int escaped = 0;
    for (Slot slot : live) {
      List<Cell> measured = cells.stream().filter(c -> c.slot == slot && !c.failed() && !c.runs.isEmpty()).toList();
      if (measured.isEmpty() || !slot.thawForUse()) {
        continue;
      }
      for (Cell cell : measured) {
        checked++;
        if (checkAsLoaded(slot, cell.endpoint, cell.kind.constantRate()) instanceof AnswerCheck.Wrong w) {
          wrong++;
          cell.fail("the answer after the runs was wrong: " + w.why());
          listener.cellFailed(slot.id(), cell.name(), cell.reason);
        }
      }
      List<String> outside = slot.server.outsideLimits();
      if (!outside.isEmpty()) {
        escaped++;
        for (Cell cell : measured.stream().filter(c -> !c.failed()).toList()) {
          cell.fail("after the runs it ran outside its limits: " + String.join("; ", outside));
          listener.cellFailed(slot.id(), cell.name(), cell.reason);
        }
      }
      checkAlive(slot, "after the runs");
      slot.freeze();
    }
    if (checked > 0) {
      listener.note(String.format(Locale.ROOT, "answers checked again after the runs: %d cell%s, %s", checked,
          checked == 1 ? "" : "s", wrong == 0 ? "none wrong" : wrong + " wrong"));
      if (escaped > 0) {
        listener.note(escaped + " server" + (escaped == 1 ? " was" : "s were") + " found outside its limits after the runs");
      }
      save();
    }
  }

  /** The endpoint's request as the load client sends it — oha's, or wrk's — answered and judged. */
  private AnswerCheck.Outcome checkAsLoaded(Slot slot, Endpoint endpoint, boolean byOha) {
    return byOha ? AnswerCheck.check(slot.server.baseUrl(), endpoint, false, oha.requestHeaders(), ANSWER_CHECK_TIMEOUT)
        : AnswerCheck.check(slot.server.baseUrl(), endpoint, !config.keepAlive(), ANSWER_CHECK_TIMEOUT);
  }

  private static final String FAILED_BEFORE = "failed before the break: ";

  /**
   * A resumed run's cells take the runs of the rounds complete before the break (their rate, too,
   * so a cell stays one cell); a cell that had failed stays failed with its reason; a cell new since
   * (its entry was not measured then) counts only the rounds from the break on.
   */
  private void keepRunsBeforeTheBreak() {
    for (Cell cell : cells) {
      Optional<CellResult> before = previousCell(cell);
      if (before.isEmpty()) {
        cell.firstRound = resumption.fromRound();
        continue;
      }
      List<RunRecord> kept = resumption.keptRuns(before.get());
      cell.runs.addAll(0, kept);
      cell.answerBytes = before.get().answerBytes(); // checked again at the warm-up, if the cell is visited
      if (before.get().status() == CellStatus.FAILED || before.get().status() == CellStatus.PARTIAL) {
        if (!cell.failed()) {
          String why = before.get().reason();
          cell.fail(why.startsWith(FAILED_BEFORE) ? why : FAILED_BEFORE + why);
        }
        continue;
      }
      if (cell.rate != null && !cell.failed()) {
        kept.stream().filter(r -> r.rate() != null).findFirst().ifPresent(r -> cell.targetRate = r.rate().targetRate());
      }
    }
    for (RoundRecord round : resumption.previous().rounds()) {
      if (round.index() < resumption.fromRound()) {
        rounds.add(round);
        roundStarts.put(round.index(), round.started());
      }
    }
    mayWrite = true;
  }

  private Optional<EntryResult> previousEntry(String id) {
    return resumption == null ? Optional.empty()
        : resumption.previous().entries().stream().filter(e -> e.id().equals(id)).findFirst();
  }

  private Optional<CellResult> previousCell(Cell cell) {
    return previousEntry(cell.slot.id()).flatMap(e -> e.cells().stream()
        .filter(c -> c.endpoint().equals(cell.endpoint.wireName()) && c.kind() == cell.kind
            && c.rate().equals(cell.rate == null ? "" : cell.rate.wireName()))
        .findFirst());
  }

  /**
   * For each baseline and the frameworks standing on it, one ladder cell per ladder endpoint, all at
   * the same rate: a share of the slowest rung's maximum from the warm-up (rounded down to a round rate
   * by default, {@link dev.fairbench.orchestrator.core.LadderRate}), so that every rung does the same
   * work and their CPU per request can be subtracted (a client-bound baseline and a saturated
   * framework cannot be).
   */
  private void addLadderCells(List<Slot> live) {
    if (config.ladderShare() <= 0 || oha == null) {
      return;
    }
    for (Slot base : live) {
      if (base.role != Role.BASELINE) {
        continue;
      }
      List<Slot> rungs = new ArrayList<>(List.of(base));
      live.stream().filter(s -> s.standsOn().equals(base.id())).forEach(rungs::add);
      if (rungs.size() < 2) {
        continue; // a baseline whose frameworks are not in this run has nothing to be subtracted from
      }
      for (Endpoint endpoint : config.ladderEndpoints()) {
        double slowest = Double.MAX_VALUE;
        for (Slot rung : rungs) {
          slowest = Math.min(slowest, cells.stream().filter(c -> c.slot == rung && c.endpoint == endpoint
              && c.rate == null && c.kind == CellKind.THROUGHPUT && !c.failed()).mapToDouble(c -> c.warmupMax)
              .max().orElse(0));
        }
        RateSpec share = new RateSpec(config.ladderShare() * 100, true);
        double rate = ladderRate(base, endpoint, slowest);
        for (Slot rung : rungs) {
          Cell ladder = new Cell(rung, endpoint, share, CellKind.LADDER);
          ladder.targetRate = rate;
          if (!(ladder.targetRate >= 1)) {
            ladder.fail("a rung of the ladder measured no maximum in the warm-up; no common rate");
          } else {
            switch (rung.ohaAnswers.get(endpoint)) {
              case AnswerCheck.Size size -> ladder.answerBytes = size.bodyBytes();
              case AnswerCheck.Wrong w -> ladder.fail("correctness check failed: " + w.why());
              case null -> ladder.fail("the load client's answer was not checked at the warm-up");
            }
          }
          cells.add(ladder);
        }
      }
    }
  }

  /**
   * The ladder's common rate: the rate an earlier run held it at (--ladder-rates-from) when every rung here can
   * hold it with room, else its own rule's share of the slowest rung's maximum; the progress says which.
   */
  private double ladderRate(Slot base, Endpoint endpoint, double slowest) {
    double own = config.ladderRate().of(config.ladderShare(), slowest);
    HeldLadderRates held = config.heldLadderRates();
    if (held == null || !(own >= 1)) {
      return own;
    }
    String ladder = HeldLadderRates.key(base.id(), endpoint);
    Optional<Double> kept = held.holdable(base.id(), endpoint, slowest);
    if (kept.isPresent()) {
      listener.note(String.format(Locale.ROOT, "ladder %s: held at %.0f req/s, as in %s (%.0f%% of its slowest rung's "
          + "maximum here; its own rate would be %.0f)", ladder, kept.get(), held.from(), 100 * kept.get() / slowest, own));
      return kept.get();
    }
    listener.note(held.rate(base.id(), endpoint).map(r -> String.format(Locale.ROOT, "ladder %s: not held at %.0f "
        + "req/s, as in %s: that is %.0f%% of its slowest rung's maximum here, above %.0f%%; at its own rate, %.0f "
        + "req/s (compare will say the two runs' ladders ran at two rates)", ladder, r, held.from(), 100 * r / slowest,
        100 * HeldLadderRates.HOLDABLE_SHARE, own))
        .orElse(String.format(Locale.ROOT, "ladder %s: %s has no rate for it; at its own rate, %.0f req/s", ladder,
            held.from(), own)));
    return own;
  }

  /**
   * After the rounds, up to --extra-rounds more, each over the cells whose interval is still wider than
   * the trust threshold (and anchors, {@link ExtraRounds}), until none is, or the extra visits would
   * pass a third of the rounds'.
   */
  private void runExtraRounds(DisturbanceMeter meter, Optional<CpuProbe> probe) throws InterruptedException {
    if (config.extraRounds() == 0) {
      return;
    }
    int budget = ExtraRounds.visitBudget(config.rounds(), (int) cells.stream().filter(c -> !c.failed()).count());
    int spent = 0;
    for (int extra = 1; extra <= config.extraRounds(); extra++) {
      ExtraRounds.Choice choice = ExtraRounds.choose(Derivation.derive(document(), config));
      if (choice.wide().isEmpty()) {
        listener.note(extra == 1 ? "no cell that more runs could help has an interval wider than the threshold after "
            + config.rounds() + " rounds: no extra round"
            : "after " + (extra - 1) + " extra round" + (extra == 2 ? "" : "s") + " no such cell is wider than it");
        return;
      }
      if (config.extraTimeLimit().isPositive() && firstVisitStarted != null && visitsMade > 0) {
        double perVisit = secondsPerVisit();
        double endsAt = endsAtSeconds(choice.visits(), 0);
        if (endsAt > config.extraTimeLimit().toSeconds()) {
          listener.note(String.format(java.util.Locale.ROOT,
              "extra rounds stop after %d: %d cells are still wider than the threshold, and another round (%d visits, "
                  + "about %.1f min at this run's %.2f s a visit) would end the run %.1f min after it began, past "
                  + "--time-limit %s", extra - 1, choice.wide().size(), choice.visits(), choice.visits() * perVisit / 60,
              perVisit, endsAt / 60, config.timeLimitText()));
          return;
        }
      }
      if (!ExtraRounds.enough(choice)) {
        listener.note(String.format(java.util.Locale.ROOT, "no extra round for the %d cells still wider than the "
            + "threshold: the run has %d cells to visit beside them, too few for a round's effect to be the machine's",
            choice.wide().size(), choice.anchors().size()));
        return;
      }
      if (spent + choice.visits() > budget) {
        listener.note(String.format(java.util.Locale.ROOT,
            "extra rounds stop after %d: %d cells are still wider than the threshold, and another round's %d visits "
                + "would pass the extra visits' budget (%d, a third of the rounds')", extra - 1, choice.wide().size(),
            choice.visits(), budget));
        return;
      }
      Set<ExtraRounds.Key> chosen = new java.util.HashSet<>(choice.all());
      List<Cell> subset = cells.stream().filter(c -> !c.failed() && chosen.contains(c.key())).toList();
      listener.extraRoundStarted(extra, config.extraRounds(), choice.wide().size(), subset.size());
      runRound(config.rounds() + extra, subset, meter, probe);
      spent += subset.size();
    }
    ExtraRounds.Choice left = ExtraRounds.choose(Derivation.derive(document(), config));
    listener.note(left.wide().isEmpty() ? "after " + config.extraRounds() + " extra rounds no such cell is wider than it"
        : "after " + config.extraRounds() + " extra rounds (--extra-rounds) " + left.wide().size()
            + " cells are still wider than the threshold");
  }

  private void runRound(int round, List<Cell> visited, DisturbanceMeter meter, Optional<CpuProbe> probe)
      throws InterruptedException {
    roundStart(round);
    Optional<Probe> probed = probe.flatMap(CpuProbe::run);
    List<Cell> order = shuffledOrder(visited, config.seed(), round).stream().filter(c -> !c.failed()).toList();
    List<Cell> queue = new ArrayList<>(order);
    List<String> visitedNames = new ArrayList<>();
    listener.roundStarted(round, config.rounds(), queue.size(),
        probed.map(p -> String.format(java.util.Locale.ROOT, "CPU probe %.0f MB/s", p.megabytesPerSecond())).orElse(""));
    Set<Cell> repeated = new java.util.HashSet<>();
    for (int i = 0; i < queue.size(); i++) {
      Cell cell = queue.get(i);
      if (terminating.getAsBoolean()) {
        return;
      }
      if (cell.failed()) {
        continue;
      }
      boolean repeat = repeated.contains(cell);
      if (firstVisitStarted == null) {
        firstVisitStarted = Instant.now();
      }
      visitsMade++;
      visitedNames.add(cell.slot.id() + " " + cell.name() + (repeat ? " (repeat)" : ""));
      Optional<RunRecord> run;
      try {
        double waited = awaitUsualWakeups(round, queue.size() - i - 1);
        run = visit(cell, round, repeat ? 2 : 1, meter, waited);
      } catch (RuntimeException e) {
        // A defect or an I/O failure in one visit costs that cell, not the run.
        cell.fail("unexpected error: " + (e.getMessage() == null ? e.getClass().getName() : e.getMessage()));
        listener.cellFailed(cell.slot.id(), cell.name(), cell.reason);
        cell.slot.freeze();
        continue;
      }
      if (run.isEmpty()) {
        continue;
      }
      boolean disturbed = !repeat && run.get().disturbance().disturbed();
      boolean requeue = disturbed && repeatFits(round, queue.size() - i - 1);
      if (disturbed && !requeue) {
        unrepeated++;
      }
      RunRecord record = requeue ? uncounted(run.get()) : run.get();
      cell.runs.add(record);
      if (requeue) {
        repeated.add(cell);
        queue.add(cell);
      }
      listener.visitFinished(round, i + 1, queue.size(), cell.slot.id(), cell.name(), record, requeue);
      rounds.removeIf(r -> r.index() == round);
      rounds.add(new RoundRecord(round, roundStart(round), visitedNames, probed.orElse(null), 0));
      save();
      afterVisit.written(round, i + 1);
    }
    rounds.removeIf(r -> r.index() == round);
    rounds.add(new RoundRecord(round, roundStart(round), visitedNames, probed.orElse(null), 0));
  }

  /**
   * Whether one more visit now still lets the run end within its time limit, at this run's own cost of a
   * visit so far, with {@code leftInRound} visits left in this round and every cell's visits of the
   * rounds after it (extra rounds are begun only when they fit, so they are not counted ahead). The
   * first time it does not, the progress says so: from then on a disturbed visit counts as it is.
   */
  private boolean repeatFits(int round, int leftInRound) {
    if (!config.extraTimeLimit().isPositive() || visitsMade == 0) {
      return true;
    }
    long left = visitsLeft(round, leftInRound);
    double perVisit = secondsPerVisit();
    double ahead = freshStartsAhead(round);
    double endsAt = endsAtSeconds((int) left + 1, ahead);
    if (endsAt <= config.extraTimeLimit().toSeconds()) {
      return true;
    }
    if (unrepeated == 0) {
      listener.note(String.format(java.util.Locale.ROOT, "a disturbed visit now counts without a repeat: a repeat, at "
          + "this run's %.2f s a visit, would end the run %.1f min after it began (%d visits left%s), past "
          + "--time-limit %s", perVisit, endsAt / 60, left, ahead == 0 ? "" : String.format(java.util.Locale.ROOT,
              " and %.1f min of fresh processes", ahead / 60), config.timeLimitText()));
    }
    return false;
  }

  /** This round's visits left after the current one, and every cell's visits of the rounds after it. */
  private long visitsLeft(int round, int leftInRound) {
    long measured = cells.stream().filter(c -> !c.failed()).count();
    return leftInRound + Math.max(0, config.rounds() - round) * measured;
  }

  /** Set when a slow spell outlasted {@link Defaults#SPELL_WAIT}; cleared by the next usual reading. */
  private boolean spellOutlastedWait;

  private static final long SPELL_POLL_MILLIS = 500;

  /**
   * Before a thaw: while the wake-ups read below the threshold share of the run's usual rate, the machine is
   * in one of its slow spells, and a visit made now would be repeated (docs/ORCHESTRATOR.md, "Waiting out a
   * spell"). Waits for them to read usual, reading twice a second, up to {@link Defaults#SPELL_WAIT} (less when
   * the run's waits would pass {@link Defaults#SPELL_WAIT_SHARE} of its time), and only while the wait still
   * lets the run end within its time limit. A spell that outlasts a whole wait is taken as
   * the machine's state: the visits after it go ahead at once until a reading is usual again. The polls are
   * not added to the run's readings; the reading that ends a wait is the visit's before-reading.
   *
   * @return the seconds waited
   */
  private double awaitUsualWakeups(int round, int leftInRound) throws InterruptedException {
    if (speedProbe.isEmpty() || !speedProbe.get().readsWakeups()) {
      return 0;
    }
    SpeedProbe probe = speedProbe.get();
    double now = speedBeforeThaw(probe).wakeups();
    double usual = usualWakeups();
    double threshold = Defaults.SLOW_WAKEUPS * usual;
    if (usual <= 0 || now < 0 || now >= threshold) {
      spellOutlastedWait = false;
      return 0;
    }
    java.time.Duration limit = waitLimit();
    if (spellOutlastedWait || limit.toMillis() < SPELL_POLL_MILLIS || !waitFits(round, leftInRound, limit)) {
      return 0;
    }
    SpellWait.Outcome wait = new SpellWait(probe::wakeups, SPELL_POLL_MILLIS, Thread::sleep, System::nanoTime)
        .await(threshold, limit, terminating);
    secondsWaitedInRun += wait.seconds();
    if (wait.outlasted() && limit.equals(Defaults.SPELL_WAIT)) {
      spellOutlastedWait = true;
      listener.note(String.format(java.util.Locale.ROOT, "wake-ups stayed below %.0f%% of the run's usual rate for "
          + "%.0f s: the visits go on without waiting until a reading is usual again", Defaults.SLOW_WAKEUPS * 100,
          wait.seconds()));
    }
    if (!terminating.getAsBoolean()) {
      speedAfterFreeze(probe);
    }
    return wait.seconds();
  }

  /** Seconds this run's visits have waited for slow spells to pass, together. */
  private double secondsWaitedInRun;

  /**
   * {@link Defaults#SPELL_WAIT}, or less when waiting that long would take the run's waits past
   * {@link Defaults#SPELL_WAIT_SHARE} of its time since the first visit.
   */
  private java.time.Duration waitLimit() {
    double elapsed = java.time.Duration.between(firstVisitStarted, Instant.now()).toMillis() / 1e3;
    double left = Defaults.SPELL_WAIT_SHARE * elapsed - secondsWaitedInRun;
    return left >= Defaults.SPELL_WAIT.toSeconds() ? Defaults.SPELL_WAIT
        : java.time.Duration.ofMillis((long) Math.max(0, left * 1000));
  }

  /** Whether a whole wait and the visits left still end the run within its time limit. */
  private boolean waitFits(int round, int leftInRound, java.time.Duration limit) {
    if (!config.extraTimeLimit().isPositive() || visitsMade <= 1) {
      return true;
    }
    return endsAtSeconds((int) visitsLeft(round, leftInRound) + 1, freshStartsAhead(round)) + limit.toMillis() / 1e3
        <= config.extraTimeLimit().toSeconds();
  }

  /**
   * What a visit has cost this process so far, thaw to freeze and everything between visits but the waits
   * and the fresh processes.
   */
  private double secondsPerVisit() {
    return ExtraRounds.secondsPerVisit(java.time.Duration.between(firstVisitStarted, Instant.now()),
        secondsWaitedInRun + secondsStartingAfreshInRun, visitsMade);
  }

  /**
   * Seconds after the run began at which {@code visits} more begun now would end, at that cost, with
   * {@code secondsBetween} spent between them.
   */
  private double endsAtSeconds(int visits, double secondsBetween) {
    return ExtraRounds.endsAtSeconds(java.time.Duration.between(began, Instant.now()), secondsPerVisit(), visits,
        secondsBetween);
  }

  /** Seconds of --forks' fresh processes still to come after {@code round}, at the last one's cost or the budget's. */
  private double freshStartsAhead(int round) {
    return config.freshStartsAfter(round) * secondsPerFreshStart;
  }

  /** Seconds this run's fresh processes (--forks) have taken, every server stopped, started and warmed up again. */
  private double secondsStartingAfreshInRun;

  /** Seconds a fresh process of every server takes: the budget's estimate, then what the last one took. */
  private double secondsPerFreshStart;

  private final Map<Integer, Instant> roundStarts = new LinkedHashMap<>();

  private Instant roundStart(int round) {
    return roundStarts.computeIfAbsent(round, r -> Instant.now());
  }

  /** Round r's order: the cells shuffled by java.util.Random(seed + r), so a run can be reproduced. */
  static <T> List<T> shuffledOrder(List<T> cells, long seed, int round) {
    List<T> order = new ArrayList<>(cells);
    Collections.shuffle(order, new Random(seed + round));
    return order;
  }

  /** Whether wrk and oha run on this machine (not in a `--client-host` container on another one). */
  private boolean clientHere() {
    var topology = header.environment() == null ? null : header.environment().topology();
    return topology == null || topology.clientHere();
  }

  /** The speed around each visit, where it can be read (not for servers on a remote engine). */
  private Optional<SpeedProbe> speedProbe = Optional.empty();
  private SpeedProbe.Reading lastSpeed;
  private long lastSpeedNanos;

  /**
   * The speed just before a thaw: the reading after the previous visit's freeze when it is fresh (the
   * visits follow each other within a few milliseconds), a new one otherwise.
   */
  private SpeedProbe.Reading speedBeforeThaw(SpeedProbe probe) {
    if (lastSpeed != null && System.nanoTime() - lastSpeedNanos < SpeedProbe.FRESH_NANOS) {
      return lastSpeed;
    }
    return speedAfterFreeze(probe);
  }

  private SpeedProbe.Reading speedAfterFreeze(SpeedProbe probe) {
    lastSpeed = probe.read();
    lastSpeedNanos = System.nanoTime();
    if (lastSpeed.wakeups() > 0) {
      wakeupReadings.add(lastSpeed.wakeups());
    }
    return lastSpeed;
  }

  /** Every wake-up reading of this run so far: their median is the rate a visit's readings are judged against. */
  private final List<Double> wakeupReadings = new ArrayList<>();

  /** Readings before round 1, so the first visits are judged against more than their own. */
  private static final int USUAL_WAKEUP_READINGS = 5;

  private void readUsualWakeups() {
    speedProbe.filter(SpeedProbe::readsWakeups).ifPresent(probe -> {
      for (int i = 0; i < USUAL_WAKEUP_READINGS; i++) {
        double reading = probe.wakeups();
        if (reading > 0) {
          wakeupReadings.add(reading);
        }
      }
    });
  }

  private double usualWakeups() {
    return wakeupReadings.isEmpty() ? -1 : Statistics.median(wakeupReadings);
  }

  /** What the meter saw between the two samples, on the server's CPUs and on the client's; NONE without a meter. */
  private Disturbance disturbance(DisturbanceMeter meter, DisturbanceMeter.Sample start, DisturbanceMeter.Sample end,
      double serverCpuSeconds) {
    return meter == null ? Disturbance.NONE
        : meter.between(start, end, serverCpuSeconds, config.disturbanceThreshold()).withClient(meter.clientSide(start, end));
  }

  private Optional<RunRecord> visit(Cell cell, int round, int visit, DisturbanceMeter meter, double waitedSeconds)
      throws InterruptedException {
    Slot slot = cell.slot;
    SpeedProbe.Reading speedBefore = speedProbe.map(this::speedBeforeThaw).orElse(null);
    if (!slot.thawForUse()) {
      failAllOf(slot);
      return Optional.empty();
    }
    RunningServer server = slot.server;
    try {
      if (!config.rewarm().isZero()) {
        // The in-process client takes sub-second lengths, which wrk's -d does not: a short load after the
        // thaw refills caches before the measured run (docs/ORCHESTRATOR.md, "Pilot").
        SlicedLoad.run(server.baseUrl(), cell.endpoint, REWARM_CONNECTIONS, config.rewarm(), config.rewarm());
      }
      long logBefore = LogFile.size(server.log());
      ResourceUsage before = server.usage();
      slot.memory.watch();
      ThreadSample threads = server.sampleThreads();
      Set<Long> pids = threads.processTicks().keySet();
      DisturbanceMeter.Sample start = meter == null ? null : meter.sample(pids);
      RunRecord record;
      if (cell.rate == null) {
        LoadResult result = wrk.run(throughputSpec(server, cell.endpoint, config.duration()));
        DisturbanceMeter.Sample end = meter == null ? null : meter.sample(pids);
        cell.observe(server.observeWorkers(threads));
        ResourceUsage after = server.usage();
        double cpu = after.cpuSeconds() - before.cpuSeconds();
        record = new RunRecord(round, visit, true, result.requests(), result.durationSeconds(), result.requestsPerSecond(),
            result.bytes(), result.non2xx(),
            new RunRecord.SocketErrors(result.connectErrors(), result.readErrors(), result.writeErrors(), result.timeouts()),
            result.latency() == null ? null : new RunRecord.LatencyRecord(result.latency().p50(),
                result.latency().p90(), result.latency().p99(), result.latency().p999(), result.latency().max(),
                result.latency().mean()),
            cpu, after.peakRssBytes(), after.memoryPeakBytes(), result.clientCpuSeconds(), result.clientCpuUtilisation(),
            disturbance(meter, start, end, cpu), null);
      } else {
        ConstantRateResult result = oha.run(rateSpec(server, cell, config.runLength(cell.kind)));
        DisturbanceMeter.Sample end = meter == null ? null : meter.sample(pids);
        cell.observe(server.observeWorkers(threads));
        ResourceUsage after = server.usage();
        double cpu = after.cpuSeconds() - before.cpuSeconds();
        record = RateRuns.record(round, visit, cell.targetRate, config.runLength(cell.kind), config.connections(), result, cpu,
            after, disturbance(meter, start, end, cpu));
      }
      List<RunRecord.RssSample> rss = slot.memory.unwatch();
      long logAfter = LogFile.size(server.log());
      if (logBefore >= 0 && logAfter >= 0) {
        slot.serverLog = (slot.serverLog == null ? new EntryResult.ServerLog(0, 0, 0) : slot.serverLog)
            .plus(logAfter - logBefore, LogFile.linesBetween(server.log(), logBefore, logAfter), record.requests());
      }
      if (cell.kind.constantRate()) {
        record = record.withRssSamples(rss); // a soak's RSS slope comes from these (RssTrends)
      }
      if (!server.isAlive()) {
        cell.runs.add(record);
        failAllOf(slot);
        return Optional.empty();
      }
      if (looksHung(record)) {
        // A server that answers nothing (stopped, deadlocked) is not waited for run after run.
        Optional<String> wrong = CorrectnessCheck.check(server.baseUrl(), cell.endpoint);
        if (wrong.isPresent()) {
          cell.runs.add(record);
          failAllOf(slot, String.format(java.util.Locale.ROOT,
              "stopped answering: %,d requests and %,d timeouts in round %d's run, then %s; the server was stopped",
              record.requests(), record.socketErrors().timeout(), round, wrong.get()));
          slot.stop();
          return Optional.empty();
        }
      }
      slot.freeze();
      if (speedBefore != null) {
        SpeedProbe.Reading speedAfter = speedAfterFreeze(speedProbe.get());
        boolean memory = speedProbe.get().readsMemory();
        RunRecord.Disturbance disturbance = record.disturbance().withSpeed(new RunRecord.Speed(speedBefore.server(),
            speedAfter.server(), speedBefore.client(), speedAfter.client(), memory ? speedBefore.memory() : null,
            memory ? speedAfter.memory() : null));
        if (speedProbe.get().readsWakeups()) {
          disturbance = disturbance.withWakeups(RunRecord.Wakeups.judged(speedBefore.wakeups(), speedAfter.wakeups(),
              usualWakeups(), Defaults.SLOW_WAKEUPS).afterWaiting(waitedSeconds));
        }
        record = record.withDisturbance(disturbance);
      }
      return Optional.of(record);
    } catch (LoadException e) {
      slot.memory.unwatch();
      if (terminating.getAsBoolean()) {
        return Optional.empty(); // the shutdown killed the load client
      }
      if (!server.isAlive()) {
        failAllOf(slot);
      } else {
        cell.fail(e.getMessage());
        listener.cellFailed(slot.id(), cell.name(), cell.reason);
        slot.freeze();
      }
      return Optional.empty();
    }
  }

  /** Most of the run's requests timed out, or nothing was answered at all. */
  static boolean looksHung(RunRecord r) {
    long timeouts = r.socketErrors().timeout() + (r.rate() == null ? 0 : r.rate().clientErrors().getOrDefault("timeout", 0L));
    return r.requests() == 0 || timeouts >= r.requests();
  }

  private static RunRecord uncounted(RunRecord r) {
    return new RunRecord(r.round(), r.visit(), false, r.requests(), r.durationSeconds(), r.requestsPerSecond(), r.bytes(),
        r.non2xx(), r.socketErrors(), r.latencyMicros(), r.serverCpuSeconds(), r.serverPeakRssBytes(),
        r.serverMemoryPeakBytes(), r.clientCpuSeconds(), r.clientCpuUtilisation(), r.disturbance(), r.rate(),
        r.rssSamples());
  }

  private void checkAlive(Slot slot, String when) {
    if (slot.server != null && !slot.server.isAlive()) {
      failAllOf(slot, "the server " + slot.server.exitReason().orElse("exited") + " " + when);
    }
  }

  private void failAllOf(Slot slot) {
    String why = slot.brokenReason != null ? slot.brokenReason
        : "the server " + (slot.server == null ? "is gone" : slot.server.exitReason().orElse("exited")) + " during the rounds";
    failAllOf(slot, why);
  }

  private void failAllOf(Slot slot, String reason) {
    if (terminating.getAsBoolean()) {
      return; // the shutdown stopped it: not the server's failure, and nothing is written any more
    }
    if (slot.brokenReason == null) {
      slot.brokenReason = reason;
      slot.logTail = slot.server == null ? "" : slot.server.logTail(TAIL_LINES);
    }
    for (Cell cell : cells) {
      if (cell.slot == slot && !cell.failed()) {
        cell.fail(reason);
        listener.cellFailed(slot.id(), cell.name(), reason);
      }
    }
  }

  private LoadSpec throughputSpec(RunningServer server, Endpoint endpoint, Duration duration) {
    return new LoadSpec(server.baseUrl(), endpoint, duration, config.connections(), config.threads(),
        config.requestTimeout(), config.pipeline(), config.keepAlive());
  }

  private OhaLoadGenerator.Spec rateSpec(RunningServer server, Cell cell, Duration duration) {
    return new OhaLoadGenerator.Spec(server.baseUrl(), cell.endpoint, cell.targetRate, duration, config.connections(),
        config.requestTimeout());
  }

  /** A port nothing listens on now; the runtime refuses it if that changes before the start. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }

  static ConformanceSummary summary(SuiteReport report, String reportPath, ConformanceSummary.Reused reused) {
    Function<Verdict, List<String>> describe = verdict -> report.withVerdict(verdict).stream()
        .map(c -> c.id() + (c.findings().isEmpty() ? "" : ": " + c.findings().getFirst()))
        .toList();
    return new ConformanceSummary(report.overall(), report.withVerdict(Verdict.PASS).size(),
        report.withVerdict(Verdict.WARN).size(), report.withVerdict(Verdict.FAIL).size(),
        describe.apply(Verdict.FAIL), describe.apply(Verdict.WARN), reportPath, reused);
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

  /** The document as it stands: what is prepared, every visit so far. */
  private ResultsDocument document() {
    List<EntryResult> entries = new ArrayList<>();
    for (Slot slot : slots) {
      List<CellResult> own = cells.stream().filter(c -> c.slot == slot).map(Cell::result).toList();
      if (own.isEmpty() && resumption != null && slot.status.failed()) {
        own = keptCellsOfUnprepared(slot);
      }
      entries.add(slot.result(own));
    }
    return new ResultsDocument(header.schemaVersion(), header.methodVersion(), header.environment(), header.method(),
        rounds.stream().sorted(java.util.Comparator.comparingInt(RoundRecord::index)).toList(), null, header.breaks(),
        entries, header.invocation());
  }

  /** An entry that could not be prepared again after the break keeps the runs measured before it. */
  private List<CellResult> keptCellsOfUnprepared(Slot slot) {
    return previousEntry(slot.id()).map(e -> e.cells().stream().map(c -> {
      List<RunRecord> kept = resumption.keptRuns(c);
      return new CellResult(c.endpoint(), c.kind(), c.rate(),
          kept.stream().anyMatch(RunRecord::counted) ? CellStatus.PARTIAL : CellStatus.FAILED,
          "not measured after the break: " + slot.reason, kept, null, c.workers(), List.of(), c.answerBytes(),
          c.warmup());
    }).toList()).orElse(List.<CellResult>of());
  }

  private InterruptedException terminated() {
    return new InterruptedException("terminated" + (config.benchmark() ? ": " + howToGoOn() : ""));
  }

  private String howToGoOn() {
    return resultsFile + " keeps the visits made before; `fairbench run --resume " + resultsFile.getParent()
        + "` continues the run";
  }

  private void save() {
    if (mayWrite && !terminating.getAsBoolean()) {
      write(document());
    }
  }

  private void write(ResultsDocument document) {
    try {
      resultsWriter.write(document, resultsFile);
    } catch (IOException e) {
      throw new RunSession.ResultsWriteException(resultsFile, e);
    }
  }

  /** One server: prepared or failed, and how it was held between visits. */
  private final class Slot {
    final Placement placement;
    final Selection selection;
    final ServerRuntime runtime;
    final Role role;
    RunningServer server;
    EntryStatus status = EntryStatus.FAILED;
    String reason = "";
    String logTail = "";
    Map<String, String> versions;
    ConformanceSummary conformance;
    String limitsReadBack = "";
    OpenFileLimit openFiles;
    /** The server log's growth during the measured runs; null before the first. */
    EntryResult.ServerLog serverLog;
    List<String> acceptedFailures = List.of();
    String brokenReason;
    final List<Double> freezeMillis = new ArrayList<>();
    final List<Double> thawMillis = new ArrayList<>();
    String freezeMechanism = "";
    boolean frozen;
    MemoryTracker memory;
    StartupFigures startup;
    boolean stopped;
    /** Its processes, in the order they served the rounds (one unless --forks). */
    final List<EntryResult.ProcessStart> processes = new ArrayList<>();
    /** oha's request of each endpoint answered once at the warm-up. */
    final Map<Endpoint, AnswerCheck.Outcome> ohaAnswers = new EnumMap<>(Endpoint.class);

    Slot(Placement placement, Role role) {
      this.placement = placement;
      this.selection = placement.selection();
      this.runtime = placement.runtime();
      this.role = role;
      this.versions = selection.variant().map(v -> Map.of("framework", v.frameworkVersion())).orElse(Map.of());
    }

    String id() {
      return placement.id();
    }

    String standsOn() {
      return placement.standsOn();
    }

    void fail(EntryStatus newStatus, String why, String tail) {
      status = newStatus;
      reason = why;
      logTail = tail;
      stop();
    }

    void freeze() {
      if (server == null || frozen || brokenReason != null || stopped) {
        return;
      }
      try {
        FreezeTiming timing = server.freeze();
        freezeMillis.add(timing.took().toNanos() / 1e6);
        freezeMechanism = timing.mechanism();
        frozen = true;
      } catch (RuntimeException e) {
        failAllOf(this, "could not be frozen between visits: " + e.getMessage());
      }
    }

    /** Thaws the server for a visit; false (and the cells failed) when it is gone or cannot be thawed. */
    boolean thawForUse() {
      if (server == null || brokenReason != null || stopped) {
        return false;
      }
      if (frozen) {
        try {
          FreezeTiming timing = server.thaw();
          thawMillis.add(timing.took().toNanos() / 1e6);
          frozen = false;
        } catch (RuntimeException e) {
          failAllOf(this, "could not be thawed: " + e.getMessage());
          return false;
        }
      }
      if (!server.isAlive()) {
        failAllOf(this);
        return false;
      }
      return true;
    }

    void stop() {
      if (server != null) {
        server.close();
        stopped = true;
      }
    }

    EntryResult result(List<CellResult> cellResults) {
      EntryStatus finalStatus = status;
      String finalReason = reason;
      String finalTail = logTail;
      if (status == EntryStatus.MEASURED && config.benchmark()) {
        boolean pending = cellResults.stream().anyMatch(c -> c.status() == CellStatus.PENDING);
        boolean someFailed = cellResults.stream().anyMatch(c -> c.status() == CellStatus.FAILED || c.status() == CellStatus.PARTIAL);
        if (brokenReason != null) {
          finalStatus = cellResults.stream().anyMatch(c -> !c.runs().isEmpty()) ? EntryStatus.PARTIAL : EntryStatus.FAILED;
          finalReason = brokenReason;
        } else if (pending) {
          finalStatus = EntryStatus.INTERRUPTED;
          finalReason = "the run stopped before this entry's rounds were done";
          finalTail = "";
        } else if (someFailed) {
          finalStatus = EntryStatus.PARTIAL;
          finalReason = "some cells could not be measured";
        }
      }
      EntryResult.FreezeSummary freeze = freezeMillis.isEmpty() ? null
          : new EntryResult.FreezeSummary(freezeMechanism, freezeMillis.size(), Derivation.median(freezeMillis),
              Collections.max(freezeMillis), thawMillis.isEmpty() ? 0 : Derivation.median(thawMillis),
              thawMillis.isEmpty() ? 0 : Collections.max(thawMillis));
      Optional<EntryVariant> v = selection.variant();
      return new EntryResult(id(), v.map(EntryVariant::entry).orElse(id()),
          v.map(EntryVariant::variant).orElse(EntryVariant.DEFAULT_VARIANT), role,
          v.map(EntryVariant::language).orElse(""), v.map(EntryVariant::framework).orElse(""), versions,
          v.map(x -> x.workersModel().wireName()).orElse(""), finalStatus, finalReason, finalTail, conformance,
          cellResults, limitsReadBack, freeze, acceptedFailures,
          v.map(x -> new EntryResult.Facts(x.description(), x.fairnessProduction(), x.fairnessDepartures()))
              .orElse(EntryResult.Facts.NONE), standsOn(),
          startup == null || memory == null || !config.benchmark() ? startup
              : startup.withMemory(memory.figures("the measured runs")), openFiles, runtime.kind(), serverLog,
          config.forks() > 1 && !processes.isEmpty() ? processes : null);
    }
  }

  /** The observation of the median run by busy workers (the lower median), the latest of those that saw it. */
  static WorkerObservation medianRun(List<WorkerObservation> observations) {
    List<Integer> counts = observations.stream().map(WorkerObservation::observed).sorted().toList();
    int median = counts.get((counts.size() - 1) / 2);
    for (int i = observations.size() - 1; i >= 0; i--) {
      if (observations.get(i).observed() == median) {
        return observations.get(i);
      }
    }
    throw new IllegalArgumentException("no observations");
  }

  /** One cell being measured. */
  private final class Cell {
    final Slot slot;
    final Endpoint endpoint;
    final RateSpec rate;
    final CellKind kind;
    double warmupMax;
    /** Every warm-up run's req/s, in order: since a resumed run warms up again, that of its last start. */
    List<Double> warmup = List.of();
    double targetRate;
    final List<RunRecord> runs = new ArrayList<>();
    /** The observation of the cell's median run by busy workers (see {@link #observe}). */
    WorkerObservation workers;
    private final List<WorkerObservation> observations = new ArrayList<>();
    /** The size of the answer to the load client's request, checked before the runs (wrk cells only). */
    Integer answerBytes;
    String reason = "";
    boolean failed;
    /** The first round this cell is measured in: 1, or the round a resumed run began with for a cell new then. */
    int firstRound = 1;

    Cell(Slot slot, Endpoint endpoint, RateSpec rate) {
      this(slot, endpoint, rate, rate == null ? CellKind.THROUGHPUT : CellKind.RATE);
    }

    Cell(Slot slot, Endpoint endpoint, RateSpec rate, CellKind kind) {
      this.slot = slot;
      this.endpoint = endpoint;
      this.rate = rate;
      this.kind = kind;
    }

    ExtraRounds.Key key() {
      return new ExtraRounds.Key(slot.id(), endpoint.wireName(), kind, rate == null ? "" : rate.wireName());
    }

    String name() {
      return switch (kind) {
        case THROUGHPUT -> endpoint.wireName();
        case RATE -> endpoint.wireName() + "@" + rate.wireName();
        case LADDER -> endpoint.wireName() + "@ladder";
      };
    }

    boolean failed() {
      return failed;
    }

    /**
     * One run's workers. The cell keeps the observation of its median run, the latest of those that
     * saw the median count: with 1-second runs a whole run is one window, and a Go server that hands
     * its goroutines from one OS thread to another during it, or a JIT compiling beside Vert.x's
     * event loop, shows two busy threads in that run alone. A server that runs another number of
     * workers shows it in every run.
     */
    void observe(WorkerObservation observation) {
      if (observation == null) {
        return; // not observable here (a remote engine)
      }
      observations.add(observation);
      workers = medianRun(observations);
    }

    void fail(String why) {
      failed = true;
      reason = why;
    }

    CellResult result() {
      CellStatus status;
      if (failed) {
        status = runs.stream().anyMatch(RunRecord::counted) ? CellStatus.PARTIAL : CellStatus.FAILED;
      } else {
        long rounds = runs.stream().filter(RunRecord::counted).count();
        status = rounds >= config.rounds() - (firstRound - 1) ? CellStatus.MEASURED : CellStatus.PENDING;
      }
      return new CellResult(endpoint.wireName(), kind, rate == null ? "" : rate.wireName(), status, reason, runs, null,
          workers, List.of(), answerBytes, warmup);
    }
  }
}
