package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.util.function.Consumer;
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
  void aRunThatMeasuredOnlyZerosHasAResultsFileWithoutNaNThatReportAcceptsAndShowsTruthfully() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.silent(), results);
    assertThat(Files.readString(results)).doesNotContain("NaN");
    Path html = dir.resolve("out/report.html");
    Path fairness = dir.resolve("out/fairness.md");

    assertThat(execute("report", results.toString(), "--html", html.toString(), "--fairness", fairness.toString()))
        .as(err.toString()).isZero();

    assertThat(err.toString()).as("the figures are what the runs give").doesNotContain("warning");
    assertThat(out.toString()).contains("| silent-entry (Lang) | 0 ±—² |").doesNotContain("NaN");
    assertThat(Files.readString(html)).contains("no request was answered").doesNotContain("NaN");
    assertThat(Files.readString(fairness)).contains("no request was answered").doesNotContain("NaN");
  }

  @Test
  void aFigureTheRecordedRunsDoNotGiveIsPointedOutAndTheFileKept() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(dev.fairbench.orchestrator.pipeline.Derivation.derive(ResultsFixtures.mixed()), results);
    assertThat(execute("report", results.toString())).as(err.toString()).isZero();
    assertThat(err.toString()).doesNotContain("warning");

    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) ResultsJson.mapper().readTree(results.toFile());
    var stats = (com.fasterxml.jackson.databind.node.ObjectNode) tree.at("/entries/0/cells/0/stats");
    stats.put("medianRequestsPerSecond", stats.get("medianRequestsPerSecond").asDouble() * 2);
    ResultsJson.mapper().writeValue(results.toFile(), tree);
    String edited = Files.readString(results);

    assertThat(execute("report", results.toString())).as(err.toString()).isZero();
    assertThat(err.toString()).contains("warning: 1 figure in " + results + " differs from what its recorded runs give")
        .contains("$.entries[0].cells[0].stats.medianRequestsPerSecond").contains("--rederive");
    assertThat(Files.readString(results)).isEqualTo(edited);
  }

  @Test
  void aFileThatIsNotAResultsFileIsAUsageError() throws Exception {
    Path bogus = Files.writeString(dir.resolve("bogus.json"), "[1,2,3]");
    assertThat(execute("report", bogus.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("is not a fairbench results file");
  }

  /** The fixture run, written and then broken by {@code damage} on its JSON tree. */
  private Path broken(String name, Consumer<ObjectNode> damage) throws Exception {
    Path file = dir.resolve(name);
    ResultsJson.write(ResultsFixtures.mixed(), file);
    ObjectNode root = (ObjectNode) ResultsJson.mapper().readTree(file.toFile());
    damage.accept(root);
    ResultsJson.mapper().writeValue(file.toFile(), root);
    return file;
  }

  private static ObjectNode entry(ObjectNode root, int index) {
    return (ObjectNode) root.withArray("entries").get(index);
  }

  private static ObjectNode firstRun(ObjectNode root) {
    return (ObjectNode) entry(root, 0).withArray("cells").get(0).withArray("runs").get(0);
  }

  private void assertRefused(Path file, String... fragments) {
    assertThat(execute("report", file.toString())).as(err.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains(fragments).doesNotContain("Exception", "\tat ");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aTruncatedFileIsAUsageErrorThatSaysWhereItStops() throws Exception {
    Path whole = dir.resolve("whole.json");
    ResultsJson.write(ResultsFixtures.mixed(), whole);
    String text = Files.readString(whole);
    Path truncated = Files.writeString(dir.resolve("truncated.json"), text.substring(0, text.length() / 2));
    assertRefused(truncated, "truncated.json is not a fairbench results file", "(line ");
  }

  @Test
  void anUnclosedBracketIsNamedByWhereItOpensWithoutTheParsersSourceNotice() throws Exception {
    assertRefused(Files.writeString(dir.resolve("unclosed.json"), "{\"schemaVersion\": [1, 2}"),
        "unclosed.json is not a fairbench results file", "starting at line 1, column 19", "(line 1, column 24)");
    assertThat(err.toString()).doesNotContain("Source", "REDACTED");
  }

  @Test
  void anEmptyFileAndAJsonArrayAreUsageErrors() throws Exception {
    assertRefused(Files.writeString(dir.resolve("empty.json"), ""), "empty.json is not a fairbench results file: it is empty");
    assertRefused(Files.writeString(dir.resolve("null.json"), "null"), "it holds null, not an object");
  }

  @Test
  void nullWhereAListOrAnObjectBelongsIsAUsageErrorNamingTheField() throws Exception {
    assertRefused(broken("cells.json", root -> entry(root, 0).putNull("cells")),
        "field `entries[0].cells`: null where a list is required");
    assertRefused(broken("cell.json", root -> entry(root, 1).withArray("cells").setNull(0)),
        "field `entries[1].cells[0]`: null where an object is required");
    assertRefused(broken("entries.json", root -> root.remove("entries")), "field `entries`: missing");
    assertRefused(broken("environment.json", root -> root.put("environment", "x")),
        "field `environment`: must be an object, got a string");
  }

  @Test
  void aFileWithoutItsMethodBlockIsAUsageErrorNotACrash() throws Exception {
    assertRefused(broken("method.json", root -> root.putNull("method")), "field `method`: null where an object is required");
    assertRefused(broken("limits.json", root -> ((ObjectNode) root.get("environment")).remove("limits")),
        "field `environment.limits`: missing");
  }

  @Test
  void aMethodBlockWithoutHowTheCellsWereLoadedIsRefusedNotReadAsNoKeepAlive() throws Exception {
    assertRefused(broken("keep-alive.json", root -> ((ObjectNode) root.get("method")).remove("keepAlive")),
        "field `method.keepAlive`: missing");
    assertRefused(broken("pipeline.json", root -> ((ObjectNode) root.get("method")).put("pipeline", "deep")),
        "field `method.pipeline`: must be a number, got");
  }

  @Test
  void aMethodVersionThisFairbenchDoesNotKnowIsRefused() throws Exception {
    assertRefused(broken("future-method.json", root -> root.put("methodVersion", "rounds-99")),
        "field `methodVersion`: \"rounds-99\" is not a method this fairbench knows", "rounds-1");
  }

  @Test
  void aSchemaVersionThatIsNotAWholeNumberIsRefused() throws Exception {
    assertRefused(broken("schema-text.json", root -> root.put("schemaVersion", "2")),
        "field `schemaVersion`: must be a whole number, got a string");
    assertRefused(broken("schema-fraction.json", root -> root.put("schemaVersion", 2.7)),
        "field `schemaVersion`: must be a whole number");
  }

  @Test
  void anEntryGivenTwiceIsRefusedInsteadOfCountedTwice() throws Exception {
    assertRefused(broken("twice.json", root -> root.withArray("entries").add(entry(root, 0).deepCopy())),
        "names two entries (entries[0] too)");
  }

  @Test
  void aCellGivenTwiceInAnEntryIsRefused() throws Exception {
    assertRefused(broken("cell-twice.json", root -> {
      ArrayNode cells = entry(root, 0).withArray("cells");
      cells.add(cells.get(0).deepCopy());
    }), "field `entries[0].cells[", "a second plaintext cell of steady-entry (cells[0] too)");
  }

  @Test
  void aNegativeInfiniteOrAbsurdRateInARunIsRefused() throws Exception {
    assertRefused(broken("negative.json", root -> firstRun(root).put("requestsPerSecond", -5)),
        "field `entries[0].cells[0].runs[0].requestsPerSecond`: negative");
    assertRefused(broken("nan.json", root -> firstRun(root).put("requestsPerSecond", "NaN")),
        "field `entries[0].cells[0].runs[0].requestsPerSecond`: not a finite number");
    assertRefused(broken("huge.json", root -> firstRun(root).put("requestsPerSecond", 1e300)),
        "field `entries[0].cells[0].runs[0].requestsPerSecond`:", "is no measurement");
    assertRefused(broken("timeouts.json", root -> ((ObjectNode) firstRun(root).get("socketErrors")).put("timeout", -1)),
        "field `entries[0].cells[0].runs[0].socketErrors.timeout`: negative");
    assertRefused(broken("p99.json", root -> ((ObjectNode) firstRun(root).get("latencyMicros")).put("p99", -1)),
        "field `entries[0].cells[0].runs[0].latencyMicros.p99`: negative");
  }

  @Test
  void aRunWithoutAFigureItsStatisticsAreMadeOfIsRefusedNotReadAsZero() throws Exception {
    assertRefused(broken("no-rate.json", root -> firstRun(root).remove("requestsPerSecond")),
        "field `entries[0].cells[0].runs[0].requestsPerSecond`: missing");
    assertRefused(broken("no-cpu.json", root -> firstRun(root).remove("serverCpuSeconds")),
        "field `entries[0].cells[0].runs[0].serverCpuSeconds`: missing");
    assertRefused(broken("text-requests.json", root -> firstRun(root).put("requests", "many")),
        "field `entries[0].cells[0].runs[0].requests`: must be a number, got");
    assertRefused(broken("no-counted.json", root -> firstRun(root).remove("counted")),
        "field `entries[0].cells[0].runs[0].counted`: missing");
  }

  @Test
  void aVisitThatIsNeitherTheFirstNorItsRepeatIsRefused() throws Exception {
    assertRefused(broken("visit.json", root -> firstRun(root).put("visit", 0)),
        "field `entries[0].cells[0].runs[0].visit`: must be 1 (the visit) or 2 (the repeat of a disturbed one), got 0");
  }

  @Test
  void aCheckedAnswerOfNoBytesIsRefused() throws Exception {
    assertRefused(broken("answer.json", root -> ((ObjectNode) entry(root, 0).withArray("cells").get(0)).put("answerBytes", 0)),
        "field `entries[0].cells[0].answerBytes`: not the size of an answer (0 bytes)");
  }

  @Test
  void aMeasuredCellWithoutRunsIsRefused() throws Exception {
    assertRefused(broken("no-runs.json", root -> ((ObjectNode) entry(root, 0).withArray("cells").get(0)).putArray("runs")),
        "field `entries[0].cells[0].runs`: the cell is measured but has no counted run");
  }

  @Test
  void anUnknownEndpointIsRefused() throws Exception {
    assertRefused(broken("teapot.json", root -> ((ObjectNode) entry(root, 0).withArray("cells").get(0))
        .put("endpoint", "teapot")), "field `entries[0].cells[0].endpoint`: unknown endpoint \"teapot\"");
  }

  @Test
  void aFileThatCannotBeReadIsAUsageErrorNamingIt() throws Exception {
    // /proc/self/mem is a regular file that answers every read from offset 0 with an I/O error, even to root.
    assertRefused(Path.of("/proc/self/mem"), "cannot read /proc/self/mem");
  }

  @Test
  void aPipeOrALinkToNothingIsNotCalledAMissingFile() throws Exception {
    Path loop = dir.resolve("loop.json");
    Files.createSymbolicLink(loop, dir.resolve("loop2.json"));
    Files.createSymbolicLink(dir.resolve("loop2.json"), loop);
    assertRefused(loop, "loop.json is a symbolic link that leads to no file");
    Path fifo = dir.resolve("fifo.json");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    assertRefused(fifo, "fifo.json is not a regular file");
  }

  @Test
  void anOutputThatIsTheResultsFileItselfIsRefusedAndTheFileKept() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
    String before = Files.readString(results);
    assertThat(execute("report", results.toString(), "--output", dir.resolve("./results.json").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--output", "is the results file being read: it would be overwritten");
    assertThat(execute("report", dir.toString(), "--html", results.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(Files.readString(results)).isEqualTo(before);
  }

  @Test
  void twoOutputsNamingOneFileAreRefusedBeforeEitherIsWritten() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
    Path same = dir.resolve("out/report.md");
    assertThat(execute("report", results.toString(), "--output", same.toString(), "--html", same.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--output and --html both name");
    assertThat(same).doesNotExist();
  }

  @Test
  void anOutputThatCannotBeWrittenIsAUsageErrorNamingTheOptionAndLeavesNoPartialFile() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
    assertThat(execute("report", results.toString(), "--html", dir.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--html " + dir + " is a folder");
    Path underAFile = results.resolve("report.md");
    assertThat(execute("report", results.toString(), "--output", underAFile.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("cannot write --output " + underAFile, "is a file where a folder is needed");
    assertThat(execute("report", results.toString(), "--output", "/dev/full")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("cannot write --output /dev/full");
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()).toList()).containsExactly("results.json");
    }
  }

  @Test
  void anEntryNameWithMarkdownAndHtmlMetacharactersKeepsEveryTableIntactAndEscaped() throws Exception {
    String hostile = "<script>alert(1)</script>|x`y`\n# heading";
    Path results = broken("hostile.json", root -> {
      ObjectNode e = entry(root, 0);
      e.put("id", hostile);
      e.put("framework", "Fr|am<b>e</b>\n| inj |");
      e.put("reason", "a|b\n\n# heading");
    });
    Path md = dir.resolve("report.md");
    Path html = dir.resolve("report.html");
    Path fairness = dir.resolve("fairness.md");
    assertThat(execute("report", results.toString(), "--output", md.toString(), "--html", html.toString(),
        "--fairness", fairness.toString())).as(err.toString()).isZero();
    for (Path markdown : java.util.List.of(md, fairness)) {
      String text = Files.readString(markdown);
      assertThat(text).doesNotContain("<script>", "<b>").doesNotContain("\n# heading");
      // Every table row has as many unescaped | as its header.
      String[] lines = text.split("\n");
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].startsWith("|---")) {
          long columns = pipes(lines[i - 1]);
          for (int j = i + 1; j < lines.length && lines[j].startsWith("|"); j++) {
            assertThat(pipes(lines[j])).as(markdown.getFileName() + ": " + lines[j]).isEqualTo(columns);
          }
        }
      }
    }
    assertThat(Files.readString(md)).contains("&lt;script>alert(1)&lt;/script>\\|x`y` # heading");
    assertThat(Files.readString(fairness)).contains("## &lt;script>alert(1)&lt;/script>|x`y` # heading — Fr|am&lt;b>e&lt;/b> | inj |");
    assertThat(Files.readString(html)).doesNotContain("<script").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
  }

  private static long pipes(String row) {
    return row.replace("\\|", "").chars().filter(c -> c == '|').count();
  }

  @Test
  void aRunFolderWhoseResultsJsonIsAFolderSaysSo() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run/results.json")).getParent();
    assertRefused(run, "results.json is a folder, not a results file");
  }

  @Test
  void aRunFromARoundTheMethodNeverHadOrImpossibleSettingsAreRefused() throws Exception {
    assertRefused(broken("round.json", root -> firstRun(root).put("round", 999)),
        "field `entries[0].cells[0].runs[0].round`: must be from 1 to", "got 999");
    assertRefused(broken("workers.json", root -> ((ObjectNode) root.get("environment").get("limits")).put("workers", 0)),
        "field `environment.limits.workers`: must be 1 or more, got 0");
    assertRefused(broken("connections.json", root -> ((ObjectNode) root.get("environment").get("load"))
        .put("connections", -5)), "field `environment.load.connections`: negative");
  }

  @Test
  void rederiveIntoAResultsFileThatCannotBeWrittenIsAUsageErrorAndRendersNothing() throws Exception {
    Path results = dir.resolve("results.json");
    ResultsJson.write(ResultsFixtures.mixed(), results);
    // An immutable file cannot be replaced even by root (the tests run as root here).
    org.junit.jupiter.api.Assumptions.assumeTrue(
        new ProcessBuilder("chattr", "+i", dir.toString()).start().waitFor() == 0, "chattr +i works here");
    try {
      assertThat(execute("report", results.toString(), "--rederive")).isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString()).contains("--rederive cannot write the re-derived figures back to " + results)
          .doesNotContain("failed:");
      assertThat(out.toString()).isEmpty();
    } finally {
      new ProcessBuilder("chattr", "-i", dir.toString()).start().waitFor();
    }
  }

  @Test
  void aSecondCalibrationServerIsRefusedInsteadOfOneBeingPickedSilently() throws Exception {
    assertRefused(broken("two-calibrations.json", root -> {
      ObjectNode second = entry(root, 3).deepCopy();
      second.put("id", "nginx2");
      root.withArray("entries").add(second);
    }), "field `entries[4].role`: a second calibration server (entries[3] too)");
  }
}
