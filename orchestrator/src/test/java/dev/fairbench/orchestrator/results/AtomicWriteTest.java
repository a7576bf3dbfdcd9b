package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicWriteTest {
  @TempDir Path dir;

  @Test
  void aNewFileIsReadableAsAFileWrittenInPlaceWouldBeNotOwnerOnly() throws Exception {
    Path inPlace = Files.writeString(dir.resolve("in-place.md"), "x");
    Path target = dir.resolve("report.md");
    AtomicWrite.replace(target, ".report-", ".tmp", file -> Files.writeString(file, "# report"));
    assertThat(Files.readString(target)).isEqualTo("# report");
    assertThat(Files.getPosixFilePermissions(target)).isEqualTo(Files.getPosixFilePermissions(inPlace))
        .contains(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
  }

  @Test
  void aReplacedFileKeepsItsPermissions() throws Exception {
    Path target = Files.writeString(dir.resolve("results.json"), "{}");
    Set<PosixFilePermission> chosen = PosixFilePermissions.fromString("rw-rw-r--");
    Files.setPosixFilePermissions(target, chosen);
    AtomicWrite.replace(target, ".results-", ".tmp", file -> Files.writeString(file, "{\"a\":1}"));
    assertThat(Files.readString(target)).isEqualTo("{\"a\":1}");
    assertThat(Files.getPosixFilePermissions(target)).isEqualTo(chosen);
  }

  @Test
  void noTemporaryFileIsLeftBehindWhenTheContentFails() throws Exception {
    Path target = dir.resolve("runs.csv");
    try {
      AtomicWrite.replace(target, ".runs-", ".tmp", file -> {
        throw new IOException("disk full");
      });
    } catch (IOException expected) {
      assertThat(expected).hasMessage("disk full");
    }
    try (var left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }
  }
}
