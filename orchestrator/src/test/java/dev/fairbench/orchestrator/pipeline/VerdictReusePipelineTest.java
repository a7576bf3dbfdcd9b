package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run reuses the conformance verdict of an earlier check whose entry, suite, toolchain, runtime and limits hash
 * the same, and says so in its results and reports; `--fresh-conformance`, or a changed file, runs the suite again.
 */
class VerdictReusePipelineTest {
  static final String ID = "tiny-python:stdlib";

  @TempDir static Path temp;
  static String previousProperty;
  static CliRun checked;
  static CliRun reusing;
  static CliRun fresh;
  static CliRun edited;

  static CliRun run(String name, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("run", "--runtime", "native", "--impls",
        temp.resolve("impls").toString(), ID, "--endpoints", "json", "--warmup", "0", "--rewarm", "0", "--rounds", "1",
        "--duration", "1s", "--no-calibration", "--startups", "1", "--connections", "8", "--output",
        temp.resolve(name).toString()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @BeforeAll
  static void checkThenRunThenRunAfreshThenEdit() throws Exception {
    TestEntries.copyTree(TestEntries.impls().resolve("tiny-python"), temp.resolve("impls/tiny-python"));
    previousProperty = System.getProperty(FairbenchPaths.VERDICTS_PROPERTY);
    System.setProperty(FairbenchPaths.VERDICTS_PROPERTY, temp.resolve("verdicts").toString());
    checked = CliRun.of("conformance", "--runtime", "native", "--impls", temp.resolve("impls").toString(), ID,
        "--output", temp.resolve("checked").toString());
    reusing = run("reusing");
    fresh = run("fresh", "--fresh-conformance");
    Path server = temp.resolve("impls/tiny-python/server.py");
    Files.writeString(server, Files.readString(server) + "\n# an edit: the verdict above is no longer this entry's\n");
    edited = run("edited");
  }

  @AfterAll
  static void restoreTheProperty() {
    if (previousProperty == null) {
      System.clearProperty(FairbenchPaths.VERDICTS_PROPERTY);
    } else {
      System.setProperty(FairbenchPaths.VERDICTS_PROPERTY, previousProperty);
    }
  }

  static ConformanceSummary conformanceOf(String run) throws Exception {
    return ResultsJson.read(temp.resolve(run).resolve("results.json")).entries().getFirst().conformance();
  }

  @Test
  void aRunAfterACheckOfTheSameEntryReusesItsVerdictAndSaysFromWhen() throws Exception {
    assertThat(checked.exitCode()).as(checked.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(reusing.exitCode()).as(reusing.stderr()).isEqualTo(ExitCodes.OK);
    var checkedReport = ConformanceReports.readJson(temp.resolve("checked/conformance/tiny-python_stdlib.json"));

    ConformanceSummary summary = conformanceOf("reusing");
    assertThat(summary.reused()).isNotNull();
    assertThat(summary.reused().checkedAt()).isEqualTo(checkedReport.startedAt());
    assertThat(summary.reused().contentHash()).matches("[0-9a-f]{64}");
    assertThat(summary.verdict()).isEqualTo(checkedReport.overall());
    // The run's folder holds the report it stands on, as it would have had the suite run.
    assertThat(ConformanceReports.readJson(temp.resolve("reusing/conformance/tiny-python_stdlib.json")).startedAt())
        .isEqualTo(checkedReport.startedAt());
    assertThat(reusing.stderr()).contains("reused from " + summary.reused().describe());
    assertThat(Files.readString(temp.resolve("reusing/report.md")))
        .contains("| " + ID + " | " + summary.verdict().name() + " (reused) |")
        .contains("from " + summary.reused().describe())
        .contains("the suite did not run again in this run");
    assertThat(Files.readString(temp.resolve("reusing/fairness.md"))).contains("reused from " + summary.reused().describe());
    assertThat(Files.readString(temp.resolve("reusing/report.html"))).contains("reused from the check of");
  }

  @Test
  void freshConformanceRunsTheSuiteAgain() throws Exception {
    assertThat(fresh.exitCode()).as(fresh.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(conformanceOf("fresh").reused()).isNull();
    assertThat(fresh.stderr()).doesNotContain("reused from");
    assertThat(Files.readString(temp.resolve("fresh/report.md"))).doesNotContain("(reused)");
  }

  @Test
  void anEditedEntryIsCheckedAgain() throws Exception {
    assertThat(edited.exitCode()).as(edited.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(conformanceOf("edited").reused()).isNull();
    assertThat(edited.stderr()).doesNotContain("reused from");
  }
}
