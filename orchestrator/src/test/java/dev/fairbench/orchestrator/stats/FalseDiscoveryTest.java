package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class FalseDiscoveryTest {
  @Test
  void qValuesOfAWorkedExampleInInputOrder() {
    // Sorted: 0.005, 0.01, 0.03, 0.04, 0.20; m * p / rank = 0.025, 0.025, 0.05, 0.05, 0.20; the
    // running minimum from the top changes nothing here.
    double[] q = FalseDiscovery.benjaminiHochbergQValues(new double[] {0.01, 0.04, 0.03, 0.005, 0.20});
    assertThat(q).containsExactly(new double[] {0.025, 0.05, 0.05, 0.025, 0.20}, within(1e-15));
  }

  @Test
  void qValuesStepUpSoTheyAreMonotoneInP() {
    // m * p / rank = 0.04, 0.04, 0.028, 0.9: the third's 0.028 carries down to the first two.
    double[] q = FalseDiscovery.benjaminiHochbergQValues(new double[] {0.02, 0.9, 0.01, 0.021});
    assertThat(q).containsExactly(new double[] {0.028, 0.9, 0.028, 0.028}, within(1e-15));
  }

  @Test
  void qValuesNeverExceedOneNorFallBelowTheirPValue() {
    double[] p = {0.9, 0.95, 1.0, 0.5};
    double[] q = FalseDiscovery.benjaminiHochbergQValues(p);
    for (int i = 0; i < p.length; i++) {
      assertThat(q[i]).isBetween(p[i], 1.0);
    }
    assertThat(FalseDiscovery.benjaminiHochbergQValues(new double[] {0.03})).containsExactly(0.03);
    assertThat(FalseDiscovery.benjaminiHochbergQValues(new double[0])).isEmpty();
  }

  @Test
  void tiedPValuesGetTheSameQValue() {
    assertThat(FalseDiscovery.benjaminiHochbergQValues(new double[] {0.05, 0.05})).containsExactly(0.05, 0.05);
  }

  @Test
  void aNumberThatIsNotAPValueIsAnError() {
    assertThatThrownBy(() -> FalseDiscovery.benjaminiHochbergQValues(new double[] {0.1, Double.NaN}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FalseDiscovery.benjaminiHochbergQValues(new double[] {1.5}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
