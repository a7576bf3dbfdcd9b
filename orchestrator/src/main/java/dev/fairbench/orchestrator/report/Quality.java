package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.stats.Interval;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one place that judges a cell: every flag, every doubt a reviewer reads, and whether the cell
 * is trustworthy, from one table of thresholds. The pipeline stores the flags in the results; the
 * reports print the doubts next to the numbers, never instead of them.
 */
public final class Quality {
  /**
   * Every threshold.
   *
   * @param intervalHalfWidth    a confidence interval within ± this share of its median is tight enough
   * @param confidence           of every interval
   * @param invalidErrorShare    errors above this share of requests make a throughput cell invalid
   * @param clientCpu            the client at or above this share of its cores ...
   * @param serverShare          ... while the server is below this share of its CPUs: client-bound
   * @param ceilingShare         or req/s at this share of the calibration's ceiling, server below its share
   * @param littlesLawLow        connections ÷ mean latency ÷ req/s below this ...
   * @param littlesLawHigh       ... or above this is a doubt
   * @param nearMemoryLimit      peak RSS above this share of the memory limit
   * @param rateAchieved         a rate cell achieving less than this share of its target is saturated
   * @param rateSuccess          a rate cell whose success rate (ok ÷ scheduled) is below this is invalid
   * @param leakSlopeMibPerMinute a constant-rate cell whose memory grew faster than this after the warm-up ...
   * @param leakGrowthShare      ... and by more than this share of its memory at the window's start ...
   * @param leakMinWindowSeconds ... over a window at least this long is suspected of a leak (docs/ORCHESTRATOR.md, "Soak")
   * @param answerSize           a throughput run whose bytes per answer differ from the checked answer's by more
   *                             than this share (beyond the answers in flight at its end) did not get that answer
   * @param cpuFloor             a cell whose CPU-µs/request is below this share of the calibration server's on the
   *                             same endpoint did not have all its work counted
   */
  public record Thresholds(
      double intervalHalfWidth,
      double confidence,
      double invalidErrorShare,
      double clientCpu,
      double serverShare,
      double ceilingShare,
      double littlesLawLow,
      double littlesLawHigh,
      double nearMemoryLimit,
      double rateAchieved,
      double rateSuccess,
      double leakSlopeMibPerMinute,
      double leakGrowthShare,
      double leakMinWindowSeconds,
      double answerSize,
      double cpuFloor) {}

  // The CPU floor: nginx answering from a `return` directive is the least work an HTTP server does here;
  // the cheapest entries measured cost 0.92–1.03× its CPU per request (every committed run), so
  // under half of it means CPU time went uncounted, not a faster server.
  // The leak doubt: 1 MiB/min is the pace at which the 512 MiB limit is gone within a working day (8.5 h),
  // and at 80% of a few thousand req/s it is a few bytes kept per request; 10% of the starting memory
  // keeps a large runtime's slow heap drift (a JVM sizing its heap up by a few MiB) from being called a
  // leak. Under 60 s after the warm-up a GC cycle or two can look like growth: short rate cells are not judged.
  public static final Thresholds THRESHOLDS =
      new Thresholds(0.05, 0.95, 0.001, 0.90, 0.90, 0.90, 0.8, 1.25, 0.9, 0.95, 0.999, 1.0, 0.10, 60, 0.02, 0.5);

  private Quality() {}

  /**
   * What the pipeline needs to know about a run to judge its cells.
   *
   * @param concurrency requests in flight at once: connections × pipeline depth
   */
  public record Context(int clientThreads, int serverCpus, long memoryLimitBytes, double clientCeiling,
      boolean nonConformant, int concurrency) {}

  /** The flags of a cell whose stats are derived. */
  public static List<Flag> flags(CellResult cell, Context context) {
    return flags(cell, context, THRESHOLDS);
  }

