package dev.fairbench.orchestrator.config;

import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.core.LadderRate;
import java.time.Duration;
import java.util.List;

/**
 * Everything that shapes a run besides the entries.
 *
 * @param benchmark      false for conformance only: prepare, suite, stop
 * @param kind           throughput (wrk) or rate (oha) cells
 * @param warmup         load on every cell before round 1 (also what a share-of-max rate is measured from)
 * @param rewarm         load after each thaw, before the measured run
 * @param rounds         each round visits every cell once, in a fresh shuffled order
 * @param extraRounds    after the rounds, at most this many more, each visiting only the cells whose 95% interval
 *                       is still wider than the trust threshold (and anchors for the round's effect); 0 for none
 * @param extraTimeLimit no extra round is begun, and no disturbed visit repeated, that would end the run past
 *                       this long after it began (its preparation included); zero for no limit. The rounds
 *                       themselves always run; a disturbed visit with no time left for its repeat counts
 * @param seed           round r is shuffled with java.util.Random(seed + r)
 * @param rates          for rate cells
 * @param calibration    measure the calibration server (nginx) in every round
 * @param disturbanceThreshold a visit this disturbed is repeated once later in its round (within extraTimeLimit)
 * @param pipeline       requests per connection write (1: none)
 * @param keepAlive      false: a new connection per request
 * @param acceptFail     clauses whose FAIL does not stop an entry from being measured (its cells are marked)
 * @param ladderShare    throughput runs: ladder cells for each baseline and the frameworks on it, at this share
 *                       of the slowest one's maximum; 0 for none
 * @param ladderEndpoints the endpoints with ladder cells
 * @param startups       fresh warm starts per entry for the start-time figures (plus one cold start)
 * @param onlyStartup    measure start, memory and size only: no cells
 * @param suiteTimeLimit how long the conformance suite may judge one server; what it has not judged by then FAILs
 *                       (null: the suite's own, {@link ConformanceSuite#TIME_LIMIT})
 * @param ladderDuration length of each ladder run (null: {@code duration}, the default, and what invocation blocks
 *                       of runs made before 2026-12-05 09:00 UTC, which do not have it, resume with)
 * @param ladderRate     how the ladder's common rate follows from the share (null: {@link LadderRate#EXACT}, what
 *                       every run made before 2026-12-05 14:00 UTC ran with; the command line's default is
 *                       {@link LadderRate#ROUND})
 * @param forks          the rounds are measured by this many processes of each server in turn, each started afresh
 *                       for its block of consecutive rounds (0 reads as 1: invocation blocks of runs made before
 *                       2026-12-05 17:20 UTC do not have it)
 * @param baselineEndpoints the endpoints of a baseline's throughput cells when it has a ladder in the run (a
 *                       framework standing on it, ladder cells on): its ladder cells are what it is there for, and its
 *                       maximum on a ladder endpoint sets the ladder's rate, so these include the ladder endpoints
 *                       (null: every endpoint, what invocation blocks of runs made before 2026-12-06 00:20 UTC, which
 *                       do not have it, resume with; the command line's default is the ladder endpoints)
 * @param heldLadderRates the rates an earlier run's ladders ran at, held where this run's rungs can hold them
 *                       (null: each ladder at its own rate)
 */
