package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReproduceCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path results;

  @BeforeEach
  void writeResults() throws Exception {
    results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
  }

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void anEntryTheFileDoesNotHoldIsAUsageErrorThatListsTheOnesItHas() {
    assertThat(execute("reproduce", results.toString(), "go-gin", "json")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("has no entry go-gin").contains("steady-entry, fast-entry, absent-entry");
  }

  @Test
  void theCalibrationServerIsNotAnEntryToReproduce() {
    assertThat(execute("reproduce", results.toString(), "nginx", "json")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("has no entry nginx");
  }

  @Test
  void aCellTheEntryDidNotHaveIsAUsageError() {
    assertThat(execute("reproduce", results.toString(), "steady-entry", "validate")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("steady-entry has no validate cell");
  }

  @Test
  void anUnknownEndpointIsAUsageError() {
    assertThat(execute("reproduce", results.toString(), "steady-entry", "xml")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown endpoint \"xml\"");
  }
}
