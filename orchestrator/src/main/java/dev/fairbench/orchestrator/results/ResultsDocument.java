package dev.fairbench.orchestrator.results;

import dev.fairbench.orchestrator.core.CellKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The results file: the environment, the method (rounds, seed, thresholds), every round, then
 * every entry (the calibration server among them, marked by its role).
 *
 * @param methodVersion what produced the figures; compare refuses to mix two
 * @param rounds        one record per round, in order
 * @param calibration   what the calibration server showed; null when none ran
 * @param breaks        resumptions: a run that stopped and was continued with fresh servers
 * @param invocation    the run as asked, what `run --resume` repeats; null in files written before it
 */
public record ResultsDocument(
    int schemaVersion,
    String methodVersion,
    Environment environment,
    Method method,
    List<RoundRecord> rounds,
    Calibration calibration,
    List<String> breaks,
    List<EntryResult> entries,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    Invocation invocation) {
  public static final int SCHEMA_VERSION = 2;
  /** Shuffled rounds over servers kept running and frozen between visits, calibrated in-run. */
  public static final String METHOD_VERSION = "rounds-1";

  @com.fasterxml.jackson.annotation.JsonCreator
  public ResultsDocument {
    methodVersion = methodVersion == null ? "" : methodVersion;
    rounds = rounds == null ? List.of() : List.copyOf(rounds);
    breaks = breaks == null ? List.of() : List.copyOf(breaks);
    entries = List.copyOf(entries);
  }

  /** A document without a recorded invocation (fixtures, and documents made from others). */
  public ResultsDocument(int schemaVersion, String methodVersion, Environment environment, Method method,
      List<RoundRecord> rounds, Calibration calibration, List<String> breaks, List<EntryResult> entries) {
    this(schemaVersion, methodVersion, environment, method, rounds, calibration, breaks, entries, null);
  }

  public ResultsDocument withEntries(List<EntryResult> newEntries) {
    return new ResultsDocument(schemaVersion, methodVersion, environment, method, rounds, calibration, breaks, newEntries,
        invocation);
  }

  /** How this file's cells' intervals are drawn: order statistics where it does not say (every file before the choice). */
  public dev.fairbench.orchestrator.core.MedianIntervalKind intervalKind() {
    return method == null ? dev.fairbench.orchestrator.core.MedianIntervalKind.ORDER_STATISTICS : method.intervalKind();
  }

  /** The framework entries: what the main tables rank (neither baselines nor the calibration server). */
  public List<EntryResult> rankedEntries() {
    return entries.stream().filter(e -> e.role() == dev.fairbench.orchestrator.core.Role.ENTRY).toList();
  }

  /** Entries and baselines: every server but the calibration. */
  public List<EntryResult> measuredServers() {
    return entries.stream().filter(e -> !e.calibration()).toList();
  }

  /**
   * How the cells were measured.
   *
   * @param kind                 throughput (wrk) or rate (oha)
   * @param rounds               each round visits every cell once
   * @param seed                 round r's order is a shuffle by java.util.Random(seed + r)
   * @param rewarmSeconds        load after each thaw before the measured run
   * @param rates                for rate cells, the rates as asked (absolute or "NN%")
   * @param disturbanceThreshold a visit whose disturbance share reaches this is repeated once, later in the round
   * @param pipeline             requests per connection write (1: no pipelining)
   * @param keepAlive            false: a new connection per request
   * @param ladderShare          ladder cells run at this share of the slowest rung's maximum; 0 for none
   * @param ladderEndpoints      the endpoints that have ladder cells
   * @param wakeupThreshold      a visit whose wake-up reading before or after is below this share of the run's
   *                             usual rate is repeated as a disturbed one; null in runs made before 2026-12-05
   * @param spellWaitSeconds     a visit whose wake-ups read slow just before its thaw waits up to this long for
   *                             them to read usual again; null in runs made before 2026-12-05 07:00 UTC
   * @param ladderDurationSeconds the length of each ladder run; null in runs made before 2026-12-05 09:00 UTC,
   *                             whose ladder runs lasted as long as the others
   * @param ladderRate           how the ladder's common rate follows from the share (rounded down to a round rate,
   *                             or the share itself); null in runs made before 2026-12-05 14:00 UTC, whose ladders
   *                             ran at the share itself
   * @param forks                how many processes of each server measured the rounds in turn, each a block of
   *                             consecutive rounds (EntryResult's processes say which); null in runs made before
   *                             2026-12-05 17:20 UTC, which had one
   * @param cpuGauge             what a constant-rate run's CPU-µs/request is read against: its own load client's
   *                             CPU per request ({@link dev.fairbench.orchestrator.results.ClientGauge}); null in runs
   *                             made before 2026-12-05 21:10 UTC, read against their rounds' effects alone
   * @param baselineEndpoints    the endpoints of a baseline's throughput cells when a framework standing on it was in
   *                             the run (the ladder endpoints by default); null when such baselines were measured on
   *                             every endpoint, as in every run made before 2026-12-06 00:20 UTC
   * @param ladderRatesFrom      the earlier run whose ladders' rates this run held where its rungs could
   *                             (`--ladder-rates-from`); null when every ladder took its own rate
   * @param memoryProbePages     the pages the memory probe's buffer lay on; null where no memory probe ran here, and
   *                             in files made before 2026-12-07 19:57 UTC (4 KiB pages on this project's machines)
   */
  public record Method(
      CellKind kind,
      int rounds,
      int extraRounds,
      long seed,
      double rewarmSeconds,
      List<String> rates,
      double disturbanceThreshold,
      int pipeline,
      boolean keepAlive,
      double ladderShare,
      List<String> ladderEndpoints,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Double wakeupThreshold,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Double spellWaitSeconds,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Double ladderDurationSeconds,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      dev.fairbench.orchestrator.core.LadderRate ladderRate,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Integer forks,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      dev.fairbench.orchestrator.core.CpuGauge cpuGauge,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      List<String> baselineEndpoints,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      String ladderRatesFrom,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      dev.fairbench.orchestrator.core.ProbePages memoryProbePages,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      dev.fairbench.orchestrator.core.MedianIntervalKind medianInterval) {
    public Method {
      baselineEndpoints = baselineEndpoints == null ? null : List.copyOf(baselineEndpoints);
      rates = rates == null ? List.of() : List.copyOf(rates);
      ladderEndpoints = ladderEndpoints == null ? List.of() : List.copyOf(ladderEndpoints);
    }

    /** A method without a CPU gauge, as every run before 2026-12-05 21:10 UTC was. */
    public Method(CellKind kind, int rounds, int extraRounds, long seed, double rewarmSeconds, List<String> rates,
        double disturbanceThreshold, int pipeline, boolean keepAlive, double ladderShare, List<String> ladderEndpoints,
        Double wakeupThreshold, Double spellWaitSeconds, Double ladderDurationSeconds,
        dev.fairbench.orchestrator.core.LadderRate ladderRate, Integer forks) {
      this(kind, rounds, extraRounds, seed, rewarmSeconds, rates, disturbanceThreshold, pipeline, keepAlive, ladderShare,
          ladderEndpoints, wakeupThreshold, spellWaitSeconds, ladderDurationSeconds, ladderRate, forks, null, null, null,
          null, null);
    }

    /** A method with every baseline on every endpoint, as every run before 2026-12-06 00:20 UTC was. */
    public Method(CellKind kind, int rounds, int extraRounds, long seed, double rewarmSeconds, List<String> rates,
        double disturbanceThreshold, int pipeline, boolean keepAlive, double ladderShare, List<String> ladderEndpoints,
        Double wakeupThreshold, Double spellWaitSeconds, Double ladderDurationSeconds,
        dev.fairbench.orchestrator.core.LadderRate ladderRate, Integer forks,
        dev.fairbench.orchestrator.core.CpuGauge cpuGauge) {
      this(kind, rounds, extraRounds, seed, rewarmSeconds, rates, disturbanceThreshold, pipeline, keepAlive, ladderShare,
          ladderEndpoints, wakeupThreshold, spellWaitSeconds, ladderDurationSeconds, ladderRate, forks, cpuGauge, null,
          null, null, null);
    }

    /** This method with the memory probe's pages, once the probe exists. */
    public Method withMemoryProbePages(dev.fairbench.orchestrator.core.ProbePages pages) {
      return new Method(kind, rounds, extraRounds, seed, rewarmSeconds, rates, disturbanceThreshold, pipeline, keepAlive,
          ladderShare, ladderEndpoints, wakeupThreshold, spellWaitSeconds, ladderDurationSeconds, ladderRate, forks,
          cpuGauge, baselineEndpoints, ladderRatesFrom, pages, medianInterval);
    }

    /** This method with its cells' intervals drawn the given way. */
    public Method withMedianInterval(dev.fairbench.orchestrator.core.MedianIntervalKind interval) {
      return new Method(kind, rounds, extraRounds, seed, rewarmSeconds, rates, disturbanceThreshold, pipeline, keepAlive,
          ladderShare, ladderEndpoints, wakeupThreshold, spellWaitSeconds, ladderDurationSeconds, ladderRate, forks,
          cpuGauge, baselineEndpoints, ladderRatesFrom, memoryProbePages, interval);
    }

    /** How the cells' intervals are drawn: order statistics where the file does not say (every run before the choice). */
    public dev.fairbench.orchestrator.core.MedianIntervalKind intervalKind() {
      return medianInterval == null ? dev.fairbench.orchestrator.core.MedianIntervalKind.ORDER_STATISTICS : medianInterval;
    }
  }

  /**
   * @param order  the cells in the order visited, "entry endpoint" (repeats of disturbed visits at the end)
   * @param probe  the fixed-work probe on the server's CPUs at the start of the round; null when it could not run
   * @param factor the round's effect on the log scale, from a median polish over every cell (0 = typical)
   */
  public record RoundRecord(int index, Instant started, List<String> order, Probe probe, double factor) {
    public RoundRecord {
      order = List.copyOf(order);
    }
  }

  /**
   * A fixed amount of user-space work (SHA-256 over the same bytes) on the server's CPUs: it tracks
   * frequency changes and steal, which nginx, mostly kernel work, would not show.
   *
   * @param megabytesPerSecond hashing speed; the spread over rounds is the machine's own noise
   */
  public record Probe(double wallSeconds, double cpuSeconds, double megabytesPerSecond) {}

  /**
   * @param server                   the calibration server's id
   * @param requestsPerSecond        its median req/s per endpoint
   * @param cpuMicrosPerRequest      its median CPU-µs per request per endpoint
   * @param clientCeilingRequestsPerSecond the highest median req/s it reached: the load client's ceiling here
   */
  public record Calibration(String server, Map<String, Double> requestsPerSecond,
      Map<String, Double> cpuMicrosPerRequest, double clientCeilingRequestsPerSecond) {
    public Calibration {
      requestsPerSecond = Map.copyOf(requestsPerSecond);
      cpuMicrosPerRequest = Map.copyOf(cpuMicrosPerRequest);
    }
  }
}
