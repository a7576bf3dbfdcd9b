package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.config.Limits;
import org.junit.jupiter.api.Test;

class AppliedLimitsTest {
  private static final long MIB = 1 << 20;
  private static final Limits ASKED = new Limits("2-3", "0-1", 512 * MIB, 2);
  private static final OpenFileLimit NOFILE = new OpenFileLimit(8192, 8192, "/proc/42/limits");

  @Test
  void theLimitsAskedForReadBackAsNoDifference() {
    assertThat(new AppliedLimits("2-3", 512 * MIB, NOFILE, "cgroup-v1 files").differences(ASKED)).isEmpty();
    assertThat(new AppliedLimits("2,3", 512 * MIB, NOFILE, "docker inspect").differences(ASKED))
        .as("the same CPUs written another way").isEmpty();
    assertThat(new AppliedLimits("2-3", 512 * MIB + 4095, NOFILE, "cgroup-v1 files").differences(ASKED))
        .as("the kernel keeps a memory limit in whole pages").isEmpty();
  }

  @Test
  void everyDifferenceIsNamed() {
    assertThat(new AppliedLimits("1", 256 * MIB, new OpenFileLimit(1024, 4096, "x"), "docker inspect").differences(ASKED))
        .containsExactly("CPU set 1 instead of 2-3", "memory limit 268435456 B instead of 536870912 B",
            "open-file limit 1024:4096 instead of 8192:8192");
    assertThat(new AppliedLimits("2-3", -1, null, "cgroup-v2 files").differences(ASKED))
        .containsExactly("memory limit none instead of 536870912 B", "open-file limit unknown instead of 8192:8192");
  }

  @Test
  void aMemoryLimitFileReadsAsBytesOrNone() {
    assertThat(AppliedLimits.memoryValue("536870912\n")).isEqualTo(512 * MIB);
    assertThat(AppliedLimits.memoryValue("max\n")).isEqualTo(-1);
  }
}
