package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.core.Endpoint;
import java.net.URI;
import java.time.Duration;

/** One load run: which endpoint of which server, for how long, how hard. */
/**
 * @param pipeline  requests written per connection at once (TFB's pipelining); 1 for none
 * @param keepAlive false: every request on a new connection
 */
public record LoadSpec(URI baseUrl, Endpoint endpoint, Duration duration, int connections, int threads, Duration timeout,
    int pipeline, boolean keepAlive) {
  /** Plain keep-alive load, one request at a time per connection. */
  public LoadSpec(URI baseUrl, Endpoint endpoint, Duration duration, int connections, int threads, Duration timeout) {
    this(baseUrl, endpoint, duration, connections, threads, timeout, 1, true);
  }

  public LoadSpec {
    if (pipeline < 1) {
      throw new IllegalArgumentException("pipeline depth must be at least 1, got " + pipeline);
    }
    if (threads < 1 || connections < threads) {
      throw new IllegalArgumentException(
          "need at least one thread and at least one connection per thread (threads " + threads + ", connections "
              + connections + ")");
    }
    if (duration.toSeconds() < 1) {
      throw new IllegalArgumentException("a load run lasts at least 1 s, got " + duration);
    }
  }
}
