package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a cell's 95% confidence interval of its median is drawn from its sorted runs
 * ({@code stats.MedianInterval}). Both are built from order statistics; they differ in what they do with the
 * binomial's steps: at 10 or 11 runs the nearest pair of ranks that reaches 95% covers 97.9% or 98.8%, and the
 * next pair in only 89.1% or 93.5%. The pair covers at least 95% whatever the shape of the noise; the
 * interpolation about 95% (94.4–95.3% over the simulations of {@code MedianIntervalTest}).
 */
public enum MedianIntervalKind implements WireName {
  /**
   * [x<sub>(k)</sub>, x<sub>(n-k+1)</sub>] for the largest k that still covers 95%: at least 95%, often more
   * (every run before 2026-12-07 23:22 UTC, and a file that does not say).
   */
  ORDER_STATISTICS("order statistics"),
  /**
   * Between that pair and the next one in, at the weight that brings the coverage to 95% (Hettmansperger and
   * Sheather, 1986): an extra run narrows the interval instead of leaving it at the same ranks.
   */
  INTERPOLATED("interpolated order statistics");

  private final String wireName;

  MedianIntervalKind(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static MedianIntervalKind parse(String value) {
    return WireName.parse(MedianIntervalKind.class, value, "median interval");
  }
}
