package dev.fairbench.orchestrator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LadderRateTest {
  @Test
  void aRoundRateIsOneOfOneOneAndAHalfTwoThreeFiveOrSevenTimesAPowerOfTen() {
    assertThat(LadderRate.roundDown(6_120)).isEqualTo(5_000);
    assertThat(LadderRate.roundDown(28_142)).isEqualTo(20_000);
    assertThat(LadderRate.roundDown(34_516)).isEqualTo(30_000);
    assertThat(LadderRate.roundDown(3_955)).isEqualTo(3_000);
    assertThat(LadderRate.roundDown(1_799)).isEqualTo(1_500);
    assertThat(LadderRate.roundDown(7_000)).isEqualTo(7_000);
    assertThat(LadderRate.roundDown(9_999.9)).isEqualTo(7_000);
    assertThat(LadderRate.roundDown(10_000)).isEqualTo(10_000);
    assertThat(LadderRate.roundDown(1.6)).isEqualTo(1.5);
  }

  @Test
  void theRoundingKeepsAtLeastThreeFifthsOfTheShare() {
    for (double rate = 1; rate < 1e6; rate *= 1.013) {
      double round = LadderRate.roundDown(rate);
      assertThat(round).as("%f", rate).isLessThanOrEqualTo(rate).isGreaterThanOrEqualTo(rate * 0.6 - 1e-9);
      assertThat(LadderRate.roundDown(round)).as("a round rate stays as it is").isEqualTo(round);
    }
  }

  @Test
  void twoRunsWhoseMaximaDifferByAFifthMostlyShareTheirRate() {
    // The ladders of the 2026-12-05 reference and its handicapped twin: 6,120 and 5,173 req/s at 50%.
    assertThat(LadderRate.ROUND.of(0.5, 12_240)).isEqualTo(LadderRate.ROUND.of(0.5, 10_346)).isEqualTo(5_000);
    assertThat(LadderRate.EXACT.of(0.5, 12_240)).isEqualTo(6_120);
  }

  @Test
  void belowOneRequestASecondThereIsNoLadderRate() {
    assertThat(LadderRate.roundDown(0.7)).isZero();
    assertThat(LadderRate.roundDown(Double.NaN)).isZero();
    assertThat(LadderRate.ROUND.of(0.5, 0)).isZero();
  }

  @Test
  void theRulesHaveWireNames() {
    assertThat(LadderRate.parse("round")).isEqualTo(LadderRate.ROUND);
    assertThat(LadderRate.parse("exact")).isEqualTo(LadderRate.EXACT);
    assertThatThrownBy(() -> LadderRate.parse("nice")).hasMessage("unknown ladder rate \"nice\"; known: exact, round");
  }
}
