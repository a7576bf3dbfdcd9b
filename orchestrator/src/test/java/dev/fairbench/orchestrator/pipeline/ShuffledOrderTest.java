package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShuffledOrderTest {
  private final List<Integer> cells = IntStream.range(0, 31).boxed().toList();

  @Test
  void theRoundOrderIsReproducibleFromTheSeed() {
    assertThat(Pipeline.shuffledOrder(cells, 1234, 3)).isEqualTo(Pipeline.shuffledOrder(cells, 1234, 3));
  }

  @Test
  void eachRoundVisitsEveryCellExactlyOnce() {
    for (int round = 1; round <= 9; round++) {
      assertThat(Pipeline.shuffledOrder(cells, 1234, round)).containsExactlyInAnyOrderElementsOf(cells);
    }
  }

  @Test
  void roundsOfOneRunAreShuffledDifferently() {
    assertThat(Pipeline.shuffledOrder(cells, 1234, 1)).isNotEqualTo(Pipeline.shuffledOrder(cells, 1234, 2));
    assertThat(Pipeline.shuffledOrder(cells, 1234, 1)).isNotEqualTo(Pipeline.shuffledOrder(cells, 99, 1));
  }
}
