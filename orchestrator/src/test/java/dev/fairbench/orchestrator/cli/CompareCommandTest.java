package dev.fairbench.orchestrator.cli;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.environment;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CompareCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private Path results(String name, double... rps) throws Exception {
    ResultsDocument doc = new ResultsDocument(ResultsDocument.SCHEMA_VERSION, environment(), List.of(measured("go-gin", "Gin",
        List.of(cell("/json", java.util.Arrays.stream(rps).mapToObj(r -> run(r, 0.5, 0)).toList())), conformance(0, List.of()))));
    Path file = dir.resolve(name);
    ResultsJson.write(doc, file);
    return file;
  }

  @Test
  void tellsARealChangeFromNoiseAndWritesMarkdownAndHtml() throws Exception {
    Path before = results("before.json", 10_000, 10_050, 9_980);
    Path after = results("after.json", 9_000, 9_040, 8_990);
    Path html = dir.resolve("compare.html");
    assertThat(execute("compare", before.toString(), after.toString(), "--html", html.toString())).isZero();
    assertThat(out.toString()).contains("| go-gin | /json | 10,000 | 9,000 | -10.0% | REAL |");
    assertThat(Files.readString(html)).contains("<tr class=\"REAL\">");
  }

  @Test
  void twoMeasurementsOfTheSameThingAreNoise() throws Exception {
    assertThat(execute("compare", results("a.json", 10_000, 10_300, 9_800).toString(),
        results("b.json", 10_100, 9_900, 10_200).toString())).isZero();
    assertThat(out.toString()).contains("| NOISE |");
  }

  @Test
  void aMissingFileIsAUsageError() throws Exception {
    assertThat(execute("compare", dir.resolve("nope.json").toString(), results("b.json", 1, 2, 3).toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("no such file");
  }
}
