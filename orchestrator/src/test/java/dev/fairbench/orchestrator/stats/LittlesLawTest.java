package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LittlesLawTest {
  @Test
  void consistentWhenThroughputIsConcurrencyOverMeanLatency() {
    assertThat(LittlesLaw.consistency(64, 0.001, 64_000)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void aboveOneWhenFewerRequestsCompletedThanTheLatenciesImply() {
    assertThat(LittlesLaw.consistency(64, 0.001, 32_000)).as("half the connections idle").isCloseTo(2.0, within(1e-12));
    assertThat(LittlesLaw.consistency(64, 0.002, 64_000)).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void notANumberWithoutAPositiveLatencyAndThroughput() {
    assertThat(LittlesLaw.consistency(64, 0, 64_000)).isNaN();
    assertThat(LittlesLaw.consistency(64, 0.001, 0)).isNaN();
    assertThatThrownBy(() -> LittlesLaw.consistency(0, 0.001, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
