package dev.fairbench.orchestrator.stats;

import java.util.Arrays;

/**
 * Many comparisons at once (every entry against a baseline, every endpoint) will turn up some small
 * p-values by chance alone. Benjamini–Hochberg q-values bound the expected share of false
 * discoveries among the comparisons called significant: calling significant every comparison with
 * q &le; 0.05 makes at most 5% of them false on average (for independent or positively dependent
 * tests).
 */
public final class FalseDiscovery {
  private FalseDiscovery() {}

  /**
   * The Benjamini–Hochberg adjusted p-values (q-values), in the order of the input: with the m
   * p-values sorted ascending, q<sub>(i)</sub> = min over j &ge; i of m·p<sub>(j)</sub>/j, capped
   * at 1 (the step-up procedure, monotone in p).
   *
   * @param pValues each between 0 and 1
   */
  public static double[] benjaminiHochbergQValues(double[] pValues) {
    int m = pValues.length;
    for (double p : pValues) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("not a p-value: " + p);
      }
    }
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(pValues[a], pValues[b]));
    double[] q = new double[m];
    double smallestAbove = 1;
    for (int rank = m; rank >= 1; rank--) {
      int index = order[rank - 1];
      smallestAbove = Math.min(smallestAbove, pValues[index] * m / rank);
      q[index] = smallestAbove;
    }
    return q;
  }
}
