package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fairbench.orchestrator.core.ProbePages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void hugePagesWhereTheKernelGivesThemAlwaysOrOnTheJvmsRequestAndTheProcessHoldsABuffersWorth() {
    long enough = MemoryProbe.MEGABYTES * 1024L;
    assertThat(MemoryProbe.pages("always", false, enough, MemoryProbe.MEGABYTES)).isEqualTo(ProbePages.HUGE);
    assertThat(MemoryProbe.pages("madvise", true, enough, MemoryProbe.MEGABYTES)).isEqualTo(ProbePages.HUGE);
    assertThat(MemoryProbe.pages("madvise", false, enough, MemoryProbe.MEGABYTES)).as("not asked for")
        .isEqualTo(ProbePages.SMALL);
    assertThat(MemoryProbe.pages("never", true, enough, MemoryProbe.MEGABYTES)).isEqualTo(ProbePages.SMALL);
    assertThat(MemoryProbe.pages(null, true, enough, MemoryProbe.MEGABYTES)).as("no such setting")
        .isEqualTo(ProbePages.SMALL);
    assertThat(MemoryProbe.pages("madvise", true, enough - 1, MemoryProbe.MEGABYTES))
        .as("offered, but the kernel found fewer free 2 MiB blocks than the buffer needs").isEqualTo(ProbePages.SMALL);
    assertThat(MemoryProbe.pages("always", true, -1, MemoryProbe.MEGABYTES)).as("unreadable").isEqualTo(ProbePages.SMALL);
  }

  @Test
  void theKernelsSettingIsItsBracketedChoiceAndTheHugePagesAreSmapsAnonHugePages(@TempDir Path dir) throws IOException {
    Path setting = Files.writeString(dir.resolve("enabled"), "always [madvise] never\n");
    Path rollup = Files.writeString(dir.resolve("smaps_rollup"), """
        55d1c8e4a000-7ffd5a5f1000 ---p 00000000 00:00 0                          [rollup]
        Rss:              412340 kB
        AnonHugePages:    415744 kB
        ShmemPmdMapped:        0 kB
        """);

    assertThat(MemoryProbe.setting(setting)).isEqualTo("madvise");
    assertThat(MemoryProbe.setting(dir.resolve("missing"))).isNull();
    assertThat(MemoryProbe.hugeKib(rollup)).isEqualTo(415_744);
    assertThat(MemoryProbe.hugeKib(dir.resolve("missing"))).isEqualTo(-1);
  }

  /**
   * A JVM started as the launcher starts it where the kernel gives huge pages on request reads on them; one
   * started without asking reads on 4 KiB pages.
   */
  @Test
  void theLaunchersJvmReadsOnHugePagesAndAPlainOneOnSmallOnes() throws Exception {
    assumeTrue("madvise".equals(MemoryProbe.setting(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"))),
        "the kernel gives transparent huge pages on request");
    assertThat(pagesInAJvm("-XX:+UseTransparentHugePages")).isEqualTo("2 MiB");
    assertThat(pagesInAJvm("-XX:-UseTransparentHugePages")).isEqualTo("4 KiB");
  }

  private static String pagesInAJvm(String option) throws Exception {
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), option,
        "-cp", System.getProperty("java.class.path"), PagesHere.class.getName()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the JVM ended").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  /** Prints the pages a memory probe made in this JVM reads on. */
  static final class PagesHere {
    public static void main(String[] args) {
      System.out.print(new MemoryProbe().pages().wireName());
    }
  }
}
