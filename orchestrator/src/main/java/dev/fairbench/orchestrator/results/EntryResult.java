package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.core.OpenFileLimit;
import java.util.List;
import java.util.Map;

/**
 * One entry variant (or the calibration server) in a run.
 *
 * @param role        entry, or calibration (never ranked)
 * @param versions    framework_version plus the first output line of each [versions] command
 * @param reason      why the status is not measured/conformant; empty otherwise
 * @param logTail     the last lines of the build or server log when it failed
 * @param conformance null when the suite did not run
 * @param limitsReadBack the limits as the kernel or the engine reported them after the start
 * @param freeze      how its server was held between visits; null when it never was
 * @param acceptedFailures conformance clauses it FAILs and was measured anyway (run --accept-fail); its
 *                    cells carry the non-conformant flag
 * @param facts       what its manifest says about its fairness, copied so reports need no manifests
 * @param standsOn    the id of the baseline this framework stands on ([ladder].baseline); empty for none
 * @param startup     start times, memory and size; null when they were not measured
 * @param openFiles   the open-file limit (RLIMIT_NOFILE) its server ran with, read back after the start;
 *                    null when it never started or could not be read
 * @param runtime     where its server ran (or was to run): the run's default runtime, or the one its
 *                    selector named (`go-gin@docker`, whose id then carries the suffix); null in
 *                    results written before it was recorded (then the environment's runtime)
 * @param serverLog   how much its server's log grew during its measured runs, against the requests they
 *                    answered; null where it was not read (no measured run, results written before it)
 */
