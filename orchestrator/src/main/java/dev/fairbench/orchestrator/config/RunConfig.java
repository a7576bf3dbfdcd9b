package dev.fairbench.orchestrator.config;

import dev.fairbench.orchestrator.load.Endpoint;
import java.time.Duration;
import java.util.List;

/**
 * Everything that shapes a run besides the entries.
 *
 * @param benchmark      false for conformance only: build, start, suite, stop
 * @param clientCeiling  calibrated maximum req/s of the load client here, 0 when unknown
 */
public record RunConfig(
    boolean benchmark,
    List<Endpoint> endpoints,
    Duration duration,
    Duration warmup,
    int runs,
    int connections,
    int threads,
    Duration requestTimeout,
    Limits limits,
    double clientCeiling) {
  public RunConfig {
    endpoints = List.copyOf(endpoints);
    if (benchmark) {
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("no endpoints to benchmark");
      }
      if (duration.toSeconds() < 1) {
        throw new IllegalArgumentException("--duration must be at least 1s, got " + duration.toMillis() + " ms");
      }
      if (!warmup.isZero() && warmup.toSeconds() < 1) {
        throw new IllegalArgumentException("--warmup must be 0 or at least 1s, got " + warmup.toMillis() + " ms");
      }
      if (runs < 1) {
        throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
      }
      if (threads < 1 || connections < threads) {
        throw new IllegalArgumentException("--connections (" + connections + ") must be at least --threads ("
            + threads + "), and --threads at least 1");
      }
    }
  }
}