  /** The flags with other thresholds (tests: a leak window of seconds rather than a minute). */
  public static List<Flag> flags(CellResult cell, Context context, Thresholds t) {
    CellStats s = cell.stats();
    if (s == null) {
      return List.of();
    }
    Set<Flag> flags = EnumSet.noneOf(Flag.class);
    if (clientBound(s, context)) {
      flags.add(Flag.CLIENT_BOUND);
    }
    if (cell.kind().constantRate()) {
      if (s.rate() != null && s.rate().successRate() < t.rateSuccess()) {
        flags.add(Flag.INVALID);
      }
      if (s.rate() != null && s.medianRequestsPerSecond() < t.rateAchieved() * s.rate().targetRate()) {
        flags.add(Flag.SATURATED);
      }
    } else if (s.errorShare() > t.invalidErrorShare()) {
      flags.add(Flag.INVALID);
    }
    WorkerObservation workers = cell.workers();
    if (workers != null && !workers.matches()) {
      flags.add(Flag.WORKERS_MISMATCH);
    }
    Interval headline = headlineInterval(cell, flags.contains(Flag.CLIENT_BOUND));
    if (headline == null) {
      flags.add(Flag.FEW_RUNS);
    } else if (headline.halfWidthShareOf(headlineValue(cell, flags.contains(Flag.CLIENT_BOUND))) > t.intervalHalfWidth()) {
      flags.add(Flag.WIDE_INTERVAL);
    }
    if (cell.kind() == CellKind.THROUGHPUT && !Double.isNaN(s.littlesLaw())
        && (s.littlesLaw() < t.littlesLawLow() || s.littlesLaw() > t.littlesLawHigh())) {
      flags.add(Flag.LITTLES_LAW);
    }
    if (context.memoryLimitBytes() > 0 && s.peakRssBytes() > t.nearMemoryLimit() * context.memoryLimitBytes()) {
      flags.add(Flag.NEAR_MEMORY_LIMIT);
    }
    if (context.nonConformant()) {
      flags.add(Flag.NON_CONFORMANT);
    }
    if (cell.kind().constantRate() && leaks(s.rss(), t)) {
      flags.add(Flag.LEAK);
    }
    if (answersDiffer(cell, context.concurrency(), t)) {
      flags.add(Flag.ANSWERS_DIFFER);
    }
    if (s.toCalibration() != null && s.toCalibration().cpuMicrosPerRequest() < t.cpuFloor()) {
      flags.add(Flag.CPU_BELOW_FLOOR);
    }
    return List.copyOf(flags);
  }

  /**
   * A counted run whose bytes per answer are not the checked answer's size, counted as its load client
   * counts: wrk (throughput) the whole answer, oha (rate, ladder) the body. wrk counts every byte it
   * read, also of the answers still in flight when it stopped (at most one per request in flight:
   * {@code concurrency}), so a run may read up to that many answers more; never fewer. oha waits for
   * the answers in flight and counts only whole ones.
   */
  static boolean answersDiffer(CellResult cell, int concurrency, Thresholds t) {
    if (cell.answerBytes() == null) {
      return false;
    }
    double expected = cell.answerBytes();
    for (RunRecord run : cell.countedRuns()) {
      if (run.requests() <= 0) {
        continue;
      }
      double perAnswer = (double) run.bytes() / run.requests();
      double inFlight = cell.kind().constantRate() ? 0 : (double) Math.max(concurrency, 1) / run.requests();
      if (perAnswer < expected * (1 - t.answerSize()) || perAnswer > expected * (1 + t.answerSize() + inFlight)) {
        return true;
      }
    }
    return false;
  }

  /** The counted run whose bytes per answer lie furthest from the checked answer's size. */
  private static RunRecord furthestFromTheAnswer(CellResult cell) {
    return cell.countedRuns().stream().filter(r -> r.requests() > 0)
        .max(java.util.Comparator.comparingDouble(r -> Math.abs(Math.log((double) r.bytes() / r.requests() / cell.answerBytes()))))
        .orElseThrow();
  }

  /** Kept growing: a steep enough slope, a large enough growth, over a long enough window. */
  static boolean leaks(CellStats.RssTrend rss, Thresholds t) {
    return rss != null && rss.windowSeconds() >= t.leakMinWindowSeconds()
        && rss.slopeMibPerMinute() > t.leakSlopeMibPerMinute() && rss.growthShare() > t.leakGrowthShare();
  }

  /** Whether a cell's RSS slope means anything: a constant-rate cell with a window long enough to judge. */
  public static boolean hasRssSlope(CellResult cell) {
    CellStats s = cell.stats();
    return cell.kind().constantRate() && s != null && s.rss() != null
        && s.rss().windowSeconds() >= THRESHOLDS.leakMinWindowSeconds();
  }

