package dev.fairbench.orchestrator.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How much one set of runs differs from another, as a ratio with a distribution-free confidence
 * interval: the Hodges–Lehmann estimate of the shift between two samples and its Moses interval,
 * on the logarithm of the values so that the shift is a ratio (throughput and CPU per request vary
 * by factors, not by fixed amounts).
 *
 * <p>With n runs before and m after there are n·m pairwise differences d = log(after<sub>j</sub>) -
 * log(before<sub>i</sub>). Their median estimates the shift. Shifting the after-sample by δ leaves
 * exactly the differences above δ as the Mann–Whitney U of the shifted test, so the sorted
 * differences d<sub>(c)</sub> and d<sub>(n·m+1-c)</sub>, with c the largest count such that P(U &lt;
 * c) &le; (1 - confidence)/2, bound every shift the two-sided test would not reject (Moses 1965;
 * Bauer 1972). P(U &lt; c) is exact up to {@value MannWhitney#EXACT_LIMIT} runs a side and the
 * normal approximation beyond. The interval assumes the two samples differ by a shift on the log
 * scale and that values are continuous (no ties).
 */
public final class ShiftEstimate {
  private static final double TOLERANCE = 1e-12;

  private ShiftEstimate() {}

  /**
   * @param ratio the estimated factor from before to after: 1.10 means after is 10% larger
   * @param ratioInterval the confidence interval of that factor
   */
  public record Change(double ratio, Interval ratioInterval) {}

  /**
   * The ratio after/before of the typical values (the Hodges–Lehmann shift of the logarithms) with
   * its confidence interval; empty when the samples are too small for the confidence (even the
   * most extreme split has a probability above (1 - confidence)/2: for 0.95, 3 against 3 runs, or
   * 2 against 7).
   *
   * @param before the runs of the baseline, each positive
   * @param after the runs compared with it, each positive
   * @param confidence strictly between 0 and 1 (e.g. 0.95)
   */
  public static Optional<Change> ratioOfMedians(List<Double> before, List<Double> after, double confidence) {
    MedianInterval.requireConfidence(confidence);
    double[] x = logs(before, "before");
    double[] y = logs(after, "after");
    int n = x.length;
    int m = y.length;
    int c = criticalCount(n, m, confidence);
    if (c == 0) {
      return Optional.empty();
    }
    double[] differences = new double[n * m];
    int index = 0;
    for (double xi : x) {
      for (double yj : y) {
        differences[index++] = yj - xi;
      }
    }
    Arrays.sort(differences);
    int count = differences.length;
    double median = count % 2 == 1
        ? differences[count / 2]
        : (differences[count / 2 - 1] + differences[count / 2]) / 2;
    Interval interval = new Interval(Math.exp(differences[c - 1]), Math.exp(differences[count - c]));
    return Optional.of(new Change(Math.exp(median), interval));
  }

  /**
   * The largest c such that P(U &lt; c) &le; (1 - confidence)/2 for the Mann–Whitney U of n and m
   * runs without ties, at most (n·m + 1)/2; 0 when no interval reaches the confidence.
   */
  static int criticalCount(int n, int m, double confidence) {
    double risk = (1 - confidence) / 2;
    int pairs = n * m;
    int limit = (pairs + 1) / 2;
    int c = 0;
    if (n <= MannWhitney.EXACT_LIMIT && m <= MannWhitney.EXACT_LIMIT) {
      double[] counts = MannWhitney.exactCounts(n, m);
      double total = MannWhitney.choose(n + m, n);
      double below = 0;
      while (c < limit) {
        below += counts[c] / total; // P(U <= c) = P(U < c + 1)
        if (below > risk + TOLERANCE) {
          break;
        }
        c++;
      }
      return c;
    }
    double mean = pairs / 2.0;
    double sd = Math.sqrt(pairs * (n + m + 1) / 12.0);
    // P(U < c) = P(U <= c - 1) ~ Phi((c - 1 + 0.5 - mean) / sd), with continuity correction.
    while (c < limit && Normal.cdf((c + 0.5 - mean) / sd) <= risk + TOLERANCE) {
      c++;
    }
    return c;
  }

  private static double[] logs(List<Double> sample, String name) {
    if (sample == null || sample.isEmpty()) {
      throw new IllegalArgumentException("the " + name + " sample has no values");
    }
    double[] logs = new double[sample.size()];
    for (int i = 0; i < logs.length; i++) {
      double v = sample.get(i);
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("the " + name + " sample has a value that is not a positive number: " + v);
      }
      logs[i] = Math.log(v);
    }
    return logs;
  }
}
