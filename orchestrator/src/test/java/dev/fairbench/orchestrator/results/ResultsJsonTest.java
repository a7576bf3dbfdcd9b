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

  /** A document with every kind of field filled, to seal the schema documented in docs/RESULTS.md. */
  static ResultsDocument full() {
    RunRecord run = new RunRecord(120_000, 5.0, 24_000.0, 9_000_000, 3, new RunRecord.SocketErrors(0, 1, 0, 2),
        new RunRecord.LatencyRecord(2500, 3100, 4800, 9000, 15_000, 2650.5), 4.2, 157_286_400, 183_500_800, 4.4, 0.88);
    CellStats stats = new CellStats(24_000, 23_500, 24_400, 0.02, 41.67, 35.0, 2500, 4800, 157_286_400, 0.88, false, false);
    CellResult cell = new CellResult("plaintext", CellResult.MEASURED, "", List.of(run), stats,
        new dev.fairbench.orchestrator.runtime.WorkerObservation("threads", 1, 1, 1, 1, 18, 1, true,
            List.of("vert.x-eventloo (93%)")),
        List.of());
    EntryResult measured = new EntryResult("java-reference", "java-reference", "default", "Java", "Vert.x",
        Map.of("framework", "5.0.7"), "threads", EntryStatus.MEASURED, "", "",
        new ConformanceSummary("PASS", 59, 0, 0, List.of(), List.of(), "conformance/java-reference.json"), List.of(cell));
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, sample(EntryStatus.MEASURED).environment(),
        List.of(measured));
  }

  @Test
  void theSchemaIsSealedByAGoldenFile() throws Exception {
    String golden;
    try (var in = ResultsJsonTest.class.getResourceAsStream("/results/golden-results.json")) {
      golden = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    Path file = dir.resolve("results.json");
    ResultsJson.write(full(), file);

    assertThat(ResultsJson.mapper().readTree(file.toFile()))
        .as("a change here changes the results schema: update docs/RESULTS.md and the golden file together")
        .isEqualTo(ResultsJson.mapper().readTree(golden));
    assertThat(ResultsJson.read(file)).isEqualTo(full());
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
