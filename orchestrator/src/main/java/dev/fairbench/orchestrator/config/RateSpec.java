package dev.fairbench.orchestrator.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A constant rate as asked on the command line: absolute ("1000", requests per second) or a share
 * of the cell's own maximum measured in the same run ("90%").
 */
public record RateSpec(double value, boolean shareOfMax) {
  /**
   * The most requests per second asked of oha: it schedules request i at i ÷ rate seconds, which it
   * holds in whole nanoseconds, so beyond 10^9 requests no longer get times of their own (and oha
   * sends as fast as it can, a throughput run in disguise).
   */
  public static final double MOST_REQUESTS_PER_SECOND = 1e9;
  /**
   * The fewest: a run lasts whole seconds, so 1 request per second schedules at least one request
   * in every run; below it a run could schedule none and have nothing to measure.
   */
  public static final double FEWEST_REQUESTS_PER_SECOND = 1;
  /** A plain decimal number, with an exponent or not: no NaN, Infinity, hex or type suffix (Java would take 1000f). */
  private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  public RateSpec {
    if (!(value > 0)) {
      throw new IllegalArgumentException(shareOfMax ? "a share of the maximum must be more than 0%"
          : "a rate must be a positive number of requests per second");
    }
    if (shareOfMax && value > 100) {
      throw new IllegalArgumentException("a share of the maximum is at most 100%");
    }
    if (!shareOfMax && value < FEWEST_REQUESTS_PER_SECOND) {
      throw new IllegalArgumentException("a rate must be at least 1 request per second, so that every run (whole "
          + "seconds) schedules a request");
    }
    if (!shareOfMax && value > MOST_REQUESTS_PER_SECOND) {
      throw new IllegalArgumentException("a rate must be at most 1,000,000,000 requests per second (oha schedules "
          + "requests in whole nanoseconds)");
    }
  }

  /** "1000" (requests per second) or "90%" (of the cell's maximum); refused with the text given when it is neither. */
  public static RateSpec parse(String text) {
    String trimmed = text.trim();
    boolean share = trimmed.endsWith("%");
    String number = share ? trimmed.substring(0, trimmed.length() - 1).trim() : trimmed;
    if (!NUMBER.matcher(number).matches()) {
      throw new IllegalArgumentException(
          "a rate is a number of requests per second (1000) or a share of the cell's maximum (90%), got \"" + text + "\"");
    }
    try {
      return new RateSpec(Double.parseDouble(number), share);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + ", got \"" + trimmed + "\"");
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
