package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReportCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void writesMarkdownHtmlAndTheFairnessReview() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
    Path html = dir.resolve("out/report.html");
    Path fairness = dir.resolve("out/fairness.md");

    assertThat(execute("report", results.toString(), "--html", html.toString(), "--fairness", fairness.toString()))
        .as(err.toString()).isZero();

    assertThat(out.toString()).contains("steady-entry");
    assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>").contains("svg class=\"chart\"");
    assertThat(Files.readString(fairness)).startsWith("# Fairness review").contains("## absent-entry");
  }

  @Test
  void aFileThatIsNotAResultsFileIsAUsageError() throws Exception {
    Path bogus = Files.writeString(dir.resolve("bogus.json"), "[1,2,3]");
    assertThat(execute("report", bogus.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("is not a fairbench results file");
  }
}
