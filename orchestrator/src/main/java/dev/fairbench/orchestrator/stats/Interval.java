package dev.fairbench.orchestrator.stats;

/**
 * A confidence interval [low, high] in the units of the values it was computed from.
 *
 * @param low the lower bound
 * @param high the upper bound, not below {@code low}
 */
public record Interval(double low, double high) {
  public Interval {
    if (Double.isNaN(low) || Double.isNaN(high) || low > high) {
      throw new IllegalArgumentException("not an interval: [" + low + ", " + high + "]");
    }
  }

  /**
   * The larger distance from {@code centre} to either bound, as a share of |centre|: 0.05 means the
   * interval reaches at most 5% away from the centre. An interval need not be symmetric about its
   * estimate, so the wider side is taken. Infinite (or NaN) for a centre of 0.
   */
  public double halfWidthShareOf(double centre) {
    return Math.max(centre - low, high - centre) / Math.abs(centre);
  }

  /** {@code value} lies within the interval, bounds included. */
  public boolean contains(double value) {
    return low <= value && value <= high;
  }
}
