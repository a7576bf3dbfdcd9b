package dev.fairbench.orchestrator.stats;

import java.util.Arrays;
import java.util.List;

/** Pure functions over the measured runs of a cell. */
public final class Statistics {
  /** A run is client-bound when wrk used at least this share of each of its threads' core. */
  public static final double CLIENT_BOUND_UTILISATION = 0.90;
  /** ...or when its throughput is within this share of the calibrated ceiling. */
  public static final double CLIENT_BOUND_CEILING_SHARE = 0.90;
  /** A cell is invalid when non-2xx responses plus socket errors exceed this share of requests. */
  public static final double INVALID_ERROR_SHARE = 0.001;

  private Statistics() {}

  public static double median(List<Double> values) {
    double[] sorted = sorted(values);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  public static double min(List<Double> values) {
    return sorted(values)[0];
  }

  public static double max(List<Double> values) {
    double[] sorted = sorted(values);
    return sorted[sorted.length - 1];
  }

  public static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  /** Coefficient of variation: sample standard deviation over mean; 0 for a single run. */
  public static double coefficientOfVariation(List<Double> values) {
    if (values.size() < 2) {
      requireValues(values);
      return 0;
    }
    double mean = mean(values);
    if (mean == 0) {
      return 0;
    }
    double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    return Math.sqrt(squares / (values.size() - 1)) / mean;
  }

  /** Wall-clock microseconds per request at the given throughput: 1e6 / req/s. */
  public static double microsPerRequest(double requestsPerSecond) {
    return requestsPerSecond > 0 ? 1e6 / requestsPerSecond : Double.NaN;
  }

  /** Server CPU microseconds spent per request. */
  public static double cpuMicrosPerRequest(double serverCpuSeconds, long requests) {
    return requests > 0 ? serverCpuSeconds * 1e6 / requests : Double.NaN;
  }

  /**
   * The load client, not the server, limited the throughput: wrk's CPU reached 90% of one core per
   * wrk thread, or the throughput reached 90% of a calibrated ceiling (10% or less below it).
   *
   * @param ceilingRequestsPerSecond the calibrated maximum of the client here, or 0 when unknown
   */
  public static boolean clientBound(double clientCpuUtilisation, int wrkThreads, double requestsPerSecond,
      double ceilingRequestsPerSecond) {
    if (clientCpuUtilisation >= CLIENT_BOUND_UTILISATION * wrkThreads) {
      return true;
    }
    return ceilingRequestsPerSecond > 0 && requestsPerSecond >= CLIENT_BOUND_CEILING_SHARE * ceilingRequestsPerSecond;
  }

  /** More than 0.1% of the requests got a non-2xx answer or a socket error. */
  public static boolean invalid(long requests, long non2xx, long socketErrors) {
    long errors = non2xx + socketErrors;
    return requests == 0 || errors > INVALID_ERROR_SHARE * requests;
  }

  private static double[] sorted(List<Double> values) {
    requireValues(values);
    double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(array);
    return array;
  }

  private static void requireValues(List<Double> values) {
    if (values == null || values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
  }
}
