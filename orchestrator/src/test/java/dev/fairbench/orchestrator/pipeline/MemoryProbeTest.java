package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class MemoryProbeTest {
  @Test
  void aReadingIsTheTimeOfOneLoadFromMemoryBeyondTheCaches() {
    double nanos = new MemoryProbe().read();
    // A load that misses every cache takes tens to hundreds of nanoseconds on any machine of this kind.
    assertThat(nanos).isBetween(10.0, 2_000.0);
  }

  @Test
  void aBufferTheCachesHoldReadsFasterThanOneBeyondThem() {
    MemoryProbe beyond = new MemoryProbe(MemoryProbe.MEGABYTES, MemoryProbe.LOADS);
    MemoryProbe within = new MemoryProbe(1, MemoryProbe.LOADS); // 1 MiB: in a core's L2 or the L3
    // The lowest of a few readings each, so a neighbour's moment does not decide: an L2 or L3 hit takes a few to
    // tens of nanoseconds, a miss to memory 80 or more; a probe that measured the loop, not the memory, reads alike.
    double far = DoubleStream.generate(beyond::read).limit(5).min().orElseThrow();
    double near = DoubleStream.generate(within::read).limit(5).min().orElseThrow();
    assertThat(far).as("64 MiB against 1 MiB, ns a load").isGreaterThan(2 * near);
  }

  @Test
  void theSpeedProbeReadsTheMemoryOnlyWhereTheLoadClientRunsHere() {
    try (SpeedProbe here = SpeedProbe.create("1", "0").orElseThrow();
        SpeedProbe elsewhere = SpeedProbe.create("1", null).orElseThrow()) {
      assertThat(here.readsMemory()).isTrue();
      assertThat(here.read().memory()).isBetween(10.0, 2_000.0);
      assertThat(elsewhere.readsMemory()).isFalse();
      assertThat(elsewhere.read().memory()).isEqualTo(-1);
    }
  }
}
