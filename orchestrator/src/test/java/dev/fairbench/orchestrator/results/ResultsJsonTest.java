package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
  @TempDir Path dir;

  static ResultsDocument sample(EntryStatus status) {
    Environment env = new Environment(Instant.parse("2026-11-30T12:00:00Z"), "host", "AMD EPYC", 2, "6.1", "v1",
        "cgroup-v1", "", "native", "wrk 4.1.0", "25", "abc123", false,
        new Environment.LimitsRecord("1", "0", 512L << 20, 1),
        new Environment.LoadSettings(5, 2, 3, 64, 1, 2, 0), List.of("plaintext"));
    EntryResult entry = new EntryResult("e", "e", "default", "Go", "Gin", Map.of("framework", "1.0"), "threads", status,
        "", "", null, List.of());
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, env, List.of(entry));
  }

  @Test
  void writesAtomicallyAndReadsBack() throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(sample(EntryStatus.INTERRUPTED), file);
    ResultsJson.write(sample(EntryStatus.MEASURED), file);

    ResultsDocument read = ResultsJson.read(file);
    assertThat(read).isEqualTo(sample(EntryStatus.MEASURED));
    assertThat(Files.readString(file)).contains("\"status\" : \"measured\"").contains("\"2026-11-30T12:00:00Z\"");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("no temporary file is left beside the results").containsExactly(file);
    }
  }
}
