package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The runs committed under results/ are the project's evidence: a reader must be able to take any
 * figure in them back to the runs it came from. So every committed results.json re-derives to itself
 * from its recorded runs with this fairbench's statistics, and the reports and runs.csv beside it
 * are what this fairbench renders from it (`fairbench report --rederive` remakes them after a change).
 */
class CommittedRunsTest {
  @TempDir static Path rendered;

  static Stream<Path> committedRuns() throws IOException {
    try (Stream<Path> files = Files.walk(Path.of("..", "results"))) {
      return files.filter(p -> p.getFileName().toString().equals("results.json")).map(Path::getParent).sorted()
          .toList().stream();
    }
  }

  @Test
  void theTreeHoldsCommittedRuns() throws IOException {
    assertThat(committedRuns()).as("results/ read from " + Path.of("").toAbsolutePath()).hasSizeGreaterThan(10);
  }

  @ParameterizedTest
  @MethodSource("committedRuns")
  void everyFigureReDerivesFromTheRecordedRuns(Path run) throws IOException {
    ResultsDocument document = ResultsJson.read(run.resolve("results.json"));
    List<String> differences = new ArrayList<>();
    differences("$", ResultsJson.mapper().valueToTree(document),
        ResultsJson.mapper().valueToTree(Derivation.derive(document)), differences);
    assertThat(differences).as("%s: figures that re-derive differently from its runs", run).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("committedRuns")
  void theReportsBesideItAreWhatItRendersTo(Path run) throws IOException {
    Path out = Files.createDirectories(rendered.resolve(run.toString().replace("..", "up").replace('/', '_')));
    Reports.writeAll(ResultsJson.read(run.resolve("results.json")), out);
    for (String file : List.of("report.md", "report.html", "fairness.md", "runs.csv")) {
      assertThat(out.resolve(file)).as("%s/%s", run, file).hasSameTextualContentAs(run.resolve(file));
    }
  }

  /** Paths whose values differ; numbers equal to 1e-9 relative (a JSON round trip of a double). */
  private static void differences(String path, JsonNode before, JsonNode after, List<String> out) {
    if (before.isObject() && after.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      before.fieldNames().forEachRemaining(names::add);
      after.fieldNames().forEachRemaining(names::add);
      names.forEach(name -> differences(path + "." + name, before.path(name), after.path(name), out));
    } else if (before.isArray() && after.isArray() && before.size() == after.size()) {
      for (int i = 0; i < before.size(); i++) {
        differences(path + "[" + i + "]", before.get(i), after.get(i), out);
      }
    } else if (before.isNumber() && after.isNumber()) {
      double b = before.asDouble();
      if (Math.abs(b - after.asDouble()) > 1e-9 * Math.max(1, Math.abs(b))) {
        out.add(path + ": " + before + " → " + after);
      }
    } else if (!before.equals(after)) {
      out.add(path + ": " + abbreviate(before) + " → " + abbreviate(after));
    }
  }

  private static String abbreviate(JsonNode node) {
    String s = node.toString();
    return s.length() > 120 ? s.substring(0, 120) + "…" : s;
  }
}