public record EntryResult(
    String id,
    String entry,
    String variant,
    Role role,
    String language,
    String framework,
    Map<String, String> versions,
    String workersModel,
    EntryStatus status,
    String reason,
    String logTail,
    ConformanceSummary conformance,
    List<CellResult> cells,
    String limitsReadBack,
    FreezeSummary freeze,
    List<String> acceptedFailures,
    Facts facts,
    String standsOn,
    // Left out of the file when absent: results without start-up figures read and write as before.
    @JsonInclude(JsonInclude.Include.NON_NULL) StartupFigures startup,
    @JsonInclude(JsonInclude.Include.NON_NULL) OpenFileLimit openFiles,
    @JsonInclude(JsonInclude.Include.NON_NULL) RuntimeKind runtime,
    @JsonInclude(JsonInclude.Include.NON_NULL) ServerLog serverLog,
    // Absent when one process served every round (--forks 1, and every run made before 2026-12-05 17:20 UTC).
    @JsonInclude(JsonInclude.Include.NON_NULL) List<ProcessStart> processes) {

  /** Without process starts: one process served every round. */
  public EntryResult(String id, String entry, String variant, Role role, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack, FreezeSummary freeze,
      List<String> acceptedFailures, Facts facts, String standsOn, StartupFigures startup, OpenFileLimit openFiles,
      RuntimeKind runtime, ServerLog serverLog) {
    this(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail, conformance,
        cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, runtime, serverLog, null);
  }

  public EntryResult {
    processes = processes == null ? null : List.copyOf(processes);
    role = role == null ? Role.ENTRY : role;
    reason = reason == null ? "" : reason;
    logTail = logTail == null ? "" : logTail;
    limitsReadBack = limitsReadBack == null ? "" : limitsReadBack;
    cells = List.copyOf(cells);
    acceptedFailures = acceptedFailures == null ? List.of() : List.copyOf(acceptedFailures);
    facts = facts == null ? Facts.NONE : facts;
    standsOn = standsOn == null ? "" : standsOn;
    versions = ordered(versions);
  }

  /**
   * The framework's version first, then the others by name: Map.copyOf iterates in an order salted
   * per JVM, so the reports of one results file differed from one rendering to the next.
   */
  private static Map<String, String> ordered(Map<String, String> versions) {
    Map<String, String> ordered = new java.util.LinkedHashMap<>();
    if (versions.containsKey("framework")) {
      ordered.put("framework", java.util.Objects.requireNonNull(versions.get("framework"), "framework"));
    }
    versions.entrySet().stream().filter(v -> !v.getKey().equals("framework")).sorted(Map.Entry.comparingByKey())
        .forEach(v -> ordered.put(v.getKey(), java.util.Objects.requireNonNull(v.getValue(), v.getKey())));
    return java.util.Collections.unmodifiableMap(ordered);
  }

  /** Without start-up figures (they are added with {@link #withStartup}). */
  public EntryResult(String id, String entry, String variant, Role role, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack, FreezeSummary freeze,
      List<String> acceptedFailures, Facts facts, String standsOn) {
    this(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail, conformance,
        cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, null, null, null, null);
  }

  /** Without the open-file limit read back. */
  public EntryResult(String id, String entry, String variant, Role role, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack, FreezeSummary freeze,
      List<String> acceptedFailures, Facts facts, String standsOn, StartupFigures startup) {
    this(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail, conformance,
        cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, null, null, null);
  }

  /** Without the runtime (results written before it was recorded). */
  public EntryResult(String id, String entry, String variant, Role role, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack, FreezeSummary freeze,
      List<String> acceptedFailures, Facts facts, String standsOn, StartupFigures startup, OpenFileLimit openFiles) {
    this(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail, conformance,
        cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, null, null);
  }

  /** Without the server log's growth (results written before it was recorded). */
  public EntryResult(String id, String entry, String variant, Role role, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells, String limitsReadBack, FreezeSummary freeze,
      List<String> acceptedFailures, Facts facts, String standsOn, StartupFigures startup, OpenFileLimit openFiles,
      RuntimeKind runtime) {
    this(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail, conformance,
        cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, runtime, null);
  }

  public EntryResult withCells(List<CellResult> newCells) {
    return new EntryResult(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail,
        conformance, newCells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, runtime, serverLog, processes);
  }

  /** The same entry under another id (a within-run comparison shows two entries as one row). */
  public EntryResult withId(String newId) {
    return new EntryResult(newId, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail,
        conformance, cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, runtime, serverLog, processes);
  }

  public EntryResult withStartup(StartupFigures newStartup) {
    return new EntryResult(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail,
        conformance, cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, newStartup, openFiles, runtime, serverLog, processes);
  }

  public EntryResult withRuntime(RuntimeKind newRuntime) {
    return new EntryResult(id, entry, variant, role, language, framework, versions, workersModel, status, reason, logTail,
        conformance, cells, limitsReadBack, freeze, acceptedFailures, facts, standsOn, startup, openFiles, newRuntime, serverLog, processes);
  }

  /** The runtime its server ran in: its own, or (in results without one) the run's. */
  public String runtimeOr(Environment environment) {
    return runtime != null ? runtime.wireName() : environment == null ? "unknown" : environment.runtime();
  }

  public boolean calibration() {
    return role == Role.CALIBRATION;
  }

  public boolean baseline() {
    return role == Role.BASELINE;
  }

  /** The manifest's description, production-mode facts and departures from idiom. */
  public record Facts(String description, List<String> production, List<String> departures) {
    public static final Facts NONE = new Facts("", List.of(), List.of());

    public Facts {
      description = description == null ? "" : description;
      production = production == null ? List.of() : List.copyOf(production);
      departures = departures == null ? List.of() : List.copyOf(departures);
    }
  }

  /**
   * A process of the entry's server, started afresh (not built again) for the rounds from {@code firstRound} on:
   * with --forks N the rounds are measured by N processes in turn, so that what differs from one process to the
   * next (heap layout, JIT decisions, a process slow all its life) lands among a cell's runs.
   *
   * @param firstRound the first round it served (1 for the process prepared before the rounds)
   * @param started    when it was started
   * @param warmup     a process after the first: the req/s of its warm-up runs on each endpoint (by wire
   *                   name, in the order warmed), at full speed under the rule of the warm-up before round 1;
   *                   empty for the first process (its warm-up is each cell's) and where none was made or
   *                   recorded (a run before 2026-12-06 20:40 UTC)
   */
  public record ProcessStart(int firstRound, java.time.Instant started,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<Double>> warmup) {
    /** A process whose warm-up is not its own to record: the first, or one of a run made before they were. */
    public ProcessStart(int firstRound, java.time.Instant started) {
      this(firstRound, started, Map.of());
    }

    public ProcessStart {
      // ordered as warmed: the review reads them in that order
      Map<String, List<Double>> copy = new java.util.LinkedHashMap<>();
      if (warmup != null) {
        warmup.forEach((endpoint, runs) -> copy.put(endpoint, List.copyOf(runs)));
      }
      warmup = java.util.Collections.unmodifiableMap(copy);
    }
  }

  /**
   * What the server wrote to its log (stdout and stderr) while its cells' measured runs ran, and the requests
   * those runs answered: a production server writes nothing per request (SPEC 0.3: no access log, no debug).
   *
   * @param bytes    how much the log grew
   * @param lines    the lines among them
   * @param requests the requests the runs answered
   */
  public record ServerLog(long bytes, long lines, long requests) {
    /**
     * An access log writes a line for every request; a server's notes about connections (a reset at the end of
     * each run, a few lines each for 64 connections) stay far below one line for every two requests.
     */
    public static final double LINES_PER_REQUEST = 0.5;

    public double bytesPerRequest() {
      return requests == 0 ? 0 : (double) bytes / requests;
    }

    public double linesPerRequest() {
      return requests == 0 ? 0 : (double) lines / requests;
    }

    /** Whether it wrote about a line a request or more. */
    public boolean perRequest() {
      return requests > 0 && linesPerRequest() >= LINES_PER_REQUEST;
    }

    public ServerLog plus(long moreBytes, long moreLines, long moreRequests) {
      return new ServerLog(bytes + Math.max(0, moreBytes), lines + Math.max(0, moreLines), requests + moreRequests);
    }
  }

  /**
   * The freezes and thaws of one server between its visits.
   *
   * @param mechanism          e.g. cgroup-v1-freezer, docker-pause
   * @param freezes            how many times it was frozen
   * @param medianFreezeMillis median time from the request to a confirmed frozen state
   * @param maxFreezeMillis    the longest
   * @param medianThawMillis   median time to a confirmed thawed state
   * @param maxThawMillis      the longest
   */
  public record FreezeSummary(String mechanism, int freezes, double medianFreezeMillis, double maxFreezeMillis,
      double medianThawMillis, double maxThawMillis) {}
}
