package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.core.ProbePages;
import dev.fairbench.orchestrator.report.ResultsFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
  /** Set -Dfairbench.golden.update=true to rewrite the golden files after a deliberate schema change. */
  static final boolean UPDATE = Boolean.getBoolean("fairbench.golden.update");

  @TempDir Path dir;

  @Test
  void theSchemaIsSealedByAGoldenFile() throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), file);
    Path golden = Path.of(System.getProperty("fairbench.root", "..")).resolve(
        "orchestrator/src/test/resources/results/golden-results.json");
    if (UPDATE) {
      Files.copy(file, golden, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    String expected;
    try (var in = ResultsJsonTest.class.getResourceAsStream("/results/golden-results.json")) {
      expected = UPDATE ? Files.readString(golden) : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    assertThat(ResultsJson.mapper().readTree(file.toFile()))
        .as("a change here changes the results schema: update docs/RESULTS.md and the golden file together")
        .isEqualTo(ResultsJson.mapper().readTree(expected));
    assertThat(ResultsJson.read(file)).isEqualTo(ResultsFixtures.mixed());
  }

  @Test
  void theMemoryProbesPagesAreWrittenByTheirSizeAndReadBack() throws Exception {
    ResultsDocument d = ResultsFixtures.mixed();
    ResultsDocument onHugePages = new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(),
        d.method().withMemoryProbePages(ProbePages.HUGE), d.rounds(), d.calibration(), d.breaks(), d.entries(),
        d.invocation());
    Path file = dir.resolve("results.json");
    ResultsJson.write(onHugePages, file);

    assertThat(ResultsJson.mapper().readTree(file.toFile()).path("method").path("memoryProbePages").asText())
        .isEqualTo("2 MiB");
    assertThat(ResultsJson.read(file).method().memoryProbePages()).isEqualTo(ProbePages.HUGE);
    Path small = Files.writeString(dir.resolve("small.json"), Files.readString(file).replace("\"2 MiB\"", "\"4 KiB\""));
    assertThat(ResultsJson.read(small).method().memoryProbePages()).isEqualTo(ProbePages.SMALL);
  }

  @Test
  void howTheIntervalsWereDrawnIsWrittenAndReadBackAndAFileThatDoesNotSayUsedOrderStatistics() throws Exception {
    ResultsDocument d = ResultsFixtures.mixed();
    ResultsDocument interpolated = new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(),
        d.method().withMedianInterval(MedianIntervalKind.INTERPOLATED), d.rounds(), d.calibration(), d.breaks(),
        d.entries(), d.invocation());
    Path file = dir.resolve("results.json");
    ResultsJson.write(interpolated, file);

    assertThat(ResultsJson.mapper().readTree(file.toFile()).path("method").path("medianInterval").asText())
        .isEqualTo("interpolated order statistics");
    assertThat(ResultsJson.read(file).method().intervalKind()).isEqualTo(MedianIntervalKind.INTERPOLATED);
    Path older = dir.resolve("older.json");
    ResultsJson.write(d, older);
    assertThat(ResultsJson.mapper().readTree(older.toFile()).path("method").has("medianInterval")).isFalse();
    assertThat(ResultsJson.read(older).method().intervalKind()).isEqualTo(MedianIntervalKind.ORDER_STATISTICS);
  }

  @Test
  void aFigureThereIsNoneOfIsWrittenAsNullNeverAsNaNAndReadBackAsNaN() throws Exception {
    ResultsDocument silent = ResultsFixtures.silent();
    Path file = dir.resolve("results.json");
    ResultsJson.write(silent, file);
    String text = Files.readString(file);

    assertThat(text).doesNotContain("NaN").contains("\"cpuMicrosPerRequest\" : null")
        .contains("\"microsPerRequest\" : null").contains("\"littlesLaw\" : null");
    assertThat(ResultsJson.read(file)).isEqualTo(silent);

    Path before = dir.resolve("written-before.json");
    Files.writeString(before, text.replaceAll("(\"(cpuMicrosPerRequest|microsPerRequest|littlesLaw)\" : )null", "$1\"NaN\""));
    assertThat(Files.readString(before)).as("a file of an older fairbench").contains("\"littlesLaw\" : \"NaN\"");
    assertThat(ResultsJson.read(before)).isEqualTo(silent);
  }

  @Test
  void anEntrysVersionsComeFrameworkFirstThenByNameWhateverOrderTheyWereRecordedIn() throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), file);
    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) ResultsJson.mapper().readTree(file.toFile());
    var versions = ((com.fasterxml.jackson.databind.node.ObjectNode) tree.withArray("entries").get(0)).putObject("versions");
    versions.put("server", "uvicorn 0.54.0").put("runtime", "Python 3.11.7").put("framework", "0.165.0");
    ResultsJson.mapper().writeValue(file.toFile(), tree);

    assertThat(ResultsJson.read(file).entries().get(0).versions().keySet()).containsExactly("framework", "runtime", "server");
  }

  @Test
  void writesAtomicallyAndReadsBack() throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.document(1, java.util.List.of()), file);
    ResultsJson.write(ResultsFixtures.mixed(), file);

    assertThat(ResultsJson.read(file)).isEqualTo(ResultsFixtures.mixed());
    assertThat(Files.readString(file)).contains("\"status\" : \"measured\"").contains("\"2026-11-30T12:00:00Z\"")
        .contains("\"methodVersion\" : \"rounds-1\"").contains("\"role\" : \"calibration\"");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("no temporary file is left beside the results").containsExactly(file);
    }
  }
}