public record RunConfig(
    boolean benchmark,
    CellKind kind,
    List<Endpoint> endpoints,
    Duration duration,
    Duration warmup,
    Duration rewarm,
    int rounds,
    int extraRounds,
    Duration extraTimeLimit,
    long seed,
    List<RateSpec> rates,
    int connections,
    int threads,
    Duration requestTimeout,
    Limits limits,
    boolean calibration,
    double disturbanceThreshold,
    int pipeline,
    boolean keepAlive,
    List<String> acceptFail,
    double ladderShare,
    List<Endpoint> ladderEndpoints,
    int startups,
    boolean onlyStartup,
    Duration suiteTimeLimit,
    Duration ladderDuration,
    LadderRate ladderRate,
    int forks,
    List<Endpoint> baselineEndpoints,
    HeldLadderRates heldLadderRates) {
  /** More extra rounds than this would let a run grow without a bound a reader expects. */
  public static final int MAX_EXTRA_ROUNDS = 30;

  /** The time limit as the progress and the reports write it: "30 min", "45 s". */
  public String timeLimitText() {
    return extraTimeLimit.toSeconds() % 60 == 0 ? extraTimeLimit.toMinutes() + " min" : extraTimeLimit.toSeconds() + " s";
  }

  /** With the suite's own time limit. */
  public RunConfig(boolean benchmark, CellKind kind, List<Endpoint> endpoints, Duration duration, Duration warmup,
      Duration rewarm, int rounds, int extraRounds, Duration extraTimeLimit, long seed, List<RateSpec> rates,
      int connections, int threads, Duration requestTimeout, Limits limits, boolean calibration,
      double disturbanceThreshold, int pipeline, boolean keepAlive, List<String> acceptFail, double ladderShare,
      List<Endpoint> ladderEndpoints, int startups, boolean onlyStartup) {
    this(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed, rates,
        connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive, acceptFail,
        ladderShare, ladderEndpoints, startups, onlyStartup, ConformanceSuite.TIME_LIMIT, null, null, 1, null, null);
  }

  /** The same run with ladder runs of this length. */
  public RunConfig withLadderDuration(Duration length) {
    return new RunConfig(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed,
        rates, connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive,
        acceptFail, ladderShare, ladderEndpoints, startups, onlyStartup, suiteTimeLimit, length, ladderRate, forks,
        baselineEndpoints, heldLadderRates);
  }

  /** The same run with the ladder's common rate chosen by this rule. */
  public RunConfig withLadderRate(LadderRate rule) {
    return new RunConfig(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed,
        rates, connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive,
        acceptFail, ladderShare, ladderEndpoints, startups, onlyStartup, suiteTimeLimit, ladderDuration, rule, forks,
        baselineEndpoints, heldLadderRates);
  }

  /** The same run measured by this many processes of each server in turn. */
  public RunConfig withForks(int processes) {
    return new RunConfig(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed,
        rates, connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive,
        acceptFail, ladderShare, ladderEndpoints, startups, onlyStartup, suiteTimeLimit, ladderDuration, ladderRate,
        processes, baselineEndpoints, heldLadderRates);
  }

  /** The same run with a laddered baseline's throughput cells on these endpoints (null: every endpoint). */
  public RunConfig withBaselineEndpoints(List<Endpoint> chosen) {
    return new RunConfig(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed,
        rates, connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive,
        acceptFail, ladderShare, ladderEndpoints, startups, onlyStartup, suiteTimeLimit, ladderDuration, ladderRate,
        forks, chosen, heldLadderRates);
  }

  /** The same run with its ladders held at an earlier run's rates where they can be (null: their own rates). */
  public RunConfig withHeldLadderRates(HeldLadderRates held) {
    return new RunConfig(benchmark, kind, endpoints, duration, warmup, rewarm, rounds, extraRounds, extraTimeLimit, seed,
        rates, connections, threads, requestTimeout, limits, calibration, disturbanceThreshold, pipeline, keepAlive,
        acceptFail, ladderShare, ladderEndpoints, startups, onlyStartup, suiteTimeLimit, ladderDuration, ladderRate,
        forks, baselineEndpoints, held);
  }

  /**
   * The endpoints of a server's throughput (or rate) cells: {@link #baselineEndpoints} for a baseline that has a
   * ladder in this run, every endpoint otherwise.
   */
  public List<Endpoint> endpointsOf(boolean baselineWithLadder) {
    return baselineWithLadder && baselinesNarrowed() ? baselineEndpoints : endpoints;
  }

  /** Whether a baseline with a ladder is measured on fewer endpoints than the others. */
  public boolean baselinesNarrowed() {
    return ladderShare > 0 && kind == CellKind.THROUGHPUT && !ladderEndpoints.isEmpty()
        && !baselineEndpoints.containsAll(endpoints);
  }

  /**
   * Which of the {@link #forks} processes measures this round: the rounds split into blocks of consecutive
   * rounds as even as they go (9 rounds, 2 processes: 1–4 and 5–9); extra rounds go to the last one.
   */
  public int forkOf(int round) {
    int fork = 1;
    while (fork < forks && round >= firstRoundOf(fork + 1)) {
      fork++;
    }
    return fork;
  }

  /** How many times every server is started afresh after {@code round}: the blocks of rounds that begin later. */
  public int freshStartsAfter(int round) {
    int starts = 0;
    for (int later = round + 1; later <= rounds; later++) {
      if (firstRoundOf(forkOf(later)) == later) {
        starts++;
      }
    }
    return starts;
  }

  /** The first round the process {@code fork} (1 to {@link #forks}) measures. */
  public int firstRoundOf(int fork) {
    return firstRoundOf(fork, rounds, forks);
  }

  /** The first round process {@code fork} of {@code forks} measures, of {@code rounds}. */
  public static int firstRoundOf(int fork, int rounds, int forks) {
    return 1 + (int) ((long) (fork - 1) * rounds / forks);
  }

  /** How long a measured run of a cell of this kind lasts. */
  public Duration runLength(CellKind cellKind) {
    return cellKind == CellKind.LADDER ? ladderDuration : duration;
  }

  public RunConfig {
    extraTimeLimit = extraTimeLimit == null ? Duration.ZERO : extraTimeLimit;
    suiteTimeLimit = suiteTimeLimit == null ? ConformanceSuite.TIME_LIMIT : suiteTimeLimit;
    ladderDuration = ladderDuration == null ? duration : ladderDuration;
    ladderRate = ladderRate == null ? LadderRate.EXACT : ladderRate;
    forks = forks == 0 ? 1 : forks;
    if (forks < 1) {
      throw new IllegalArgumentException("--forks must be at least 1, got " + forks);
    }
    if (suiteTimeLimit.isNegative() || suiteTimeLimit.isZero()) {
      throw new IllegalArgumentException("the suite's --time-limit must be positive, got " + suiteTimeLimit.toMillis() + " ms");
    }
    endpoints = List.copyOf(endpoints);
    ladderEndpoints = List.copyOf(ladderEndpoints);
    // In the order of --endpoints, so a narrowed baseline's cells come in the order every other server's do.
    List<Endpoint> chosen = baselineEndpoints;
    baselineEndpoints = chosen == null ? endpoints : endpoints.stream().filter(chosen::contains).toList();
    if (chosen != null && !endpoints.containsAll(chosen)) {
      throw new IllegalArgumentException("--baseline-endpoints must be among --endpoints");
    }
    rates = List.copyOf(rates);
    acceptFail = List.copyOf(acceptFail);
    if (benchmark) {
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("no endpoints to benchmark");
      }
      if (duration.toMillis() < 1000 || duration.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException("--duration must be a whole number of seconds, at least 1s, got "
            + duration.toMillis() + " ms");
      }
      if (ladderDuration.toMillis() < 1000 || ladderDuration.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException("--ladder-duration must be a whole number of seconds, at least 1s, got "
            + ladderDuration.toMillis() + " ms");
      }
      if (warmup.isNegative() || (!warmup.isZero() && (warmup.toMillis() < 1000 || warmup.toMillis() % 1000 != 0))) {
        throw new IllegalArgumentException("--warmup must be 0 or whole seconds, got " + warmup.toMillis() + " ms");
      }
      if (rewarm.isNegative() || rewarm.toSeconds() > 60) {
        throw new IllegalArgumentException("--rewarm must be from 0 to 60s, got " + rewarm.toMillis() + " ms");
      }
      if (rounds < 1) {
        throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
      }
      if (forks > rounds) {
        throw new IllegalArgumentException("--forks (" + forks + ") must be at most --rounds (" + rounds
            + "): each process measures at least one round");
      }
      if (extraTimeLimit.isNegative()) {
        throw new IllegalArgumentException("--time-limit must not be negative");
      }
      if (extraRounds < 0 || extraRounds > MAX_EXTRA_ROUNDS) {
        throw new IllegalArgumentException("--extra-rounds must be from 0 to " + MAX_EXTRA_ROUNDS + ", got " + extraRounds);
      }
      if (threads < 1 || connections < threads) {
        throw new IllegalArgumentException("--connections (" + connections + ") must be at least --threads ("
            + threads + "), and --threads at least 1");
      }
      if (kind == CellKind.RATE && rates.isEmpty()) {
        throw new IllegalArgumentException("--mode rate needs --rate, e.g. --rate 1000 or --rate 50%,90%");
      }
      if (kind != CellKind.RATE && !rates.isEmpty()) {
        throw new IllegalArgumentException("--rate needs --mode rate");
      }
      if (kind == CellKind.RATE && rates.stream().anyMatch(RateSpec::shareOfMax) && warmup.isZero()) {
        throw new IllegalArgumentException("a rate given as a share of the maximum needs a warm-up: the maximum is "
            + "measured during it (--warmup at least 1s)");
      }
      if (pipeline < 1) {
        throw new IllegalArgumentException("--pipeline must be at least 1, got " + pipeline);
      }
      if (pipeline > ConformanceSuite.DEEPEST_PIPELINE) {
        throw new IllegalArgumentException("--pipeline must be at most " + ConformanceSuite.DEEPEST_PIPELINE
            + ", the deepest burst the conformance suite's clause 11.6 checks, got " + pipeline);
      }
      if (pipeline > 1 && kind == CellKind.RATE) {
        throw new IllegalArgumentException("--pipeline is for throughput cells, not --mode rate");
      }
      if (pipeline > 1 && !keepAlive) {
        throw new IllegalArgumentException("--pipeline and --no-keepalive exclude each other");
      }
      if (startups < 1) {
        throw new IllegalArgumentException("--startups must be at least 1, got " + startups);
      }
      if (!(ladderShare >= 0 && ladderShare <= 1)) { // NaN too: a ladder at no rate at all
        throw new IllegalArgumentException("--ladder-share must be between 0 and 100%, got " + ladderShare * 100 + "%");
      }
      if (ladderShare > 0 && kind != CellKind.THROUGHPUT) {
        throw new IllegalArgumentException("ladder cells belong to throughput runs; with --mode rate use --ladder-share 0");
      }
      if (!endpoints.containsAll(ladderEndpoints)) {
        throw new IllegalArgumentException("--ladder-endpoints must be among --endpoints");
      }
      if (ladderShare > 0 && !baselineEndpoints.containsAll(ladderEndpoints)) {
        throw new IllegalArgumentException("--baseline-endpoints must include the ladder endpoints (the ladder's rate "
            + "is set by each rung's maximum on them, the baseline's too)");
      }
      if (heldLadderRates != null && !(ladderShare > 0)) {
        throw new IllegalArgumentException("--ladder-rates-from holds ladders' rates; this run has no ladder "
            + "(--ladder-share 0 or --mode rate)");
      }
      if (!(disturbanceThreshold > 0)) {
        throw new IllegalArgumentException("the disturbance threshold must be positive, got " + disturbanceThreshold);
      }
    }
  }

  /** Conformance only: nothing is measured; the suite judges each server within {@code suiteTimeLimit}. */
  public static RunConfig conformanceOnly(Limits limits, Duration requestTimeout, Duration suiteTimeLimit) {
    return new RunConfig(false, CellKind.THROUGHPUT, List.of(), Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, 0, Duration.ZERO, 0,
        List.of(), 0, 0, requestTimeout, limits, false, 1, 1, true, List.of(), 0, List.of(), 0, false, suiteTimeLimit,
        null, null, 1, null, null);
  }
}
