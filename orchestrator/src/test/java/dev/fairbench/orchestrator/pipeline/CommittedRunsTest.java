package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.Drift;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

  /** The run folders git tracks: a user's own runs under results/ are not the project's evidence. */
  static Stream<Path> committedRuns() throws IOException, InterruptedException {
    Process git = new ProcessBuilder("git", "ls-files", "--", "results").directory(Path.of("..").toFile())
        .redirectErrorStream(true).start();
    String listing = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(git.waitFor()).as("git ls-files results: %s", listing).isZero();
    return listing.lines().filter(line -> line.endsWith("/results.json")).map(line -> Path.of("..", line).getParent())
        .sorted().toList().stream();
  }

  @Test
  void theTreeHoldsCommittedRuns() throws Exception {
    assertThat(committedRuns()).as("results/ read from " + Path.of("").toAbsolutePath()).hasSizeGreaterThan(10);
  }

  @ParameterizedTest
  @MethodSource("committedRuns")
  void everyFigureReDerivesFromTheRecordedRuns(Path run) throws IOException {
    ResultsDocument document = ResultsJson.read(run.resolve("results.json"));
    List<String> differences = Drift.between(document, Derivation.derive(document));
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
}
