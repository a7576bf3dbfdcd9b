package dev.fairbench.orchestrator.cli;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.runs;
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
    ResultsDocument doc = derived(document(rps.length, List.of(measured("go-gin", "Gin", List.of(cell("json", runs(rps))),
        conformance(0, List.of())))));
    Path file = dir.resolve(name);
    ResultsJson.write(doc, file);
    return file;
  }

  @Test
  void aTenPercentDropIsSignificantAndWrittenAsMarkdownAndHtml() throws Exception {
    Path before = results("before.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path after = results("after.json", 9_000, 9_040, 8_990, 9_010, 8_980, 9_030, 9_000, 8_970, 9_020);
    Path html = dir.resolve("compare.html");
    assertThat(execute("compare", before.toString(), after.toString(), "--html", html.toString())).isZero();
    assertThat(out.toString()).contains("| go-gin | json | req/s | 10,000 | 9,000 | -10.0% [").contains("| significant |");
    assertThat(Files.readString(html)).contains("<tr class=\"SIGNIFICANT\">");
  }

  @Test
  void twoMeasurementsOfTheSameThingAreNotSignificant() throws Exception {
    assertThat(execute("compare",
        results("a.json", 10_000, 10_300, 9_800, 10_100, 9_900, 10_050, 10_200, 9_950, 10_000).toString(),
        results("b.json", 10_100, 9_900, 10_200, 10_000, 9_850, 10_250, 10_050, 9_950, 10_150).toString())).isZero();
    assertThat(out.toString()).contains("| ~ |");
  }

  @Test
  void aMissingFileIsAUsageError() throws Exception {
    assertThat(execute("compare", dir.resolve("nope.json").toString(), results("b.json", 1, 2, 3).toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("no such file");
  }

  @Test
  void aFileOfTheOldSequentialSchemaIsRefusedWithTheReason() throws Exception {
    Path old = dir.resolve("old.json");
    Files.writeString(old, "{\"schemaVersion\":1,\"environment\":{},\"entries\":[]}");
    assertThat(execute("compare", old.toString(), results("b.json", 1, 2, 3).toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("schema 1").contains("re-measure");
  }

  @Test
  void anUnknownNormalizationIsAUsageError() throws Exception {
    Path a = results("a.json", 1, 2, 3);
    assertThat(execute("compare", a.toString(), a.toString(), "--normalize", "median")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown normalization");
  }

  @Test
  void severalRunsASideAreGivenSeparatedByCommas() throws Exception {
    Path a1 = results("a1.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path a2 = results("a2.json", 10_100, 9_900, 10_200, 10_000, 9_850, 10_250, 10_050, 9_950, 10_150);
    Path b1 = results("b1.json", 10_000, 10_300, 9_800, 10_100, 9_900, 10_050, 10_200, 9_950, 10_000);
    Path b2 = results("b2.json", 9_950, 10_020, 10_080, 9_990, 10_010, 9_960, 10_040, 10_000, 10_030);
    Path html = dir.resolve("compare.html");
    assertThat(execute("compare", a1 + "," + a2, b1 + "," + b2, "--html", html.toString())).isZero();
    assertThat(out.toString()).contains("2 runs before, 2 after.").contains("| go-gin | json | req/s |");
    assertThat(Files.readString(html)).contains(a1 + ", " + a2);
  }

  @Test
  void entriesOfOneRunCannotBeGivenSeveralFiles() throws Exception {
    Path a = results("a.json", 1, 2, 3);
    assertThat(execute("compare", a + "," + a, "--entries", "go-gin,go-gin")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("ONE results file");
  }

  @Test
  void aRunGivenTwiceOnASideIsRefused() throws Exception {
    Path a1 = results("a1.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path copy = dir.resolve("copy-of-a1.json");
    Files.copy(a1, copy);
    Path b1 = results("b1.json", 10_000, 10_300, 9_800, 10_100, 9_900, 10_050, 10_200, 9_950, 10_000);
    assertThat(execute("compare", a1 + "," + copy, b1.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("BEFORE file 1 and BEFORE file 2 hold the same run").contains("give each run once");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aRunFolderStandsForItsResultsFile() throws Exception {
    Path before = Files.createDirectories(dir.resolve("before"));
    Path after = Files.createDirectories(dir.resolve("after"));
    Files.move(results("a.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000),
        before.resolve("results.json"));
    Files.move(results("b.json", 9_000, 9_040, 8_990, 9_010, 8_980, 9_030, 9_000, 8_970, 9_020),
        after.resolve("results.json"));
    assertThat(execute("compare", before.toString(), after.toString())).isZero();
    assertThat(out.toString()).contains("| go-gin | json | req/s | 10,000 | 9,000 | -10.0% [");
  }

  @Test
  void aFolderWithoutResultsAndAnEmptyNameAreUsageErrors() throws Exception {
    Path b = results("b.json", 1, 2, 3);
    Path logs = Files.createDirectories(dir.resolve("logs"));
    assertThat(execute("compare", logs.toString(), b.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("is a folder with no results.json in it");
    assertThat(execute("compare", b + ",," + b, b.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("an empty file name");
  }

  @Test
  void anEntryGivenTwiceInAFileIsRefusedWithTheFieldNamed() throws Exception {
    Path before = results("before.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    var root = (com.fasterxml.jackson.databind.node.ObjectNode) ResultsJson.mapper().readTree(before.toFile());
    root.withArray("entries").add(root.withArray("entries").get(0).deepCopy());
    Path twice = dir.resolve("twice.json");
    ResultsJson.mapper().writeValue(twice.toFile(), root);
    assertThat(execute("compare", before.toString(), twice.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("twice.json: field `entries[", "names two entries");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void anOutputThatIsOneOfTheResultsFilesIsRefusedAndTheFileKept() throws Exception {
    Path before = results("before.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path after = results("after.json", 9_000, 9_040, 8_990, 9_010, 8_980, 9_030, 9_000, 8_970, 9_020);
    String kept = Files.readString(after);
    assertThat(execute("compare", before.toString(), after.toString(), "--html", after.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--html " + after + " is the results file being read");
    assertThat(Files.readString(after)).isEqualTo(kept);
  }

  @Test
  void aCellWhoseRunsAreAllZeroSaysSoAndNotThatTheCalibrationIsMissing() throws Exception {
    Path before = results("before.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path after = results("after.json", 0, 0, 0, 0, 0, 0, 0, 0, 0);
    assertThat(execute("compare", before.toString(), after.toString())).isZero();
    assertThat(out.toString()).contains("| go-gin | json | req/s |", "no counted run of a side has a req/s above zero")
        .doesNotContain("calibration server has no measured run");
  }

  @Test
  void anEmptyNameInEntriesIsAUsageError() throws Exception {
    Path a = results("a.json", 1, 2, 3);
    assertThat(execute("compare", a.toString(), "--entries", ",go-gin")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--entries has an empty name");
  }

  @Test
  void theSameRunOnBothSidesIsRefusedAsWithSeveralRunsASide() throws Exception {
    Path a = results("a.json", 10_000, 10_050, 9_980, 10_020, 9_990, 10_010, 10_040, 9_970, 10_000);
    Path copy = dir.resolve("copy.json");
    Files.copy(a, copy);
    assertThat(execute("compare", a.toString(), copy.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("BEFORE and AFTER hold the same run");
    assertThat(out.toString()).isEmpty();
  }
}
