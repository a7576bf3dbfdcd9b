package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OpenFilesTest {
  @Test
  void readsTheMaxOpenFilesLineOfProcLimits() {
    List<String> limits = List.of(
        "Limit                     Soft Limit           Hard Limit           Units     ",
        "Max cpu time              unlimited            unlimited            seconds   ",
        "Max open files            8192                 20000                files     ",
        "Max locked memory         8388608              8388608              bytes     ");
    OpenFileLimit limit = OpenFiles.ofProcLimits(limits, "/proc/1/limits").orElseThrow();
    assertThat(limit).isEqualTo(new OpenFileLimit(8192, 20000, "/proc/1/limits"));
    assertThat(limit.describe()).isEqualTo("8192:20000");
    assertThat(limit.is(8192)).isFalse();
    assertThat(OpenFiles.ofProcLimits(List.of("Max open files  unlimited  unlimited  files"), "x").orElseThrow()
        .describe()).isEqualTo("unlimited:unlimited");
    assertThat(OpenFiles.ofProcLimits(List.of("Max cpu time  1  1  seconds"), "x")).isEmpty();
  }

  @Test
  void theWrappedCommandRunsUnderTheLimitAsTheSameProcess() throws Exception {
    Path out = Files.createTempFile("nofile", ".txt");
    try {
      Process p = new ProcessBuilder(OpenFiles.wrap(4000, List.of("sh", "-c", "echo $$; cat /proc/self/limits")))
          .redirectOutput(out.toFile()).start();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      List<String> lines = Files.readAllLines(out);
      assertThat(Long.parseLong(lines.getFirst().trim())).as("exec keeps the pid").isEqualTo(p.pid());
      assertThat(OpenFiles.ofProcLimits(lines, "x").orElseThrow().is(4000)).as(String.join("\n", lines)).isTrue();
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @Test
  void aLimitThatCannotBeSetExitsWithItsOwnCode() throws Exception {
    // No limit can be raised past the kernel's fs.nr_open, not even by root, and nr_open is at most 2^30 - 8.
    Process p = new ProcessBuilder(OpenFiles.wrap(Integer.MAX_VALUE, List.of("true"))).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isEqualTo(OpenFiles.EXIT_CODE);
  }
}
