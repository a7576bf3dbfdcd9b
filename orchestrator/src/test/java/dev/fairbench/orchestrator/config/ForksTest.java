package dev.fairbench.orchestrator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Endpoint;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ForksTest {
  private static RunConfig rounds(int rounds) {
    return new RunConfig(true, CellKind.THROUGHPUT, List.of(Endpoint.JSON), Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofMillis(500), rounds, 3, Duration.ZERO, 42, List.of(), 64, 1, Duration.ofSeconds(2),
        new Limits("1", "0", 512L << 20, 1), true, 0.05, 1, true, List.of(), 0.5, List.of(Endpoint.JSON), 5, false);
  }

  private static List<Integer> processOfEachRound(RunConfig config, int through) {
    return IntStream.rangeClosed(1, through).mapToObj(config::forkOf).toList();
  }

  @Test
  void oneProcessMeasuresEveryRoundUnlessToldOtherwise() {
    RunConfig config = rounds(9);
    assertThat(config.forks()).isEqualTo(1);
    assertThat(processOfEachRound(config, 12)).containsOnly(1);
  }

  @Test
  void theRoundsSplitIntoBlocksOfConsecutiveRoundsAsEvenAsTheyGo() {
    assertThat(processOfEachRound(rounds(9).withForks(2), 9)).containsExactly(1, 1, 1, 1, 2, 2, 2, 2, 2);
    assertThat(processOfEachRound(rounds(9).withForks(3), 9)).containsExactly(1, 1, 1, 2, 2, 2, 3, 3, 3);
    assertThat(processOfEachRound(rounds(3).withForks(3), 3)).containsExactly(1, 2, 3);
    assertThat(rounds(9).withForks(3).firstRoundOf(3)).isEqualTo(7);
  }

  @Test
  void theFreshStartsStillToComeAfterARoundAreTheBlocksThatBeginLater() {
    RunConfig two = rounds(9).withForks(2);
    assertThat(IntStream.rangeClosed(1, 9).map(two::freshStartsAfter).boxed().toList())
        .containsExactly(1, 1, 1, 1, 0, 0, 0, 0, 0);
    RunConfig three = rounds(9).withForks(3);
    assertThat(IntStream.rangeClosed(1, 9).map(three::freshStartsAfter).boxed().toList())
        .containsExactly(2, 2, 2, 1, 1, 1, 0, 0, 0);
    assertThat(rounds(9).freshStartsAfter(1)).isZero();
    assertThat(two.freshStartsAfter(12)).as("an extra round").isZero();
  }

  @Test
  void extraRoundsGoToTheLastProcess() {
    assertThat(processOfEachRound(rounds(9).withForks(2), 12)).endsWith(2, 2, 2, 2);
  }

  @Test
  void eachProcessMeasuresAtLeastOneRound() {
    assertThatThrownBy(() -> rounds(3).withForks(4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--forks (4) must be at most --rounds (3): each process measures at least one round");
    assertThatThrownBy(() -> rounds(3).withForks(-1)).hasMessage("--forks must be at least 1, got -1");
  }

  @Test
  void anInvocationBlockWithoutForksResumesWithOneProcess() {
    assertThat(rounds(9).withForks(0).forks()).isEqualTo(1);
  }
}
