package dev.fairbench.orchestrator.cli;

import dev.fairbench.conformance.SpecClause;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.HeldLadderRates;
import dev.fairbench.orchestrator.config.RateSpec;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.events.ProgressPrinter;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.core.LadderRate;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.pipeline.Resumption;
import dev.fairbench.orchestrator.load.LocalLoadClient;
import dev.fairbench.orchestrator.pipeline.RunSession;
import dev.fairbench.orchestrator.pipeline.VerdictStore;
import dev.fairbench.orchestrator.results.Invocation;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.LadderRates;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.ClientContainer;
import dev.fairbench.orchestrator.runtime.DockerEngine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Prepare entries, gate them on conformance, measure them in shuffled rounds; write results and reports.",
    description = {
      "First every entry (none given: every entry; unavailable ones are recorded with their reason) is prepared: "
          + "built, started on the server CPU set under the memory limit with WORKERS set, and run through the "
          + "conformance suite (a FAIL means it is not measured, unless --accept-fail names the clause). Prepared "
          + "servers are kept running and frozen (cgroup freezer, docker pause) while others are measured.",
      "",
      "Then every cell (entry × endpoint; × rate in rate mode), and the calibration server's (nginx: the load "
          + "client's ceiling and the floor every cell is shown against), is warmed up, and measured in --rounds "
          + "rounds: each round visits every cell once in a fresh order shuffled from --seed (recorded): thaw, "
          + "re-warm, one measured run, freeze. A visit that other work on the server's CPUs disturbed (steal, other "
          + "tasks) is repeated once later in its round while the repeat fits in --time-limit; both are recorded. Then "
          + "up to --extra-rounds more rounds visit the cells whose interval is still wider than ±5%%.",
      "",
      "Per cell: median with a 95%% confidence interval from order statistics (interpolated between neighbouring "
          + "ranks), CPU-µs per request with its interval, "
          + "ratios to the calibration, flags; trustworthy when the interval is within ±5%% (docs/REPORTS.md). "
          + "results.json is rewritten after every visit; report.md, report.html, fairness.md and runs.csv are "
          + "written at the end. Progress goes to stderr.",
      "",
      "A run that stopped (killed, out of memory, a CI timeout) is continued with --resume results/<time>/: "
          + "see that option. If the results cannot be written mid-run (disk full), the run stops measuring, stops "
          + "every server and exits 1; the last complete results.json stays as it was.",
      "",
      "Exit 0 when every selected entry was measured, 1 when one failed to build, start, pass conformance or be "
          + "measured, 2 for a usage error or a missing tool. Ctrl-C or SIGTERM stops every server and ends it as an "
          + "interrupted program does (130, 143 for SIGTERM), saying what results.json keeps and how to --resume it."
    })
