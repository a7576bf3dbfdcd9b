package dev.fairbench.orchestrator.config;

import java.util.Locale;

/**
 * A constant rate as asked on the command line: absolute ("1000", requests per second) or a share
 * of the cell's own maximum measured in the same run ("90%").
 */
public record RateSpec(double value, boolean shareOfMax) {
  public RateSpec {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("a rate must be a positive number, got " + value);
    }
    if (shareOfMax && value > 100) {
      throw new IllegalArgumentException("a share of the maximum is at most 100%, got " + value + "%");
    }
  }

  public static RateSpec parse(String text) {
    String trimmed = text.trim();
    try {
      if (trimmed.endsWith("%")) {
        return new RateSpec(Double.parseDouble(trimmed.substring(0, trimmed.length() - 1)), true);
      }
      return new RateSpec(Double.parseDouble(trimmed), false);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a rate is a number of requests per second (1000) or a share of the cell's maximum (90%), got \"" + text + "\"");
    }
  }

  /** The requests per second this spec asks of a cell whose maximum is {@code maxRequestsPerSecond}. */
  public double requestsPerSecond(double maxRequestsPerSecond) {
    return shareOfMax ? value / 100 * maxRequestsPerSecond : value;
  }

  /** As written in results: "90%" or "1000". */
  public String wireName() {
    String number = value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%s", value);
    return shareOfMax ? number + "%" : number;
  }
}
