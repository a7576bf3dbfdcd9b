package dev.fairbench.orchestrator.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The two-sided Mann–Whitney U test (Wilcoxon rank-sum) of two samples of runs: does one tend to
 * give larger values than the other? It assumes nothing about the shape of the distributions, only
 * that runs are independent, which suits a handful of throughput figures with an occasional
 * outlier.
 *
 * <p>U counts the pairs (a<sub>i</sub>, b<sub>j</sub>) with a<sub>i</sub> &gt; b<sub>j</sub>, a tie
 * counting one half; it runs from 0 to n·m and centres on n·m/2 when both samples come from the same
 * distribution. Without ties and with at most {@value #EXACT_LIMIT} values a side the p-value is
 * exact, from the distribution of U over all C(n+m, n) equally likely splits of the ranks; otherwise
 * it is the normal approximation with the variance corrected for ties and a continuity correction.
 */
public final class MannWhitney {
  /** The largest sample size, on either side, for which the p-value is exact. */
  public static final int EXACT_LIMIT = 50;

  private MannWhitney() {}

  /**
   * @param u the statistic for {@code a}: pairs with a<sub>i</sub> &gt; b<sub>j</sub>, ties counting
   *     one half (the statistic for {@code b} is n·m - u)
   * @param pValue the two-sided p-value, at most 1
   * @param exact whether {@code pValue} is exact rather than the normal approximation
   */
  public record Result(double u, double pValue, boolean exact) {}

  /** The two-sided test of {@code a} against {@code b}; each needs at least one value. */
  public static Result test(List<Double> a, List<Double> b) {
    double[] x = values(a, "a");
    double[] y = values(b, "b");
    int n = x.length;
    int m = y.length;
    double[] pooled = new double[n + m];
    System.arraycopy(x, 0, pooled, 0, n);
    System.arraycopy(y, 0, pooled, n, m);
    int[] order = sortedOrder(pooled);

    // Mid-ranks and the tie groups' sizes, from the pooled values in ascending order.
    double[] rank = new double[n + m];
    double tieSum = 0; // sum of t^3 - t over tie groups
    for (int start = 0; start < order.length;) {
      int end = start;
      while (end + 1 < order.length && pooled[order[end + 1]] == pooled[order[start]]) {
        end++;
      }
      double midRank = (start + end) / 2.0 + 1;
      for (int i = start; i <= end; i++) {
        rank[order[i]] = midRank;
      }
      double t = end - start + 1;
      tieSum += t * t * t - t;
      start = end + 1;
    }
    double rankSumA = 0;
    for (int i = 0; i < n; i++) {
      rankSumA += rank[i];
    }
    double u = rankSumA - n * (n + 1) / 2.0;
    double mean = n * (double) m / 2;

    if (tieSum == 0 && n <= EXACT_LIMIT && m <= EXACT_LIMIT) {
      double[] counts = exactCounts(n, m);
      int tail = (int) Math.round(Math.min(u, n * (double) m - u));
      double below = 0;
      for (int i = 0; i <= tail; i++) {
        below += counts[i];
      }
      return new Result(u, Math.min(1, 2 * below / choose(n + m, n)), true);
    }

    int total = n + m;
    double variance = n * (double) m / 12 * ((total + 1) - tieSum / (total * (double) (total - 1)));
    if (variance <= 0) {
      return new Result(u, 1, false); // every value the same: no evidence of a difference
    }
    double z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
    return new Result(u, Math.min(1, 2 * Normal.upperTail(z)), false);
  }

  /**
   * The smallest two-sided p-value any split of n and m runs can reach, 2 / C(n+m, n) capped at 1:
   * with 3 runs a side 0.1, so no difference can be shown at 5% however clear it is.
   */
  public static double smallestPossiblePValue(int n, int m) {
    if (n < 1 || m < 1) {
      throw new IllegalArgumentException("each sample needs a value: " + n + " and " + m);
    }
    return Math.min(1, 2 / choose(n + m, n));
  }

  /**
   * How many of the C(n+m, n) splits give each value of U, index u from 0 to n·m, for samples
   * without ties. Built by the recurrence N(n, m; u) = N(n-1, m; u-m) + N(n, m-1; u) (is the
   * largest value in the first sample or the second?), additions only so the tails stay precise.
   */
  static double[] exactCounts(int n, int m) {
    // row[i] holds the counts for sizes (i, j) as j goes from 0 to m.
    double[][] row = new double[n + 1][];
    for (int i = 0; i <= n; i++) {
      row[i] = new double[] {1}; // j = 0: U is always 0
    }
    for (int j = 1; j <= m; j++) {
      double[][] next = new double[n + 1][];
      next[0] = new double[] {1};
      for (int i = 1; i <= n; i++) {
        double[] counts = new double[i * j + 1];
        double[] largestInFirst = next[i - 1]; // sizes (i-1, j), shifted by j
        for (int v = 0; v < largestInFirst.length; v++) {
          counts[v + j] += largestInFirst[v];
        }
        double[] largestInSecond = row[i]; // sizes (i, j-1)
        for (int v = 0; v < largestInSecond.length; v++) {
          counts[v] += largestInSecond[v];
        }
        next[i] = counts;
      }
      row = next;
    }
    return row[n];
  }

  /** C(n, k) as a double. */
  static double choose(int n, int k) {
    double c = 1;
    for (int i = 1; i <= k; i++) {
      c = Math.rint(c * (n - k + i) / i); // C(n-k+i, i): an integer at every step
    }
    return c;
  }

  private static double[] values(List<Double> sample, String name) {
    if (sample == null || sample.isEmpty()) {
      throw new IllegalArgumentException("sample " + name + " has no values");
    }
    double[] values = sample.stream().mapToDouble(Double::doubleValue).toArray();
    for (double v : values) {
      if (Double.isNaN(v)) {
        throw new IllegalArgumentException("sample " + name + " has a NaN value");
      }
    }
    return values;
  }

  private static int[] sortedOrder(double[] values) {
    Integer[] boxed = new Integer[values.length];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = i;
    }
    Arrays.sort(boxed, (p, q) -> Double.compare(values[p], values[q]));
    return Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
  }
}
