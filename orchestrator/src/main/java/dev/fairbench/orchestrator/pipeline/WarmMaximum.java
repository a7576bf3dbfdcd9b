package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.load.LoadException;

/**
 * A cell's warm-up: back-to-back runs at full speed, so that a server still warming (a JVM a few
 * seconds after the suite runs at a tenth of its warm speed) neither begins round 1 cold nor is given
 * a share-of-max rate it meets without effort. A server warm from the start costs one extra run.
 */
public final class WarmMaximum {
  /**
   * Two runs in a row within this share of each other: the maximum a share-of-max rate is taken from
   * is settled. A run no more than this share faster than the one before: the server is warm.
   */
  public static final double AGREEMENT = 0.05;
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

  /**
   * Runs while each is more than {@link #AGREEMENT} faster than the one before: a server still warming
   * gets faster, and a run that a busy machine made slower ends the warm-up instead of prolonging it.
   * {@code agreed} is false when the sixth run was still rising.
   */
  static Settled warm(double first, Run next) throws LoadException, InterruptedException {
    double previous = first;
    for (int runs = 2; runs <= MAX_RUNS; runs++) {
      double current = next.requestsPerSecond();
      if (current <= previous * (1 + AGREEMENT)) {
        return new Settled(current, runs, true);
      }
      previous = current;
    }
    return new Settled(previous, MAX_RUNS, false);
  }

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