  /**
   * The load client, not the server, set the pace: the client at its CPU wall (or the throughput at
   * the calibration's ceiling) while the server had CPU to spare. Decided from both sides.
   */
  static boolean clientBound(CellStats s, Context context) {
    Thresholds t = THRESHOLDS;
    boolean serverHasRoom = s.serverCpuUtilisation() < t.serverShare();
    boolean clientAtWall = s.clientCpuUtilisation() >= t.clientCpu() * context.clientThreads();
    boolean atCeiling = context.clientCeiling() > 0 && s.medianRequestsPerSecond() >= t.ceilingShare() * context.clientCeiling();
    return serverHasRoom && (clientAtWall || atCeiling);
  }

  /**
   * Trustworthy: the headline figure's 95% interval is within ±5% of its median, and the cell is
   * neither invalid, nor saturated, nor workers-mismatched, nor non-conformant, and its answers under
   * load were the size of the answer checked. A client-bound cell's
   * headline is CPU-µs/request (its req/s is the client's); it is never trustworthy on req/s.
   */
  public static boolean trustworthy(CellResult cell) {
    if (!cell.measured()) {
      return false;
    }
    return cell.flags().stream().noneMatch(TRUST_BREAKERS::contains);
  }

  /** The flags that make a cell untrustworthy; the others (client-bound, Little's law, memory, leak) are doubts. */
  public static final Set<Flag> TRUST_BREAKERS = java.util.Collections.unmodifiableSet(EnumSet.of(Flag.INVALID,
      Flag.WORKERS_MISMATCH, Flag.WIDE_INTERVAL, Flag.FEW_RUNS, Flag.SATURATED, Flag.NON_CONFORMANT, Flag.ANSWERS_DIFFER,
      Flag.CPU_BELOW_FLOOR));

  /** "req/s" or "CPU-µs/req": what a reviewer should read first for this cell. A rate cell's is CPU-µs/req. */
  public static String headline(CellResult cell) {
    return headlineIsCpuPerRequest(cell) ? "CPU-µs/req" : "req/s";
  }

  private static boolean headlineIsCpuPerRequest(CellResult cell) {
    // At a fixed rate every server does the same amount of work: its CPU cost per request is the figure.
    return cell.kind().constantRate() || cell.flags().contains(Flag.CLIENT_BOUND);
  }

  private static Interval headlineInterval(CellResult cell, boolean clientBound) {
    CellStats s = cell.stats();
    return cell.kind().constantRate() || clientBound ? s.cpuInterval() : s.requestsPerSecondInterval();
  }

  private static double headlineValue(CellResult cell, boolean clientBound) {
    CellStats s = cell.stats();
    return cell.kind().constantRate() || clientBound ? s.cpuMicrosPerRequest() : s.medianRequestsPerSecond();
  }

