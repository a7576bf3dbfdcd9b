package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.load.LoadException;

/**
 * The maximum a share-of-max rate is taken from: back-to-back warm-up runs at full speed until two
 * in a row agree, so that a server still warming (a JVM a few seconds after the suite runs at a
 * tenth of its warm speed) is not given a rate it meets without effort. A server warm from the start
 * costs one extra run.
 */
final class WarmMaximum {
  /** Two runs in a row within this share of each other: the server is at its warm speed. */
  static final double AGREEMENT = 0.05;
  /** At most this many runs in all; a maximum that never settles is the last run's. */
  static final int MAX_RUNS = 6;

  /** One warm-up run at full speed, its req/s. */
  @FunctionalInterface
  interface Run {
    double requestsPerSecond() throws LoadException, InterruptedException;
  }

  /** How the maximum came about: its req/s, the runs it took, whether the last two agreed. */
  record Settled(double requestsPerSecond, int runs, boolean agreed) {}

  private WarmMaximum() {}

  /** {@code first}: the warm-up run already made; {@code next} makes another. */
  static Settled settle(double first, Run next) throws LoadException, InterruptedException {
    double previous = first;
    for (int runs = 2; runs <= MAX_RUNS; runs++) {
      double current = next.requestsPerSecond();
      if (Math.abs(current - previous) <= AGREEMENT * Math.max(current, previous)) {
        return new Settled(current, runs, true);
      }
      previous = current;
    }
    return new Settled(previous, MAX_RUNS, false);
  }
}
