package dev.fairbench.orchestrator.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The distribution-free confidence interval of a median from order statistics.
 *
 * <p>Each of n independent runs of a continuous quantity falls below its true median with
 * probability 1/2, so the number B of runs below the median is binomial(n, 1/2). With the runs
 * sorted, x<sub>(k)</sub> exceeds the median exactly when B &lt; k, and x<sub>(n-k+1)</sub> falls
 * below it exactly when n - B &lt; k; so [x<sub>(k)</sub>, x<sub>(n-k+1)</sub>] (1-based) misses
 * the median with probability 2·P(B &lt; k). The largest k with P(B &lt; k) &le; (1 - confidence)/2
 * gives the narrowest interval that still reaches the confidence; its exact coverage is
 * {@link #coverage(int, int)}, at least the confidence asked for (the binomial is discrete, so
 * usually more). No distribution is assumed — neither normal nor symmetric — and k - 1 runs on
 * each side can be arbitrarily wrong without moving the interval's bounds past the k-th value.
 *
 * <p>There is deliberately no bootstrap: with the few runs a cell has (often 5 to 15) a bootstrap
 * percentile interval of the median only ever picks among the same order statistics, with a
 * coverage that is approximate, random (it depends on the resampling seed) and too optimistic for
 * small n. The order-statistic interval is exact, deterministic and says plainly when n is too
 * small ({@link #minimumRuns(double)}).
 */
public final class MedianInterval {
  /** Slack for comparing binomial tails computed in floating point with (1 - confidence)/2. */
  private static final double TOLERANCE = 1e-12;

  private MedianInterval() {}

  /**
   * The interval [x<sub>(k)</sub>, x<sub>(n-k+1)</sub>] of the sorted values, or empty when there
   * are too few values for the confidence (for 0.95: fewer than 6).
   *
   * @param confidence the wanted coverage, strictly between 0 and 1 (e.g. 0.95)
   */
  public static Optional<Interval> of(List<Double> values, double confidence) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    for (double v : sorted) {
      if (Double.isNaN(v)) {
        throw new IllegalArgumentException("a value is NaN");
      }
    }
    Arrays.sort(sorted);
    int n = sorted.length;
    int k = orderStatistic(n, confidence);
    if (k == 0) {
      return Optional.empty();
    }
    return Optional.of(new Interval(sorted[k - 1], sorted[n - k]));
  }

  /**
   * The interval of {@link #of(List, double)} moved towards the next pair of ranks in, [x<sub>(k+1)</sub>,
   * x<sub>(n-k)</sub>], by the weight that brings its coverage to the confidence asked for (Hettmansperger and
   * Sheather, "Confidence intervals based on interpolated order statistics", Statistics &amp; Probability Letters
   * 4, 1986): with I = (γ<sub>k</sub> - confidence) / (γ<sub>k</sub> - γ<sub>k+1</sub>), the coverages of the
   * two pairs, the weight is λ = (n - k)·I / (k + (n - 2k)·I). The binomial's steps make the outer pair cover
   * more than asked — 98.8% at 11 runs, 97.9% at 10 — so without this a run or two more leave a cell's interval
   * at the same ranks, its second-lowest and second-highest runs, which more runs only spread further apart.
   * The weight is exact for a double-exponential distribution and near it for others (the paper's, and
   * {@code MedianIntervalTest}'s simulations: normal, lognormal, slow outliers); the bounds stay between the
   * outer and inner pairs, so k - 1 outliers on a side still do not move them. Empty below
   * {@link #minimumRuns(double)}, as there.
   */
  public static Optional<Interval> interpolated(List<Double> values, double confidence) {
    Optional<Interval> outer = of(values, confidence);
    int n = values.size();
    int k = orderStatistic(n, confidence);
    if (outer.isEmpty() || 2 * (k + 1) > n + 1) {
      return outer;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double wide = coverage(n, k);
    double narrow = coverage(n, k + 1);
    double share = (wide - confidence) / (wide - narrow);
    double weight = (n - k) * share / (k + (n - 2 * k) * share);
    return Optional.of(new Interval((1 - weight) * sorted[k - 1] + weight * sorted[k],
        (1 - weight) * sorted[n - k] + weight * sorted[n - k - 1]));
  }

  /**
   * The largest k such that P(binomial(n, 1/2) &lt; k) &le; (1 - confidence)/2, the 1-based rank of
   * the lower bound; 0 when even k = 1 is too wide a risk (n too small for the confidence).
   */
  public static int orderStatistic(int n, double confidence) {
    requireConfidence(confidence);
    if (n < 0) {
      throw new IllegalArgumentException("negative number of runs: " + n);
    }
    double risk = (1 - confidence) / 2;
    int k = 0;
    double below = 0; // P(B < k + 1) as k grows: P(B <= k)
    // k cannot pass n/2 rounded up: beyond it the bounds would cross.
    while (k < (n + 1) / 2) {
      below += binomialHalf(n, k);
      if (below > risk + TOLERANCE) {
        break;
      }
      k++;
    }
    return k;
  }

  /**
   * The exact coverage of [x<sub>(k)</sub>, x<sub>(n-k+1)</sub>] for the median of a continuous
   * distribution: 1 - 2·P(binomial(n, 1/2) &lt; k).
   */
  public static double coverage(int n, int k) {
    if (k < 1 || 2 * k > n + 1) {
      throw new IllegalArgumentException("rank " + k + " is not the lower bound of an interval of " + n + " values");
    }
    double below = 0;
    for (int i = 0; i < k; i++) {
      below += binomialHalf(n, i);
    }
    return 1 - 2 * below;
  }

  /** The fewest runs for which an interval at this confidence exists: 6 for 0.95, 8 for 0.99. */
  public static int minimumRuns(double confidence) {
    requireConfidence(confidence);
    int n = 1;
    while (orderStatistic(n, confidence) == 0) {
      n++;
    }
    return n;
  }

  /**
   * How many runs on each side may be arbitrarily far off (outliers) while the interval's bounds
   * stay among the other runs: k - 1. From 9 runs at 0.95 that is one on each side. 0 also when
   * there is no interval at all; {@link #minimumRuns(double)} tells the two apart.
   */
  public static int outliersSurvivedPerSide(int n, double confidence) {
    return Math.max(orderStatistic(n, confidence) - 1, 0);
  }

  /** P(binomial(n, 1/2) = i), in logarithms so that large n neither overflows nor underflows. */
  static double binomialHalf(int n, int i) {
    double logChoose = 0;
    for (int j = 1; j <= i; j++) {
      logChoose += Math.log((double) (n - i + j) / j);
    }
    return Math.exp(logChoose - n * Math.log(2));
  }

  static void requireConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must lie strictly between 0 and 1: " + confidence);
    }
  }
}
