package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.WorkerObservation;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkersAcrossRunsTest {
  private static WorkerObservation saw(int observed, String... busy) {
    return new WorkerObservation("threads", 1, observed, 1, 1, 10, busy.length, observed == 1, List.of(busy));
  }

  @Test
  void oneRunInWhichTheRuntimeHandedItsWorkToAnotherThreadIsNotTheCellsVerdict() {
    WorkerObservation handOff = saw(2, "server (51%)", "server (50%)");
    List<WorkerObservation> runs = List.of(saw(1, "server (97%)"), saw(1, "server (98%)"), handOff, saw(1, "server (96%)"));
    assertThat(Pipeline.medianRun(runs).matches()).isTrue();
    assertThat(Pipeline.medianRun(runs).busy()).as("the latest run that saw the median").containsExactly("server (96%)");
  }

  @Test
  void aServerThatRunsTwoWorkersInMostRunsIsObservedSo() {
    List<WorkerObservation> runs = List.of(saw(2, "a (50%)", "b (49%)"), saw(1, "a (95%)"), saw(2, "a (51%)", "b (48%)"));
    assertThat(Pipeline.medianRun(runs).observed()).isEqualTo(2);
    assertThat(Pipeline.medianRun(runs).matches()).isFalse();
  }

  @Test
  void anEvenNumberOfRunsTakesTheLowerMedian() {
    assertThat(Pipeline.medianRun(List.of(saw(2, "a", "b"), saw(1, "a"))).observed()).isEqualTo(1);
    assertThat(Pipeline.medianRun(List.of(saw(3, "a", "b", "c"))).observed()).isEqualTo(3);
  }
}
