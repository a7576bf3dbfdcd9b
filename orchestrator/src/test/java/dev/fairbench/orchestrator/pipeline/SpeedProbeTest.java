package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeedProbeTest {
  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  @Test
  void readsBothSidesAsMegabytesPerSecond() {
    try (SpeedProbe probe = SpeedProbe.create("0", "0").orElseThrow()) {
      SpeedProbe.Reading reading = probe.read();
      assertThat(reading.server()).isBetween(10.0, 10_000.0);
      assertThat(reading.client()).isBetween(10.0, 10_000.0);
    }
  }

  @Test
  void aCpuSharedWithABusyProcessReadsSlowerThanTheSameCpuIdle() throws Exception {
    // The probe must see what steal time does not: a CPU that gives the work less of itself.
    List<Double> idle = new ArrayList<>();
    List<Double> shared = new ArrayList<>();
    try (SpeedProbe probe = SpeedProbe.create("0", "1").orElseThrow()) {
      for (int i = 0; i < 5; i++) {
        idle.add(probe.read().server());
        Process busy = new ProcessBuilder("taskset", "-c", "0", "sh", "-c", "while :; do :; done").start();
        try {
          Thread.sleep(50);
          shared.add(probe.read().server());
        } finally {
          busy.destroyForcibly().waitFor();
        }
      }
    }
    // The probe and a busy loop on one CPU: the probe gets about half of it.
    assertThat(median(shared)).as("idle %s, shared %s", idle, shared).isLessThan(0.75 * median(idle));
  }
}
