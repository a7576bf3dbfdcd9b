package dev.fairbench.orchestrator.load;

/**
 * What a load generator measured in one run.
 *
 * @param requests           completed requests
 * @param durationSeconds    the run's measured duration
 * @param bytes              bytes read
 * @param non2xx             responses with a status of 400 or more (wrk counts these as status errors)
 * @param connectErrors      socket errors by kind
 * @param latency            percentiles in microseconds; null when the client measured none (a pipelined wrk run)
 * @param clientCpuSeconds   CPU the load generator used
 * @param clientCpuUtilisation clientCpuSeconds over wall time: 1.0 is one core fully busy
 */
public record LoadResult(
    long requests,
    double durationSeconds,
    long bytes,
    long non2xx,
    long connectErrors,
    long readErrors,
    long writeErrors,
    long timeouts,
    Latency latency,
    double clientCpuSeconds,
    double clientCpuUtilisation) {

  public double requestsPerSecond() {
    return durationSeconds > 0 ? requests / durationSeconds : 0;
  }

  public long socketErrors() {
    return connectErrors + readErrors + writeErrors + timeouts;
  }

  /** Latency percentiles in microseconds. */
  public record Latency(long p50, long p90, long p99, long p999, long max, double mean) {}

  /** The same run without latency figures: wrk's are not a request's latency when it pipelines. */
  public LoadResult withoutLatency() {
    return new LoadResult(requests, durationSeconds, bytes, non2xx, connectErrors, readErrors, writeErrors, timeouts,
        null, clientCpuSeconds, clientCpuUtilisation);
  }

  public LoadResult withClientCpu(double cpuSeconds, double utilisation) {
    return new LoadResult(requests, durationSeconds, bytes, non2xx, connectErrors, readErrors, writeErrors, timeouts,
        latency, cpuSeconds, utilisation);
  }
}
