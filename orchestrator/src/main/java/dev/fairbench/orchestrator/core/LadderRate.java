package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * How a ladder's common rate follows from its slowest rung's maximum. A request's CPU cost depends on
 * the rate it is served at, so two runs' ladder cells are one measure only when they ran at one rate;
 * the maximum that the share is taken of moves with the hour and the machine.
 */
public enum LadderRate implements WireName {
  /** The share of the slowest rung's maximum itself: each run its own rate (every run before 2026-12-05 14:00 UTC). */
  EXACT("exact"),
  /**
   * The share rounded down to a round rate, {@link #STEPS} × a power of ten: runs whose maxima differ by a
   * few percent, or a fifth, mostly land on the same rate, and the rungs run at 30–50% of the slowest maximum
   * instead of 50%.
   */
  ROUND("round");

  /** A round rate is one of these times a power of ten; each step is at most 5/3 of the one below. */
  public static final List<Double> STEPS = List.of(1.0, 1.5, 2.0, 3.0, 5.0, 7.0);

  private final String wireName;

  LadderRate(String wireName) {
    this.wireName = wireName;
  }

  /** The rate every rung runs at: {@code share} of {@code slowestMaximum}, rounded down if this rule says so. */
  public double of(double share, double slowestMaximum) {
    double rate = share * slowestMaximum;
    return this == EXACT ? rate : roundDown(rate);
  }

  /** The largest round rate at or below {@code rate}; 0 below 1 req/s (no ladder at all). */
  public static double roundDown(double rate) {
    if (!(rate >= 1 && Double.isFinite(rate))) { // NaN too
      return 0;
    }
    double power = Math.pow(10, Math.floor(Math.log10(rate))); // exact: log10 of 10ⁿ is n
    for (int i = STEPS.size() - 1; i > 0; i--) {
      double round = STEPS.get(i) * power;
      if (round <= rate) {
        return round;
      }
    }
    return power;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static LadderRate parse(String value) {
    return WireName.parse(LadderRate.class, value, "ladder rate");
  }
}
