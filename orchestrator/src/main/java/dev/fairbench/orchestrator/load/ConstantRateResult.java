package dev.fairbench.orchestrator.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One constant-rate run as oha reports it. A request either got a response (counted by status
 * code) or failed without one (counted by oha's error text: connection refused, timeout, a
 * connection closed mid-response, ...). Latencies are those of the responses, measured from the
 * moment each request was scheduled (oha's --latency-correction), not from when it was sent, so a
 * server that falls behind shows its queueing delay instead of hiding it (coordinated omission).
 *
 * @param durationSeconds      oha's own measured duration of the run
 * @param statusCounts         responses by HTTP status code
 * @param errorCounts          requests without a response, by oha's error text
 * @param latency              null when no request got a response
 * @param clientCpuSeconds     oha's user + system CPU time
 * @param clientCpuUtilisation clientCpuSeconds over the wall time of the oha process
 * @param bodyBytes            the bytes of the responses' bodies, all of them (oha counts no status line or
 *                             header)
 */
public record ConstantRateResult(
    double durationSeconds,
    SortedMap<Integer, Long> statusCounts,
    SortedMap<String, Long> errorCounts,
    Latency latency,
    double clientCpuSeconds,
    double clientCpuUtilisation,
    long bodyBytes) {

  /** Below this share of the target rate, the server or the client could not keep up. */
  public static final double SATURATION_THRESHOLD = 0.95;
  /** Below this share of 200 responses, the latencies are not those of correct answers. */
  public static final double VALID_SUCCESS_RATE = 0.999;

  public ConstantRateResult {
    statusCounts = new TreeMap<>(statusCounts);
    errorCounts = new TreeMap<>(errorCounts);
  }

  /** Without the bodies' bytes (0). */
  public ConstantRateResult(double durationSeconds, SortedMap<Integer, Long> statusCounts,
      SortedMap<String, Long> errorCounts, Latency latency, double clientCpuSeconds, double clientCpuUtilisation) {
    this(durationSeconds, statusCounts, errorCounts, latency, clientCpuSeconds, clientCpuUtilisation, 0);
  }

  /** Latency percentiles of the responses, in microseconds, corrected for coordinated omission. */
  public record Latency(long p50, long p90, long p99, long p999, long max, long mean) {}

  public ConstantRateResult withClientCpu(double seconds, double utilisation) {
    return new ConstantRateResult(durationSeconds, statusCounts, errorCounts, latency, seconds, utilisation, bodyBytes);
  }

  /** Requests that got a response, whatever its status. */
  public long completed() {
    return statusCounts.values().stream().mapToLong(Long::longValue).sum();
  }

  public long errors() {
    return errorCounts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Requests oha started: answered or failed. */
  public long sent() {
    return completed() + errors();
  }

  /** Responses with status 200, the only correct answer of every benchmarked endpoint. */
  public long ok() {
    return statusCounts.getOrDefault(200, 0L);
  }

  /** Responses with any status but 200. */
  public long otherStatuses() {
    return completed() - ok();
  }

  /** 200 responses over requests sent; 0 when nothing was sent. */
  public double successRate() {
    long sent = sent();
    return sent == 0 ? 0 : (double) ok() / sent;
  }

  /** Responses per second over oha's measured duration. */
  public double achievedRate() {
    return durationSeconds <= 0 ? 0 : completed() / durationSeconds;
  }

  /** "saturated" and "invalid" as they apply to a run aimed at {@code targetRate} requests per second. */
  public List<String> flags(double targetRate) {
    List<String> flags = new ArrayList<>();
    if (achievedRate() < SATURATION_THRESHOLD * targetRate) {
      flags.add("saturated");
    }
    if (successRate() < VALID_SUCCESS_RATE) {
      flags.add("invalid");
    }
    return List.copyOf(flags);
  }

  /** Status counts keyed by the code as text, the shape they take in JSON. */
  public Map<String, Long> statusCountsByName() {
    Map<String, Long> byName = new LinkedHashMap<>();
    statusCounts.forEach((code, count) -> byName.put(Integer.toString(code), count));
    return byName;
  }
}
