package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TheilSenTest {
  @Test
  void aStraightLineIsFoundExactly() {
    double[] x = {0, 1, 2, 3, 4, 5};
    double[] y = {10, 12, 14, 16, 18, 20};
    TheilSen.Line line = TheilSen.fit(x, y);
    assertThat(line.slope()).isEqualTo(2.0);
    assertThat(line.intercept()).isEqualTo(10.0);
    assertThat(line.at(10)).isEqualTo(30.0);
  }

  @Test
  void aFewOutliersDoNotTiltIt() {
    double[] x = new double[20];
    double[] y = new double[20];
    for (int i = 0; i < 20; i++) {
      x[i] = i;
      y[i] = 100 + 0.5 * i;
    }
    y[3] = 10_000; // a one-off allocation
    y[15] = -5_000;
    y[19] = 50_000;
    assertThat(TheilSen.fit(x, y).slope()).isCloseTo(0.5, within(0.05));
  }

  @Test
  void aFlatSawToothHasNoSlope() {
    // A garbage collector's cycle: up 4 MiB over 4 s, back down, and again.
    double[] x = new double[60];
    double[] y = new double[60];
    for (int i = 0; i < 60; i++) {
      x[i] = i;
      y[i] = 100e6 + (i % 5) * 1e6;
    }
    assertThat(Math.abs(TheilSen.fit(x, y).slope())).isLessThan(0.05e6);
  }

  @Test
  void manyPointsAreThinnedEvenlyAndKeepTheSlope() {
    int n = 5000;
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i;
      y[i] = 3 * i + (i % 7);
    }
    assertThat(TheilSen.fit(x, y).slope()).isCloseTo(3.0, within(0.01));
  }

  @Test
  void fewerThanTwoDistinctAbscissaeAreRefused() {
    assertThatThrownBy(() -> TheilSen.fit(new double[] {1, 1}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 points");
    assertThatThrownBy(() -> TheilSen.fit(new double[] {1}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("differ in length");
  }
}
