package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RoundBlocksTest {
  private static final double OVERALL = Math.log(50_000);
  /** Median 0, as median polish centres them. */
  private static final double[] CELLS = {-0.5, -0.1, 0.1, 1.0};
  /** Round 3 ran on a noisy machine: everything 26% slower (e^-0.3). Median 0. */
  private static final double[] ROUNDS = {0, 0.01, -0.01, -0.3, 0.02, -0.02, 0};

  @Test
  void cellAndRoundEffectsOfAnAdditiveMatrixAreRecoveredExactly() {
    RoundBlocks.Result result = RoundBlocks.medianPolish(additive());
    assertThat(result.overall()).isCloseTo(OVERALL, within(1e-12));
    assertThat(result.cellEffects()).containsExactly(CELLS, within(1e-12));
    assertThat(result.roundEffects()).containsExactly(ROUNDS, within(1e-12));
    for (double[] row : result.residuals()) {
      assertThat(row).containsOnly(0.0);
    }
  }

  @Test
  void aSingleOutlierHardlyMovesTheRoundEffects() {
    double[][] values = additive();
    values[2][5] += 2.0; // one run e^2 = 7.4 times off
    RoundBlocks.Result result = RoundBlocks.medianPolish(values);
    // A mean-based fit would move round 5 by 2.0 / 4 cells = 0.5; the medians keep it in place.
    for (int j = 0; j < ROUNDS.length; j++) {
      assertThat(result.roundEffects()[j]).as("round %d", j).isCloseTo(ROUNDS[j], within(0.05));
    }
    assertThat(result.cellEffects()).containsExactly(CELLS, within(0.05));
    assertThat(result.residuals()[2][5]).as("the outlier stays in its residual").isCloseTo(2.0, within(0.1));
  }

  @Test
  void aMissingRunIsSkipped() {
    double[][] values = additive();
    values[1][3] = Double.NaN;
    RoundBlocks.Result result = RoundBlocks.medianPolish(values);
    assertThat(result.roundEffects()).containsExactly(ROUNDS, within(1e-12));
    assertThat(result.cellEffects()).containsExactly(CELLS, within(1e-12));
    assertThat(result.residuals()[1][3]).isNaN();
  }

  @Test
  void aCellOrRoundWithoutRunsHasNoEffect() {
    double[][] values = additive();
    java.util.Arrays.fill(values[0], Double.NaN);
    for (double[] row : values) {
      row[6] = Double.NaN;
    }
    RoundBlocks.Result result = RoundBlocks.medianPolish(values);
    assertThat(result.cellEffects()[0]).isNaN();
    assertThat(result.roundEffects()[6]).isNaN();
    // The remaining effects are recovered up to the constant that re-centres them.
    for (int i = 1; i < CELLS.length; i++) {
      for (int j = 0; j < 6; j++) {
        double fitted = result.overall() + result.cellEffects()[i] + result.roundEffects()[j];
        assertThat(fitted).isCloseTo(values[i][j], within(1e-12));
      }
    }
  }

  @Test
  void adjustedValuesHaveTheRoundFactorsRemoved() {
    double[][] values = additive();
    double[][] adjusted = RoundBlocks.adjusted(values, RoundBlocks.medianPolish(values).roundEffects());
    for (int i = 0; i < CELLS.length; i++) {
      for (int j = 0; j < ROUNDS.length; j++) {
        assertThat(adjusted[i][j]).as("cell %d round %d", i, j).isCloseTo(OVERALL + CELLS[i], within(1e-12));
      }
    }
  }

  @Test
  void roundsOfUnequalLengthAreAnError() {
    assertThatThrownBy(() -> RoundBlocks.medianPolish(new double[][] {{1, 2}, {1}}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cell 1");
    assertThatThrownBy(() -> RoundBlocks.adjusted(new double[][] {{1, 2}}, new double[] {0}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static double[][] additive() {
    double[][] values = new double[CELLS.length][ROUNDS.length];
    for (int i = 0; i < CELLS.length; i++) {
      for (int j = 0; j < ROUNDS.length; j++) {
        values[i][j] = OVERALL + CELLS[i] + ROUNDS[j];
      }
    }
    return values;
  }
}