public class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Parameters(paramLabel = "ENTRY[:VARIANT][@RUNTIME]", arity = "0..*",
      description = "Entries to run; none means all. @native or @docker runs that one in that runtime instead of "
          + "--runtime's, in the same rounds as the others and under the same limits (its id then carries the suffix: "
          + "go-gin@docker); the calibration server runs in --runtime's.")
  List<String> entries = List.of();

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "throughput",
      description = "throughput: wrk as fast as the server answers (default); rate: a fixed rate with oha, "
          + "latency corrected for coordinated omission (needs --rate).")
  String mode;

  @Option(names = "--rate", paramLabel = "RATE", split = ",",
      description = "With --mode rate: requests per second (1000), or shares of each cell's own maximum measured "
          + "during the warm-up of the same run (50%%,90%%). Each rate is a cell of its own.")
  List<String> rates = List.of();

  @Option(names = "--endpoints", paramLabel = "LIST", split = ",",
      description = "Endpoints to measure, comma-separated: plaintext, json, user, validate (default: all four).")
  List<String> endpoints = Defaults.ENDPOINTS;

  @Option(names = "--rounds", paramLabel = "N",
      description = "Rounds; each visits every cell once (default: 9 — from 9 runs the 95%% interval of the median "
          + "survives one outlier on each side; at least 6 for an interval at all).")
  Integer rounds;

  @Option(names = "--extra-rounds", paramLabel = "N",
      description = "After the rounds, up to N more, each visiting only the cells whose 95%% interval is still "
          + "wider than ±5%% (with the calibration's cells and, in a small round, trusted ones beside them, so the "
          + "round's effect is not one cell's); they stop when no cell is that wide or when the extra visits would "
          + "pass a third of the rounds'. Whether to go on depends on an interval's width only, never on its "
          + "median (default: 6; 0 for none).")
  Integer extraRounds;

  @Option(names = "--time-limit", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "No extra round is begun, and no disturbed visit repeated, that would end the run past this long "
          + "after it began, preparation included (estimated from this run's own cost of a visit); a disturbed visit "
          + "with no time left for its repeat counts as it is, and the reports say how many did. The rounds "
          + "themselves always run (default: 30m; 0 for no limit).")
  Duration timeLimit;

  @Option(names = "--seed", paramLabel = "N",
      description = "Seed of the rounds' shuffled orders (default: drawn and recorded; give it to reproduce an order).")
  Long seed;

  @Option(names = "--duration", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Length of each measured run, whole seconds (default: 1s on 2-3 cores, 2s from 4).")
  Duration duration;

  @Option(names = "--warmup", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Length of each warm-up run of every cell before round 1, 0 for none (default: 2s on 2-3 "
          + "cores, 5s from 4). A cell's runs go on while one is over 5%% faster than the one before, at most six; "
          + "at a share-of-max rate, until two in a row agree within 5%%.")
  Duration warmup;

  @Option(names = "--rewarm", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Load after each thaw, before the measured run, e.g. 500ms; 0 for none (default: 500ms).")
  Duration rewarm;

  @Option(names = "--connections", paramLabel = "N",
      description = "Open connections of the load client (default: 64 on 2-3 cores, 128 from 4).")
  Integer connections;

  @Option(names = "--threads", paramLabel = "N", description = "wrk threads (default: 1 on 2-3 cores, 2 from 4).")
  Integer threads;

  @Option(names = "--pipeline", paramLabel = "N", defaultValue = "1",
      description = "Requests wrk writes per connection at once (TechEmpower's pipelining); 1 (default) for none, "
          + "at most 256 (the deepest burst conformance clause 11.6 checks). "
          + "Pipelined cells are their own kind: never compared with plain ones.")
  int pipeline;

  @Option(names = "--no-keepalive", description = "A new connection for every request (its own kind of cell).")
  boolean noKeepAlive;

  @Option(names = "--no-calibration", description = "Do not measure the calibration server (no ratios, no ceiling).")
  boolean noCalibration;

  @Option(names = "--no-baselines", description = "Leave out the runtimes' bare servers (entries of kind baseline) "
      + "when no entries are named, and with them the ladder; a baseline named is run.")
  boolean noBaselines;

  @Option(names = "--ladder-share", paramLabel = "PERCENT",
      description = "Ladder cells: each baseline and every framework on it at the same fixed rate, this share of the "
          + "slowest one's maximum from the warm-up, so their CPU per request can be subtracted; 0 for none "
          + "(default: 50 in throughput mode).")
  Double ladderShare;

  @Option(names = "--ladder-rate", paramLabel = "RULE",
      description = "How the ladder's common rate follows from --ladder-share: round (the default) rounds it down to "
          + "1, 1.5, 2, 3, 5 or 7 times a power of ten, so that runs on other hours or machines mostly run their ladders "
          + "at the same rate and compare them as one measure (a request's CPU cost depends on its rate); exact takes "
          + "the share itself, as runs before 2026-12-05 14:00 UTC did.")
  String ladderRate;

  @Option(names = "--forks", paramLabel = "N",
      description = "Processes of each server that measure the rounds in turn (default: 1). With N, the rounds split "
          + "into N blocks of consecutive rounds; before each block after the first every server is stopped, started "
          + "afresh from its build (not built again, the suite not run again), checked as at the start (limits, "
          + "listening address, answers) and warmed up as before round 1. What differs from one process to the next "
          + "(heap layout, JIT decisions, a process slow all its life) then lands among a cell's runs instead of "
          + "between runs. At most --rounds. The restarts take their time from the extra rounds: about 5 minutes "
          + "over every entry here with 2, all the time the 30-minute --time-limit leaves them (give 35m or more).")
  Integer forks;

  @Option(names = "--ladder-duration", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Length of each ladder run, whole seconds (default: --duration). Longer runs narrow a ladder "
          + "cell's interval (the CPU per request of a server at a fixed rate spreads about half as much over 3s as "
          + "over 1s) at the cost of the extra rounds the other cells get within --time-limit.")
  Duration ladderDuration;

  @Option(names = "--ladder-endpoints", paramLabel = "LIST", split = ",",
      description = "Endpoints with ladder cells (default: json).")
  List<String> ladderEndpoints;

  @Option(names = "--ladder-rates-from", paramLabel = "RESULTS.json",
      description = "Hold each ladder at the rate it ran at in that earlier run, the one this run is to be compared "
          + "with, where every rung here can hold it (at most 70%% of the slowest rung's maximum in this run's warm-up; "
          + "else the ladder takes its own rate and the progress says so). A ladder's own rate follows its slowest "
          + "rung, so a change that slows that rung would otherwise move its whole ladder to another rate, and compare "
          + "cannot set cells at two rates side by side.")
  Path ladderRatesFrom;

  @Option(names = "--baseline-endpoints", paramLabel = "LIST", split = ",",
      description = "Endpoints of a baseline's throughput cells when a framework on it is in the run (it then has "
          + "ladder cells, what it is there for): a comma-separated list that includes the ladder endpoints, or all "
          + "(default: the ladder endpoints, so a run over every entry stays within its time; a baseline without a "
          + "framework in the run is measured on every endpoint).")
  List<String> baselineEndpoints;

  @Option(names = "--accept-fail", paramLabel = "CLAUSE", split = ",",
      description = "Measure entries that FAIL only these conformance clauses (e.g. 4.6); their cells are marked "
          + "non-conformant in every report and never ranked beside conformant ones without the mark. A clause the "
          + "suite does not have is refused.")
  List<String> acceptFail = List.of();

  @Option(names = "--fresh-conformance",
      description = "Run the conformance suite on every entry. Without it, an entry whose files, toolchain, runtime "
          + "and limits, and the suite itself, hash the same as at an earlier check (kept in .fairbench/verdicts/ "
          + "of this checkout) reuses that check's verdict; every report says which verdicts were reused and from when.")
  boolean freshConformance;

  @Option(names = "--startups", paramLabel = "N", defaultValue = "5",
      description = "Fresh warm starts per entry for its start-time figures, after the build; one cold start (page "
          + "cache dropped, natively, as root) besides (default: ${DEFAULT-VALUE}).")
  int startups;

  @Option(names = "--only-startup",
      description = "Measure only start times, memory and size (no cells): a quick check while writing an entry.")
  boolean onlyStartup;

  @Option(names = "--client-host", paramLabel = "DOCKER_URL",
      description = "Run the load client (wrk, oha) as a container on this Docker engine instead of as a local "
          + "process: tcp://HOST:PORT (TLS as for --server-host) or unix:///PATH, this machine's own socket included. "
          + "It uses the load-client image (make it there: docker/make-base-images --only load-client), that host's "
          + "network and the client CPU set (on another machine: that host's CPUs the server set does not name). "
          + "See docs/TWO-HOSTS.md.")
  String clientHost;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Folder for results.json, the reports, conformance reports and logs (default: results/<time>/).")
  Path output;

  @Option(names = "--resume", paramLabel = "DIR",
      description = "Continue a run that stopped: DIR is its folder (or its results.json). The entries and every "
          + "setting recorded there are used, so no entry and no other option may be given with it. The rounds "
          + "complete in the file are kept; the first incomplete one is measured again from its start (its partial "
          + "runs dropped), then the rest, each round in the order its seed gives. Every entry is prepared again "
          + "(new processes: build, start, conformance, warm-up); the break is recorded in results.json and the "
          + "fairness review. Refused when the run is complete, or the method version, the checkout's commit, an "
          + "entry's files or the machine (CPU, cores, kernel, runtime) changed. A run made with --client-host "
          + "resumes with the load client on that engine again.")
  Path resume;
  /**
   * The engine of --client-host, checked: a client host on another machine must reach the
   * servers, so they must run on a server host too (here they listen on loopback).
   */
  Optional<DockerEngine> clientEngine() {
    if (clientHost == null) {
      return Optional.empty();
    }
    DockerEngine engine;
    try {
      engine = DockerEngine.clientHost(clientHost, System.getenv());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (!engine.onThisMachine() && limitOptions.serverEngine().isEmpty()) {
      throw new UsageException("--client-host " + clientHost + " is another machine, and the servers would run here "
          + "on loopback, out of its reach: give --server-host too (the servers on a host the client reaches), or a "
          + "client host on this machine (unix:///var/run/docker.sock)");
    }
    return Optional.of(engine);
  }

  @Override
  public Integer call() throws Exception {
    return execute(mode);
  }

  /** The run with {@code modeName} ("throughput" or "rate"): `fairbench rate` calls this too. */
  int execute(String modeName) throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FairbenchPaths paths = FairbenchPaths.detect();
    if (resume != null) {
      return resume(out, err, paths);
    }
    Defaults.Profile profile = Defaults.forThisMachine();
    RunConfig config;
    Optional<DockerEngine> clientEngine = clientEngine();
    try {
      CellKind kind = CellKind.parse(modeName);
      if (kind == CellKind.LADDER) {
        throw new IllegalArgumentException("--mode is throughput or rate; ladder cells come with throughput runs");
      }
      List<Endpoint> endpointList = endpoints.stream().map(String::trim).map(Endpoint::parse).distinct().toList();
      emptyRates();
      config = new RunConfig(true, kind, endpointList,
          duration == null ? profile.duration() : duration,
          warmup == null ? profile.warmup() : warmup,
          rewarm == null ? profile.rewarm() : rewarm,
          rounds == null ? profile.rounds() : rounds,
          extraRounds == null ? profile.extraRounds() : extraRounds,
          timeLimit == null ? Defaults.EXTRA_TIME_LIMIT : timeLimit,
          seed == null ? new java.security.SecureRandom().nextLong() >>> 16 : seed,
          rates.stream().map(RateSpec::parse).toList(),
          connections == null ? profile.connections() : connections,
          threads == null ? profile.threads() : threads,
          Defaults.REQUEST_TIMEOUT, limitOptions.limits(profile, clientEngine), !noCalibration && !onlyStartup, Defaults.DISTURBANCE_THRESHOLD,
          pipeline, !noKeepAlive, acceptedClauses(acceptFail),
          (ladderShare == null ? (kind == CellKind.THROUGHPUT && !onlyStartup ? Defaults.LADDER_SHARE : 0) : ladderShare / 100),
          ladderEndpoints == null
              ? (kind == CellKind.THROUGHPUT ? endpointList.stream().filter(e -> Defaults.LADDER_ENDPOINTS.contains(e.wireName())).toList() : List.of())
              : ladderEndpoints.stream().map(String::trim).map(Endpoint::parse).distinct().toList(),
          startups, onlyStartup);
      if (ladderDuration != null) {
        config = config.withLadderDuration(ladderDuration);
      }
      config = config.withLadderRate(ladderRate == null ? LadderRate.ROUND : LadderRate.parse(ladderRate.trim()));
      if (ladderRatesFrom != null) {
        config = config.withHeldLadderRates(heldRates(ladderRatesFrom));
      }
      List<String> chosen = baselineEndpoints == null ? null : baselineEndpoints.stream().map(String::trim).toList();
      config = config.withBaselineEndpoints(chosen == null ? config.ladderEndpoints()
          : chosen.equals(List.of("all")) ? null : chosen.stream().map(Endpoint::parse).distinct().toList());
      if (forks != null) {
        if (forks < 1) {
          throw new IllegalArgumentException("--forks must be at least 1, got " + forks);
        }
        config = config.withForks(forks);
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Path dir = output != null ? output : paths.results().resolve(Converters.timestamp(Instant.now()));
    RunSession.Request request = new RunSession.Request(entries, impls.catalog(paths), paths.root().resolve("calibration"),
        Defaults.CALIBRATION, config, dir, limitOptions::runtime,
        (now, runtime, client, loadGenerator, cfg) -> Sessions.environment(now, paths, runtime, client, loadGenerator, cfg),
        !noBaselines, limitOptions.serverHost == null ? "" : limitOptions.serverHost,
        limitOptions.serverAddress == null ? "" : limitOptions.serverAddress, null,
        clientHost == null ? "" : clientHost, loadClient(clientEngine))
        .withVerdicts(VerdictStore.at(paths.verdicts(), freshConformance ? VerdictStore.Use.RECORD : VerdictStore.Use.REUSE));
    return finish(request, out, err);
  }

  /** The ladder rates of an earlier run's results; a file that cannot be read or has no ladder is a usage error. */
  private static HeldLadderRates heldRates(Path file) {
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new IllegalArgumentException("--ladder-rates-from " + file + ": no such file");
    }
    ResultsDocument earlier;
    try {
      earlier = ResultsJson.read(file);
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("--ladder-rates-from " + file + ": cannot read it as a results.json ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("")) + ")");
    }
    try {
      return LadderRates.of(earlier, file.toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ladder-rates-from " + e.getMessage());
    }
  }

  /** `run --resume DIR`: the stopped run's recorded entries and settings, continued in its folder. */
  private int resume(PrintWriter out, PrintWriter err, FairbenchPaths paths) throws Exception {
    List<String> others = spec.commandLine().getParseResult().matchedOptions().stream()
        .map(CommandLine.Model.OptionSpec::longestName).filter(name -> !name.equals("--resume")).distinct().toList();
    if (!others.isEmpty() || !entries.isEmpty()) {
      return refuse(err, "--resume continues a run with the entries and settings it recorded; it takes no "
          + (others.isEmpty() ? "entries" : "other option") + " (given: "
          + String.join(" ", others.isEmpty() ? entries : others) + ")");
    }
    Resumption from;
    try {
      from = Resumption.read(resume);
    } catch (RunSession.PreflightException e) {
      return refuse(err, "cannot resume: " + e.getMessage());
    }
    Invocation recorded = from.invocation();
    limitOptions.runtime = recorded.runtime().startsWith("docker") ? "docker" : recorded.runtime();
    limitOptions.serverHost = recorded.serverHost().isEmpty() ? null : recorded.serverHost();
    limitOptions.serverAddress = recorded.serverAddress().isEmpty() ? null : recorded.serverAddress();
    clientHost = recorded.clientHost().isEmpty() ? null : recorded.clientHost();
    Optional<DockerEngine> clientEngine;
    try {
      clientEngine = clientEngine();
    } catch (UsageException e) {
      return refuse(err, "cannot resume: the run's load client: " + e.getMessage());
    }
    EntryCatalog catalog;
    try {
      catalog = EntryCatalog.load(Path.of(recorded.impls()));
    } catch (IllegalArgumentException e) {
      return refuse(err, "cannot resume: the run's entries were read from " + recorded.impls() + ": " + e.getMessage());
    }
    RunSession.Request request = new RunSession.Request(recorded.selectors(), catalog,
        paths.root().resolve("calibration"), Defaults.CALIBRATION, recorded.config(), from.resultsFile().getParent(),
        limitOptions::runtime,
        (now, runtime, client, loadGenerator, cfg) -> Sessions.environment(now, paths, runtime, client, loadGenerator, cfg),
        recorded.baselines(), recorded.serverHost(), recorded.serverAddress(), from, recorded.clientHost(),
        loadClient(clientEngine))
        .withVerdicts(VerdictStore.at(paths.verdicts(), VerdictStore.Use.REUSE));
    try {
      return finish(request, out, err);
    } catch (RunSession.PreflightException e) {
      return refuse(err, e.getMessage());
    }
  }

  /**
   * picocli splits "--rate 10," into 10 alone and "--rate ," into nothing at all, which `run` would
   * take for no --rate and measure throughput: every comma-separated part given must be a rate.
   */
  private void emptyRates() {
    CommandLine.Model.OptionSpec given = spec.commandLine().getParseResult().matchedOption("--rate");
    if (given != null) {
      for (String text : given.originalStringValues()) {
        for (String part : text.split(",", -1)) {
          RateSpec.parse(part);
        }
      }
    }
  }

  /**
   * The clauses of --accept-fail, trimmed; one the suite does not check is a usage error (a typo would
   * otherwise accept nothing and the entry would be left out without a word about why).
   */
  static List<String> acceptedClauses(List<String> given) {
    List<String> clauses = given.stream().map(String::trim).toList();
    List<String> unknown = clauses.stream().filter(id -> SpecClause.byId(id).isEmpty())
        .map(id -> id.isEmpty() ? "\"\"" : id).distinct().toList();
    if (!unknown.isEmpty()) {
      throw new UsageException("--accept-fail: no clause " + String.join(", ", unknown) + " in the conformance suite; "
          + "its clauses are " + clauseRanges() + " (docs/SPEC.md)");
    }
    return clauses;
  }

  /** The suite's clause ids by section, a section's run of numbers as one range: "1.1–1.3, 2.1–2.3, …". */
  static String clauseRanges() {
    Map<String, List<String>> sections = new LinkedHashMap<>();
    for (SpecClause clause : SpecClause.ALL) {
      sections.computeIfAbsent(clause.id().substring(0, clause.id().indexOf('.')), k -> new ArrayList<>())
          .add(clause.id());
    }
    List<String> parts = new ArrayList<>();
    sections.forEach((section, ids) -> {
      boolean run = true;
      for (int i = 0; i < ids.size(); i++) {
        run &= ids.get(i).equals(section + "." + (i + 1));
      }
      parts.add(run && ids.size() > 1 ? ids.getFirst() + "–" + ids.getLast() : String.join(", ", ids));
    });
    return String.join(", ", parts);
  }

  /** wrk and oha as local processes, or in a container on the --client-host engine. */
  private static RunSession.LoadClientFactory loadClient(Optional<DockerEngine> clientEngine) {
    return clientEngine.<RunSession.LoadClientFactory>map(e -> cpus -> ClientContainer.start(e, cpus))
        .orElse(LocalLoadClient::new);
  }

  private int refuse(PrintWriter err, String message) {
    err.println("fairbench " + spec.name() + ": " + message);
    err.flush();
    return ExitCodes.USAGE;
  }

  private int finish(RunSession.Request request, PrintWriter out, PrintWriter err) throws Exception {
    RunSession.Outcome outcome;
    try {
      outcome = RunSession.run(request, new ProgressPrinter(err), err);
    } catch (RunSession.MissingToolException e) {
      // One line, no usage hint: the command was right, the machine lacks a tool.
      err.println("fairbench " + spec.name() + ": " + e.getMessage());
      err.flush();
      return ExitCodes.USAGE;
    } catch (RunSession.PreflightException e) {
      if (request.resume() != null) {
        throw e;
      }
      throw new UsageException(e.getMessage());
    } catch (RunSession.ResultsWriteException e) {
      boolean kept = java.nio.file.Files.exists(e.file());
      err.println("fairbench " + spec.name() + ": " + e.getMessage() + "; measuring stopped and every server stopped"
          + (kept ? "; " + e.file() + " holds the last complete results (continue with --resume "
              + e.file().getParent() + " once it can be written)" : ""));
      err.flush();
      return ExitCodes.FAILED;
    }
    long measured = outcome.results().measuredServers().stream().filter(e -> e.status() == EntryStatus.MEASURED).count();
    out.printf("Measured %d of %d entries.%n", measured, outcome.results().measuredServers().size());
    out.println("Results: " + outcome.resultsFile() + " (raw runs: " + outcome.reports().csv() + ")");
    out.println("Report:  " + outcome.reports().markdown() + " (HTML: " + outcome.reports().html() + ")");
    out.println("Fairness review: " + outcome.reports().fairness());
    out.flush();
    return outcome.failed() ? ExitCodes.FAILED : ExitCodes.OK;
  }
}
