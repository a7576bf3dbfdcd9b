package dev.fairbench.orchestrator.stats;

import java.util.Arrays;

/**
 * The Theil–Sen line through points: its slope is the median of the slopes between every pair of
 * points, its intercept the median of y − slope·x. Up to 29% of the points can be anywhere (a GC
 * pause, a one-off allocation) without moving the line much, unlike least squares.
 */
public final class TheilSen {
  /** Above this many points the line is fitted on this many spread evenly over them: O(n²) pairs. */
  static final int MAX_POINTS = 1200;

  private TheilSen() {}

  /** y ≈ intercept + slope·x. */
  public record Line(double slope, double intercept) {
    public double at(double x) {
      return intercept + slope * x;
    }
  }

  /**
   * @param x strictly usable abscissae (pairs with equal x are skipped)
   * @throws IllegalArgumentException with fewer than 2 points, or x and y of different lengths
   */
  public static Line fit(double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
    }
    if (x.length > MAX_POINTS) {
      double[] xs = new double[MAX_POINTS];
      double[] ys = new double[MAX_POINTS];
      for (int i = 0; i < MAX_POINTS; i++) {
        int j = (int) Math.round((double) i * (x.length - 1) / (MAX_POINTS - 1));
        xs[i] = x[j];
        ys[i] = y[j];
      }
      x = xs;
      y = ys;
    }
    int n = x.length;
    double[] slopes = new double[n * (n - 1) / 2];
    int count = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        if (x[j] != x[i]) {
          slopes[count++] = (y[j] - y[i]) / (x[j] - x[i]);
        }
      }
    }
    if (count == 0) {
      throw new IllegalArgumentException("a line needs at least 2 points with different x, got " + n);
    }
    double slope = median(Arrays.copyOf(slopes, count));
    double[] residuals = new double[n];
    for (int i = 0; i < n; i++) {
      residuals[i] = y[i] - slope * x[i];
    }
    return new Line(slope, median(residuals));
  }

  private static double median(double[] values) {
    Arrays.sort(values);
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }
}
