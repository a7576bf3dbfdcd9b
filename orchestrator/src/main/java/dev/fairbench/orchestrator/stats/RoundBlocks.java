package dev.fairbench.orchestrator.stats;

import java.util.Arrays;

/**
 * A run measured as a randomised complete block design: every round visits every cell (entry ×
 * endpoint) once, in a shuffled order, so a round is a block. Whatever slows the machine for a
 * while (another process, thermal throttling, a noisy neighbour) tends to hit every cell of a round,
 * and on the log scale it adds one factor per round. Tukey's median polish fits
 *
 * <pre>log value[cell][round] = overall + cellEffect[cell] + roundEffect[round] + residual</pre>
 *
 * by alternately sweeping out row and column medians, so a few wild runs move the effects little
 * (a mean-based two-way fit would spread every outlier into its round's effect). The effects are
 * centred: the median cell effect and the median round effect are 0. A cell or round with no run
 * at all gets a NaN effect and takes no part in the medians.
 */
public final class RoundBlocks {
  /** Sweeps stop after this many passes even if the residuals still move. */
  static final int MAX_ITERATIONS = 100;
  /** ...or once a pass changes the sum of absolute residuals by less than this share of it. */
  static final double CONVERGENCE = 1e-12;

  private RoundBlocks() {}

  /**
   * @param overall the common level
   * @param cellEffects one per row (cell); NaN for a cell with no run
   * @param roundEffects one per column (round); NaN for a round with no run
   * @param residuals what is left of each value; NaN where the value is missing
   */
  public record Result(double overall, double[] cellEffects, double[] roundEffects, double[][] residuals) {}

  /**
   * Tukey's median polish of a cells × rounds matrix of logarithms (rows are cells, columns are
   * rounds; every row the same length). NaN marks a missing run and is skipped.
   */
  public static Result medianPolish(double[][] logValues) {
    int rounds = columns(logValues);
    int cells = logValues.length;
    double[][] z = new double[cells][];
    for (int i = 0; i < cells; i++) {
      z[i] = logValues[i].clone();
      for (double v : z[i]) {
        if (Double.isInfinite(v)) {
          throw new IllegalArgumentException("an infinite value in cell " + i + " (the log of 0?)");
        }
      }
    }
    double overall = 0;
    double[] cell = new double[cells];
    double[] round = new double[rounds];
    for (int i = 0; i < cells; i++) {
      if (Arrays.stream(logValues[i]).allMatch(Double::isNaN)) {
        cell[i] = Double.NaN; // stays NaN: NaN + delta
      }
    }
    for (int j = 0; j < rounds; j++) {
      boolean empty = true;
      for (double[] row : logValues) {
        empty &= Double.isNaN(row[j]);
      }
      if (empty) {
        round[j] = Double.NaN;
      }
    }
    double previousSum = Double.NaN;
    double[] column = new double[cells];
    for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
      for (int i = 0; i < cells; i++) {
        double delta = medianOrZero(z[i]);
        subtract(z[i], delta);
        cell[i] += delta;
      }
      double delta = medianOrZero(round);
      subtract(round, delta);
      overall += delta;
      for (int j = 0; j < rounds; j++) {
        for (int i = 0; i < cells; i++) {
          column[i] = z[i][j];
        }
        double columnDelta = medianOrZero(column);
        for (int i = 0; i < cells; i++) {
          z[i][j] -= columnDelta;
        }
        round[j] += columnDelta;
      }
      delta = medianOrZero(cell);
      subtract(cell, delta);
      overall += delta;

      double sum = 0;
      for (double[] row : z) {
        for (double v : row) {
          if (!Double.isNaN(v)) {
            sum += Math.abs(v);
          }
        }
      }
      if (sum == 0 || Math.abs(sum - previousSum) <= CONVERGENCE * sum) {
        break;
      }
      previousSum = sum;
    }
    return new Result(overall, cell, round, z);
  }

  /**
   * The values with each round's factor taken out: logValues[cell][round] - roundEffects[round].
   * A round whose effect is NaN (it had no runs) is left as it is.
   */
  public static double[][] adjusted(double[][] logValues, double[] roundEffects) {
    int rounds = columns(logValues);
    if (roundEffects.length != rounds) {
      throw new IllegalArgumentException(roundEffects.length + " round effects for " + rounds + " rounds");
    }
    double[][] adjusted = new double[logValues.length][rounds];
    for (int i = 0; i < logValues.length; i++) {
      for (int j = 0; j < rounds; j++) {
        double effect = Double.isNaN(roundEffects[j]) ? 0 : roundEffects[j];
        adjusted[i][j] = logValues[i][j] - effect;
      }
    }
    return adjusted;
  }

  private static int columns(double[][] matrix) {
    if (matrix.length == 0) {
      return 0;
    }
    int rounds = matrix[0].length;
    for (int i = 1; i < matrix.length; i++) {
      if (matrix[i].length != rounds) {
        throw new IllegalArgumentException("cell " + i + " has " + matrix[i].length + " rounds, cell 0 has " + rounds);
      }
    }
    return rounds;
  }

  private static void subtract(double[] values, double delta) {
    for (int i = 0; i < values.length; i++) {
      values[i] -= delta;
    }
  }

  /** The median of the values that are not NaN; 0 when there are none (nothing to sweep). */
  private static double medianOrZero(double[] values) {
    double[] present = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
    int n = present.length;
    if (n == 0) {
      return 0;
    }
    return n % 2 == 1 ? present[n / 2] : (present[n / 2 - 1] + present[n / 2]) / 2;
  }
}
