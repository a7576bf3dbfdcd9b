package dev.fairbench.orchestrator.results;

/**
 * One measured run of one cell.
 *
 * @param non2xx              responses with status 400 or more
 * @param serverCpuSeconds    CPU the server used during this run
 * @param serverPeakRssBytes  the server's peak resident memory (sum of its processes' VmHWM) after the run
 * @param serverMemoryPeakBytes the peak of its cgroup's memory use (page cache included), -1 when unknown
 * @param clientCpuUtilisation wrk's CPU time over wall time (1.0 = one core)
 */
public record RunRecord(
    long requests,
    double durationSeconds,
    double requestsPerSecond,
    long bytes,
    long non2xx,
    SocketErrors socketErrors,
    LatencyRecord latencyMicros,
    double serverCpuSeconds,
    long serverPeakRssBytes,
    long serverMemoryPeakBytes,
    double clientCpuSeconds,
    double clientCpuUtilisation) {

  public record SocketErrors(long connect, long read, long write, long timeout) {
    public long total() {
      return connect + read + write + timeout;
    }
  }

  public record LatencyRecord(long p50, long p90, long p99, long p999, long max, double mean) {}
}
