package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fairbench.orchestrator.TinyTmpfs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On a disk that really fills up (a tiny tmpfs), a failed write leaves the previous results.json whole. */
class ResultsJsonDiskFullTest {
  @TempDir Path output;

  @Test
  void aWriteThatRunsOutOfSpaceNeverTruncatesTheResultsFile() throws IOException {
    Path mountPoint = Files.createDirectories(output.resolve("tiny"));
    TinyTmpfs[] tmpfs = new TinyTmpfs[1];
    String cannot = TinyTmpfs.mount(mountPoint, "256k", tmpfs);
    assumeTrue(cannot == null, cannot);
    try (TinyTmpfs disk = tmpfs[0]) {
      Path file = disk.dir().resolve("results.json");
      ResultsDocument small = document(List.of("a break"));
      ResultsJson.write(small, file);
      String written = Files.readString(file);
      fill(disk.dir().resolve("filler"));

      ResultsDocument big = document(Collections.nCopies(2000, "x".repeat(100)));
      assertThatThrownBy(() -> ResultsJson.write(big, file)).isInstanceOf(IOException.class);

      assertThat(Files.readString(file)).as("the last complete results file is intact").isEqualTo(written);
      assertThat(ResultsJson.read(file).breaks()).containsExactly("a break");
      try (var files = Files.list(disk.dir())) {
        assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left")
            .containsExactlyInAnyOrder("results.json", "filler");
      }
    }
  }

  private static ResultsDocument document(List<String> breaks) {
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, ResultsDocument.METHOD_VERSION, null, null, List.of(),
        null, breaks, List.of());
  }

  /** Writes until the disk is full. */
  private static void fill(Path filler) {
    byte[] chunk = new byte[4096];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      // the disk is full now
    }
  }
}
