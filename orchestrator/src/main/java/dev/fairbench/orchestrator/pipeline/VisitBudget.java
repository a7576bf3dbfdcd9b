package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.Endpoint;
import java.util.List;
import java.util.Locale;

/**
 * How many visits a run makes and about how long it takes: the cells the pipeline really measures
 * (each entry's endpoints × rates, a baseline with a framework standing on it on its
 * {@link RunConfig#baselineEndpoints} only, the calibration server's three GET endpoints, the ladder
 * cells of every baseline with a framework standing on it), × rounds. A visit found disturbed is
 * repeated once later in its round while a repeat fits in the time limit; those repeats are not counted here
 * (they cannot be known ahead).
 * The seconds come from the run of 2026-12-06 00:17 UTC (results/reference-2026-12-06-0017/, native,
 * warm build caches, the defaults of that day: 30.0 minutes in all, 24.5 of them before its extra
 * rounds, for 21 selections and 612 visits of 68 cells): preparing a selection took about 10.7 s
 * (build, start, the suite's 76 clauses, the fresh starts; one that is unavailable takes less, a cold
 * build much more), a cell's warm-up its runs ({@link #WARMUP_RUNS}) and 0.3 s, a visit the re-warm, the run and 0.3 s
 * (thaw, the client's start and wrk's tenth of a second past its -d, the speed and wake-up readings,
 * freeze, rewriting results.json, and the visit's share of repeats and waits for slow spells). The reference
 * run of 2026-12-01, before those readings and with a suite of 67 clauses, took 7.5 s and 0.1 s.
 *
 * @param servers          selections to prepare (entries, baselines, the calibration server)
 * @param entryCells       throughput or rate cells of entries and baselines
 * @param calibrationCells the calibration server's cells
 * @param ladderCells      ladder cells (added after the warm-up, not warmed up themselves)
 * @param restartSeconds   the fresh processes of --forks: each server started again and warmed up on each endpoint
 * @param extraVisits      the most visits the extra rounds may make (they stop sooner when no cell is too wide)
 */