  /** One reason to doubt a cell: its flag (null for "not measured") and the sentence a reviewer reads. */
  public record Doubt(Flag flag, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** Every doubt of a cell, in words, from its flags and stats. Empty for a trustworthy cell without doubt. */
  public static List<Doubt> doubts(CellResult cell, Environment environment) {
    List<Doubt> doubts = new ArrayList<>();
    if (!cell.measured()) {
      doubts.add(new Doubt(null, "not measured: " + (cell.reason().isBlank() ? cell.status().wireName() : cell.reason())));
      return doubts;
    }
    CellStats s = cell.stats();
    for (Flag flag : cell.flags()) {
      doubts.add(new Doubt(flag, switch (flag) {
        case CLIENT_BOUND -> String.format(Locale.ROOT,
            "client-bound: the load client used %.0f%% of a core while the server used %.0f%% of its CPUs, so req/s "
                + "shows the client's limit; read CPU-µs/request instead", s.clientCpuUtilisation() * 100,
            s.serverCpuUtilisation() * 100);
        case INVALID -> cell.kind().constantRate() && s.rate() != null
            ? String.format(Locale.ROOT, "invalid: success %.3f%% of the scheduled requests, below %.1f%%",
                s.rate().successRate() * 100, THRESHOLDS.rateSuccess() * 100)
            : cell.countedRuns().stream().allMatch(r -> r.requests() == 0)
            ? String.format(Locale.ROOT, "invalid: no request was answered in any of the %d counted run(s)", s.runs())
            : String.format(Locale.ROOT, "invalid: %.3f%% of the requests got a non-2xx answer or a socket error, over %.1f%%",
                s.errorShare() * 100, THRESHOLDS.invalidErrorShare() * 100);
        case WORKERS_MISMATCH -> String.format(Locale.ROOT, "workers: %d requested, %d %s seen busy under load",
            cell.workers().requested(), cell.workers().observed(),
            "processes".equals(cell.workers().model()) ? "processes" : "threads");
        case WIDE_INTERVAL -> Double.isFinite(halfWidth(cell))
            ? String.format(Locale.ROOT, "wide interval: the 95%% confidence interval of %s is ±%.1f%% of its median, over ±%.0f%%",
                headline(cell), halfWidth(cell) * 100, THRESHOLDS.intervalHalfWidth() * 100)
            : String.format(Locale.ROOT, "wide interval: the 95%% confidence interval of %s reaches away from a median of 0, "
                + "so it is no share of it", headline(cell));
        case FEW_RUNS -> {
          long withRequests = cell.countedRuns().stream().filter(r -> r.requests() > 0).count();
          yield headlineIsCpuPerRequest(cell) && withRequests < s.runs()
              ? String.format(Locale.ROOT, "few runs: %d of the %d counted run(s) made a request to count CPU time "
                  + "against; a distribution-free 95%% interval of the median needs at least 6", withRequests, s.runs())
              : String.format(Locale.ROOT,
                  "few runs: %d counted run(s); a distribution-free 95%% interval of the median needs at least 6", s.runs());
        }
        case LITTLES_LAW -> String.format(Locale.ROOT,
            "Little's law: connections ÷ mean latency is %.2f× the measured req/s; the client's count or timing is suspect",
            s.littlesLaw());
        case NEAR_MEMORY_LIMIT -> String.format(Locale.ROOT, "memory: peak RSS %d MiB is within 10%% of the limit",
            s.peakRssBytes() >> 20);
        case SATURATED -> String.format(Locale.ROOT, "saturated: achieved %,.0f of %,.0f req/s asked",
            s.medianRequestsPerSecond(), s.rate() == null ? 0 : s.rate().targetRate());
        case NON_CONFORMANT -> "non-conformant: measured although it FAILs conformance (run --accept-fail); "
            + "not comparable with conformant entries";
        case LEAK -> s.rss() == null ? "leak: the memory kept growing" : String.format(Locale.ROOT,
            "leak: the memory grew %.1f MiB/min (Theil–Sen) over the %.0f s after each run's first %.0f s, "
                + "%.0f%% of the %d MiB it started the window at; a leak is suspected",
            s.rss().slopeMibPerMinute(), s.rss().windowSeconds(), s.rss().warmupSeconds(), s.rss().growthShare() * 100,
            s.rss().startBytes() >> 20);
        case ANSWERS_DIFFER -> {
          RunRecord run = furthestFromTheAnswer(cell);
          String counted = cell.kind().constantRate() ? "body bytes" : "bytes";
          yield String.format(Locale.ROOT, "answers differ: round %d's run read %.1f %s an answer, the answer to the "
              + "load client's request checked before the runs is %d %s: under load the server did not send what "
              + "was checked, so its figures are not of the same work", run.round(), (double) run.bytes() / run.requests(),
              counted, cell.answerBytes(), counted);
        }
        case CPU_BELOW_FLOOR -> String.format(Locale.ROOT, "CPU below the floor: %.2f CPU-µs a request, %.2f× the "
            + "calibration server's, under the %.1f× that the least work of an HTTP server costs here: part of its work "
            + "ran where its CPU time is not counted", s.cpuMicrosPerRequest(), s.toCalibration().cpuMicrosPerRequest(),
            THRESHOLDS.cpuFloor());
      }));
    }
    return doubts;
  }

  /** The headline figure's 95% interval, its wider side as a share of the figure; NaN without one. */
  public static double halfWidth(CellResult cell) {
    boolean clientBound = cell.flags().contains(Flag.CLIENT_BOUND);
    Interval interval = headlineInterval(cell, clientBound);
    return interval == null ? Double.NaN : interval.halfWidthShareOf(headlineValue(cell, clientBound));
  }
}
