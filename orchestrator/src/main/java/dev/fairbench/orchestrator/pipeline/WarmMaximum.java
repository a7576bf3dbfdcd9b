package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.load.LoadException;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * How the maximum came about: every warm-up run's req/s in order, the first included, and whether the
   * last run ended the warm-up by the rule rather than by {@link #MAX_RUNS}.
   */
  record Settled(List<Double> figures, boolean agreed) {
    Settled {
      figures = List.copyOf(figures);
    }

    /** The last run's req/s: the maximum a share-of-max rate is taken from. */
    double requestsPerSecond() {
      return figures.getLast();
    }

    int runs() {
      return figures.size();
    }
  }

  private WarmMaximum() {}

  /**
   * Runs while each is more than {@link #AGREEMENT} faster than the one before: a server still warming
   * gets faster, and a run that a busy machine made slower ends the warm-up instead of prolonging it.
   * {@code agreed} is false when the sixth run was still rising.
   */
  static Settled warm(double first, Run next) throws LoadException, InterruptedException {
    List<Double> figures = new ArrayList<>(List.of(first));
    while (figures.size() < MAX_RUNS) {
      double previous = figures.getLast();
      double current = next.requestsPerSecond();
      figures.add(current);
      if (current <= previous * (1 + AGREEMENT)) {
        return new Settled(figures, true);
      }
    }
    return new Settled(figures, false);
  }

  /** {@code first}: the warm-up run already made; {@code next} makes another. */
  static Settled settle(double first, Run next) throws LoadException, InterruptedException {
    List<Double> figures = new ArrayList<>(List.of(first));
    while (figures.size() < MAX_RUNS) {
      double previous = figures.getLast();
      double current = next.requestsPerSecond();
      figures.add(current);
      if (Math.abs(current - previous) <= AGREEMENT * Math.max(current, previous)) {
        return new Settled(figures, true);
      }
    }
    return new Settled(figures, false);
  }
}