public record VisitBudget(int servers, int entryCells, int calibrationCells, int ladderCells, int rounds,
    double prepareSeconds, double warmupSeconds, double restartSeconds, double roundsSeconds, int extraVisits,
    double extraSeconds, long extraTimeLimitMinutes) {
  /** Seconds to prepare one selection with warm build caches, measured in the reference run. */
  static final double PREPARE_SECONDS = 10.7;
  /** Seconds a warm-up or a visit costs beyond its load, measured in the reference run. */
  static final double OVERHEAD_SECONDS = 0.3;
  /**
   * Warm-up runs a cell makes on average since 2026-12-06 14:00 UTC, when the warm-up began to go on
   * while the server gets faster ({@link WarmMaximum#warm}): two at the least, a JIT runtime's cells 3
   * to 5; the reference run of 2026-12-06 16:38 UTC made 140 over 53 cells. The run above made one.
   */
  static final double WARMUP_RUNS = 2.6;
  /**
   * Seconds to stop a server and start it afresh for its next process (--forks), its answers checked, before
   * its warm-up: the two runs of 2026-12-05 17:28 and 18:12 restarted 21 servers in about 2.5 minutes, 57
   * warm-up runs of 2 s among them; the run of 2026-12-06 23:08, warming up by the rule, 18 servers in 4.7
   * minutes, 133 runs over 53 endpoints (5.2 estimated).
   */
  static final double RESTART_SECONDS = 1.0;

  /** One server of the run as the budget needs it. */
  public record Server(String id, boolean baseline, String standsOn, boolean calibration) {}

  /**
   * The budget of a run over {@code servers}, every one prepared with {@code prepare} of them
   * still to prepare (0 once they are). Ladder cells need oha ({@code ladder}).
   */
  public static VisitBudget of(List<Server> servers, int prepare, boolean ladder, RunConfig config) {
    int rates = Math.max(1, config.rates().size());
    int entryCells = 0;
    int calibrationCells = 0;
    for (Server server : servers) {
      if (server.calibration()) {
        // nginx has no JSON validation: its cells are the three GET endpoints.
        calibrationCells += (int) config.endpoints().stream().filter(e -> e != Endpoint.VALIDATE).count() * rates;
      } else {
        entryCells += config.endpointsOf(ladder && laddered(server, servers)).size() * rates;
      }
    }
    int ladderCells = 0;
    if (ladder && config.ladderShare() > 0) {
      for (Server base : servers) {
        if (!base.baseline() || base.calibration()) {
          continue;
        }
        long rungs = 1 + servers.stream().filter(s -> s.standsOn().equals(base.id())).count();
        if (rungs >= 2) {
          ladderCells += (int) rungs * config.ladderEndpoints().size();
        }
      }
    }
    double prepareSeconds = prepare * PREPARE_SECONDS;
    double warmupSeconds = config.warmup().isZero() ? 0
        : (entryCells + calibrationCells) * (WARMUP_RUNS * config.warmup().toMillis() / 1e3 + OVERHEAD_SECONDS);
    // a later process warms up on each endpoint once, under the same rule, whatever the rates on it
    double restartSeconds = config.forks() <= 1 ? 0 : (config.forks() - 1)
        * (servers.size() * RESTART_SECONDS + (entryCells + calibrationCells) / (double) rates
        * (config.warmup().isZero() ? 0 : WARMUP_RUNS * config.warmup().toMillis() / 1e3 + OVERHEAD_SECONDS));
    double visitSeconds = (config.rewarm().toMillis() + config.duration().toMillis()) / 1e3 + OVERHEAD_SECONDS;
    double ladderVisitSeconds = visitSeconds + (config.ladderDuration().toMillis() - config.duration().toMillis()) / 1e3;
    int cells = entryCells + calibrationCells + ladderCells;
    double roundSeconds = (entryCells + calibrationCells) * visitSeconds + ladderCells * ladderVisitSeconds;
    // Fewer rounds than an interval needs: no cell has one to narrow, so there are no extra rounds.
    boolean intervals = config.rounds() >= dev.fairbench.orchestrator.stats.MedianInterval.minimumRuns(
        dev.fairbench.orchestrator.report.Quality.THRESHOLDS.confidence());
    int extraVisits = config.extraRounds() == 0 || !intervals ? 0
        : Math.min(ExtraRounds.visitBudget(config.rounds(), cells), config.extraRounds() * cells);
    return new VisitBudget(servers.size(), entryCells, calibrationCells, ladderCells, config.rounds(), prepareSeconds,
        warmupSeconds, restartSeconds, config.rounds() * roundSeconds, extraVisits,
        extraVisits * (roundSeconds / Math.max(1, cells)), config.extraTimeLimit().toMinutes());
  }

  public int cells() {
    return entryCells + calibrationCells + ladderCells;
  }

  /** Cells × rounds: the counted visits; repeats of disturbed visits come on top. */
  public int visits() {
    return cells() * rounds;
  }

  /** Without the extra rounds, which only a run too wide after its rounds makes. */
  public double totalSeconds() {
    return prepareSeconds + warmupSeconds + restartSeconds + roundsSeconds;
  }

  /**
   * "81 cells (64 of entries and baselines, 3 of the calibration, 14 ladder) × 9 rounds = 729
   * visits, plus one repeat of each visit found disturbed; about 24 min (prepare 2.5 min, warm-up
   * 2.3 min, rounds 19.4 min)".
   */
  public String describe() {
    StringBuilder parts = new StringBuilder().append(entryCells).append(" of entries and baselines");
    if (calibrationCells > 0) {
      parts.append(", ").append(calibrationCells).append(" of the calibration");
    }
    if (ladderCells > 0) {
      parts.append(", ").append(ladderCells).append(" ladder");
    }
    StringBuilder times = new StringBuilder();
    if (prepareSeconds > 0) {
      times.append("prepare ").append(minutes(prepareSeconds)).append(", ");
    }
    times.append("warm-up ").append(minutes(warmupSeconds));
    if (restartSeconds > 0) {
      times.append(", fresh processes ").append(minutes(restartSeconds));
    }
    times.append(", rounds ").append(minutes(roundsSeconds));
    String extra = extraVisits == 0 ? "" : String.format(Locale.ROOT,
        ", and up to %d visits (%s) of extra rounds for the cells still too wide%s", extraVisits, minutes(extraSeconds),
        extraTimeLimitMinutes == 0 ? "" : ", none begun that would end the run past " + extraTimeLimitMinutes + " min");
    return String.format(Locale.ROOT, "%d cells (%s) × %d rounds = %d visits, plus one repeat of each visit found "
        + "disturbed%s; about %.0f min (%s)%s", cells(), parts, rounds, visits(),
        extraTimeLimitMinutes == 0 ? "" : " while the time limit allows", totalSeconds() / 60, times, extra);
  }

  /** A baseline with a framework standing on it among {@code servers}: it has ladder cells. */
  static boolean laddered(Server server, List<Server> servers) {
    return server.baseline() && !server.calibration()
        && servers.stream().anyMatch(s -> s.standsOn().equals(server.id()));
  }

  private static String minutes(double seconds) {
    return String.format(Locale.ROOT, "%.1f min", seconds / 60);
  }
}
