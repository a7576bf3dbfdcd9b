package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFileTest {
  @TempDir Path dir;

  @Test
  void theLinesOfAStretchAreCountedFromItsOffsets() throws Exception {
    Path log = Files.writeString(dir.resolve("server.log"), "started\n", StandardCharsets.UTF_8);
    long before = LogFile.size(log);
    // More than one 64 KiB read: 20,000 lines of 7 bytes.
    Files.writeString(log, "GET /\n".repeat(20_000) + "no newline yet", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    long after = LogFile.size(log);

    assertThat(after - before).isEqualTo(6 * 20_000 + "no newline yet".length());
    assertThat(LogFile.linesBetween(log, before, after)).isEqualTo(20_000);
    assertThat(LogFile.linesBetween(log, 0, before)).isEqualTo(1);
    assertThat(LogFile.linesBetween(log, after, before)).as("no stretch").isZero();
  }

  @Test
  void aLogThatCannotBeReadHasNoSizeAndNoLines() {
    Path missing = dir.resolve("missing.log");

    assertThat(LogFile.size(missing)).isEqualTo(-1);
    assertThat(LogFile.linesBetween(missing, 0, 100)).isZero();
  }
}
