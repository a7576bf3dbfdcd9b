package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BusyWorkersTest {
  @Test
  void busyMeansAtLeastATenthOfTheServersCpuInTheWindow() {
    ThreadSample from = new ThreadSample(0, Map.of("10/10", 0L, "10/11", 0L, "10/12", 0L), Map.of(10L, 0L));
    ThreadSample to = new ThreadSample(1, Map.of("10/10", 85L, "10/11", 10L, "10/12", 5L), Map.of(10L, 100L));

    BusyWorkers busy = BusyWorkers.between(from, to);

    assertThat(busy.threads()).as("85 and 10 ticks of 100 are busy, 5 is not").isEqualTo(2);
    assertThat(busy.processes()).isEqualTo(1);
    assertThat(busy.totalTicks()).isEqualTo(100);
  }

  @Test
  void processesCountTheirExitedThreadsToo() {
    ThreadSample from = new ThreadSample(0, Map.of(), Map.of(20L, 0L, 21L, 0L));
    ThreadSample to = new ThreadSample(1, Map.of("20/20", 1L), Map.of(20L, 50L, 21L, 50L));

    assertThat(BusyWorkers.between(from, to).processes()).isEqualTo(2);
  }

  @Test
  void theMedianOfIntervalsIgnoresABurstInOneOfThem() {
    assertThat(BusyWorkers.median(List.of(1, 1, 2, 1, 1))).isEqualTo(1);
    assertThat(BusyWorkers.median(List.of(2, 2, 1, 2))).isEqualTo(2);
    assertThat(BusyWorkers.median(List.of(1, 2))).as("rounded down").isEqualTo(1);
  }

  @Test
  void theOrchestratorCanMoveItselfOffTheServersCpusAndBack() throws Exception {
    String original = SelfAffinity.original();
    try {
      assertThat(SelfAffinity.set("0")).isTrue();
      assertThat(Files.readString(Path.of("/proc/self/status"))).containsPattern("Cpus_allowed_list:\\s+0\\n");
    } finally {
      assertThat(SelfAffinity.restore()).isTrue();
    }
    assertThat(Files.readString(Path.of("/proc/self/status")))
        .containsPattern("Cpus_allowed_list:\\s+" + original + "\\n");
  }
}
