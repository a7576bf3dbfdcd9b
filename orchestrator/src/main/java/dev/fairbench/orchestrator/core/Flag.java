package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A reason to doubt a cell's figures; derived in one place (report.Quality) from one table of thresholds. */
public enum Flag implements WireName {
  /** The load client, not the server, was the limit: req/s is the client's; CPU-µs/request is the headline. */
  CLIENT_BOUND("client-bound", "¹"),
  /** Errors (non-2xx or socket) above the threshold share of requests, or a rate cell below its success rate. */
  INVALID("invalid", "²"),
  /** The workers seen busy under load differ from WORKERS. */
  WORKERS_MISMATCH("workers-mismatch", "³"),
  /** The 95% confidence interval of the headline figure is wider than ±5% of its median. */
  WIDE_INTERVAL("wide-interval", "⁴"),
  /** Too few runs for a distribution-free 95% confidence interval of the median. */
  FEW_RUNS("few-runs", "⁵"),
  /** Little's law does not hold: connections ÷ mean latency is far from the measured req/s. */
  LITTLES_LAW("littles-law", "⁶"),
  /** The server's peak memory came within 10% of its limit. */
  NEAR_MEMORY_LIMIT("near-memory-limit", "⁷"),
  /** A rate cell whose achieved rate fell below the target: the server or the client could not keep up. */
  SATURATED("saturated", "⁸"),
  /** Measured although its entry FAILs conformance (run --accept-fail): not comparable with conformant entries. */
  NON_CONFORMANT("non-conformant", "⁹"),
  /**
   * A constant-rate cell whose server's memory kept growing after the warm-up part of its runs, over a
   * window long enough to tell (a soak): a leak is suspected.
   */
  LEAK("leak", "¹⁰"),
  /**
   * The answers under load were not the size of the answer checked before the runs: the server did
   * not send what the conformance gate and the check saw (a shorter body, an error page, a cached
   * stub), so its figures are not of the same work.
   */
  ANSWERS_DIFFER("answers-differ", "¹¹"),
  /**
   * The server's CPU time per request was under half the calibration server's on the same endpoint in
   * the same run: part of its work ran where its CPU time is not counted (outside its cgroup, in a
   * process it does not own), so its CPU figure is not of the same work.
   */
  CPU_BELOW_FLOOR("cpu-below-floor", "¹²");

  private final String wireName;
  private final String mark;

  Flag(String wireName, String mark) {
    this.wireName = wireName;
    this.mark = mark;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  /** The superscript the Markdown and HTML tables put after a figure. */
  public String mark() {
    return mark;
  }

  @JsonCreator
  public static Flag parse(String value) {
    return WireName.parse(Flag.class, value, "flag");
  }
}
