package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OpenFileLimitTest {
  @Test
  void readsTheMaxOpenFilesLineOfProcLimits() {
    List<String> limits = List.of(
        "Limit                     Soft Limit           Hard Limit           Units     ",
        "Max cpu time              unlimited            unlimited            seconds   ",
        "Max open files            8192                 20000                files     ",
        "Max locked memory         8388608              8388608              bytes     ");
    OpenFileLimit limit = OpenFileLimit.ofProcLimits(limits, "/proc/1/limits").orElseThrow();
    assertThat(limit).isEqualTo(new OpenFileLimit(8192, 20000, "/proc/1/limits"));
    assertThat(limit.describe()).isEqualTo("8192:20000");
    assertThat(limit.is(8192)).isFalse();
    assertThat(OpenFileLimit.ofProcLimits(List.of("Max open files  unlimited  unlimited  files"), "x").orElseThrow()
        .describe()).isEqualTo("unlimited:unlimited");
    assertThat(OpenFileLimit.ofProcLimits(List.of("Max cpu time  1  1  seconds"), "x")).isEmpty();
  }

  @Test
  void theWrappedCommandRunsUnderTheLimitAsTheSameProcess() throws Exception {
    Path out = Files.createTempFile("nofile", ".txt");
    try {
      Process p = new ProcessBuilder(OpenFileLimit.wrap(4000, List.of("sh", "-c", "echo $$; cat /proc/self/limits")))
          .redirectOutput(out.toFile()).start();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      List<String> lines = Files.readAllLines(out);
      assertThat(Long.parseLong(lines.getFirst().trim())).as("exec keeps the pid").isEqualTo(p.pid());
      assertThat(OpenFileLimit.ofProcLimits(lines, "x").orElseThrow().is(4000)).as(String.join("\n", lines)).isTrue();
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @Test
  void aLimitThatCannotBeSetExitsWithItsOwnCode() throws Exception {
    // No hard limit can be raised past the kernel's nr_open (1048576 by default), not even by root.
    long nrOpen = Long.parseLong(Files.readString(Path.of("/proc/sys/fs/nr_open")).trim());
    Process p = new ProcessBuilder(OpenFileLimit.wrap((int) Math.min(Integer.MAX_VALUE, nrOpen + 1), List.of("true")))
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(OpenFileLimit.EXIT_CODE);
  }
}
