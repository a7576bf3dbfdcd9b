package dev.fairbench.orchestrator.load;

import java.net.URI;
import java.time.Duration;

/** One load run: which endpoint of which server, for how long, how hard. */
public record LoadSpec(URI baseUrl, Endpoint endpoint, Duration duration, int connections, int threads, Duration timeout) {
  public LoadSpec {
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
