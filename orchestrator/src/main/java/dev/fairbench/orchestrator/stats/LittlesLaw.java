package dev.fairbench.orchestrator.stats;

/**
 * A cross-check of a run's two headline figures by Little's law, L = λ·W: the mean number of
 * requests in flight is the throughput times the mean time each spends in the system.
 *
 * <p>The load client is a closed loop: each of its {@code concurrency} connections sends its next
 * request as soon as the previous answer arrives, so about {@code concurrency} requests are always
 * in flight and the throughput must be close to concurrency / mean latency. Both figures come from
 * the client but are counted separately (requests completed over the duration, and the latency
 * histogram), so they can disagree only when something went wrong in between: connections that
 * sat idle or reconnected (errors, a server that closes connections, a client that could not keep
 * them all busy), latencies recorded for only some requests (timeouts or failures left out of the
 * histogram), a warm-up or tail counted in one figure and not the other, or a client that
 * pipelines. A large mismatch does not say which figure is wrong, only that at least one of them
 * does not describe the run that was measured — a doubt to report beside the figures.
 */
public final class LittlesLaw {
  private LittlesLaw() {}

  /**
   * The throughput Little's law predicts over the one measured: (concurrency / mean latency) /
   * requests per second. 1.0 when they agree; above 1 when fewer requests completed than the
   * latencies imply (connections idle part of the time), below 1 when more did (latency
   * overstated, or more than one request in flight per connection). NaN when the latency or the
   * throughput is not positive.
   *
   * @param concurrency the number of connections kept busy by the client
   */
  public static double consistency(int concurrency, double meanLatencySeconds, double requestsPerSecond) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
    }
    if (!(meanLatencySeconds > 0) || !(requestsPerSecond > 0)) {
      return Double.NaN;
    }
    return concurrency / meanLatencySeconds / requestsPerSecond;
  }
}
