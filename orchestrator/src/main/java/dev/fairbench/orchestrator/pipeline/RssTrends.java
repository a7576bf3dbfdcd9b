package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.results.CellStats.RssTrend;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.RssSample;
import dev.fairbench.orchestrator.stats.Statistics;
import dev.fairbench.orchestrator.stats.TheilSen;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The memory trend of a constant-rate cell from its runs' once-a-second samples: per run, the
 * Theil–Sen slope over the part after the warm-up, then the median over runs.
 *
 * <p>The warm-up part is the first {@link #WARMUP_SHARE} of each run, by time. Garbage-collected
 * runtimes (the JVM, Go, V8, CPython's arenas) grow towards their heap target first, and how long
 * that takes depends on the allocation rate, so a fixed number of seconds would be too long for a
 * short run or too short for a slow ramp. At a steady rate a heap settles once a few collections have
 * sized it, which the first third of a 10-minute soak (200 s) leaves ample room for, while two thirds
 * of the run remain to take the slope over; a run of 90 s keeps the 60 s window the leak doubt needs. The slope is Theil–Sen's (the median of the pairwise slopes), so a GC cycle's
 * saw-tooth or one large allocation does not tilt it the way it would a least-squares line.
 */
final class RssTrends {
  /** The share of each run, from its start, left out as warm-up. */
  static final double WARMUP_SHARE = 1.0 / 3;
  /** Fewer samples after the warm-up than this give no slope. */
  static final int MIN_SAMPLES = 5;

  private RssTrends() {}

  /** The cell's trend; null when no run has enough samples. */
  static RssTrend of(List<RunRecord> counted) {
    List<RssTrend> perRun = new ArrayList<>();
    for (RunRecord run : counted) {
      ofRun(run.rssSamples()).ifPresent(perRun::add);
    }
    if (perRun.isEmpty()) {
      return null;
    }
    return new RssTrend(median(perRun, RssTrend::slopeMibPerMinute), median(perRun, RssTrend::windowSeconds),
        median(perRun, RssTrend::warmupSeconds), Math.round(median(perRun, t -> (double) t.startBytes())),
        median(perRun, RssTrend::growthShare), perRun.size());
  }

  /** One run's trend after its warm-up part; empty with fewer than {@link #MIN_SAMPLES} samples there. */
  static Optional<RssTrend> ofRun(List<RssSample> samples) {
    if (samples.size() < 2) {
      return Optional.empty();
    }
    double first = samples.getFirst().seconds();
    double last = samples.getLast().seconds();
    double warmupEnd = first + (last - first) * WARMUP_SHARE;
    List<RssSample> window = samples.stream().filter(s -> s.seconds() >= warmupEnd).toList();
    if (window.size() < MIN_SAMPLES) {
      return Optional.empty();
    }
    double[] x = window.stream().mapToDouble(RssSample::seconds).toArray();
    double[] y = window.stream().mapToDouble(s -> (double) s.bytes()).toArray();
    TheilSen.Line line = TheilSen.fit(x, y);
    double start = x[0];
    double windowSeconds = x[x.length - 1] - start;
    double startBytes = line.at(start);
    double growth = line.slope() * windowSeconds;
    return Optional.of(new RssTrend(line.slope() * 60 / (1 << 20), windowSeconds, warmupEnd - first,
        Math.round(startBytes), startBytes > 0 ? growth / startBytes : 0, 1));
  }

  private static double median(List<RssTrend> trends, java.util.function.ToDoubleFunction<RssTrend> figure) {
    return Statistics.median(trends.stream().map(t -> figure.applyAsDouble(t)).toList());
  }
}
