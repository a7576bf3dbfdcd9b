package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.SpecClause;
import dev.fairbench.orchestrator.TestEntries;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CliTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path temp;

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new String[] {"list", "conformance", "run", "report"}) {
      assertThat(execute(command, "--help")).as(command).isEqualTo(ExitCodes.OK);
    }
    assertThat(out.toString())
        .contains("Usage: fairbench list").contains("Usage: fairbench conformance")
        .contains("Usage: fairbench run").contains("Usage: fairbench report")
        .contains("--server-cpus").contains("--endpoints").contains("--impls");
  }

  @Test
  void noCommandPrintsUsageAndIsAUsageError() {
    assertThat(execute()).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("Usage: fairbench").contains("conformance").contains("run");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    assertThat(execute("run", "--durration", "5s")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--durration");
  }

  @Test
  void aBadOptionValueIsOneLineAndAPointerToHelpNotTheWholeUsage() {
    assertThat(execute("run", "--seed", "abc")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("fairbench: Invalid value for option '--seed': 'abc' is not a long")
        .contains("Try `fairbench run --help`.").doesNotContain("Usage:");
    assertThat(err.toString().lines().count()).isEqualTo(2);
    assertThat(execute("report")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("Missing required parameter: 'RESULTS.json'", "Try `fairbench report --help`.");
  }

  @Test
  void anEntriesFolderThatIsAFileIsCalledSoNotMissing() throws Exception {
    Path file = Files.writeString(temp.resolve("impls"), "not a folder");
    assertThat(execute("list", "--impls", file.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("the entries folder " + file + " is not a folder");
  }

  @Test
  void listShowsEachEntryAvailableOrWhyNot() {
    assertThat(execute("list", "--runtime", "native", "--impls", TestEntries.impls().toString())).isEqualTo(ExitCodes.OK);
    String listing = out.toString();
    assertThat(listing).containsPattern("tiny-python:stdlib\\s+Python\\s+http.server stdlib\\s+processes\\s+available");
    assertThat(listing).contains("missing-tool").contains("unavailable: missing tool fairbench-no-such-tool");
    assertThat(listing).contains("unavailable: manifest error:").contains("bad-manifest/fairbench.toml")
        .contains("start.comand");
    assertThat(listing).containsPattern("\\d of 6 available with the native runtime \\(limits: ");
  }

  @Test
  void listOfAMissingFolderIsAUsageError() {
    assertThat(execute("list", "--impls", temp.resolve("nope").toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("does not exist");
  }

  @Test
  void anUnknownEntryIsAUsageErrorListingTheKnownOnes() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "nginx")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown entry nginx").contains("known: ").contains("tiny-python:stdlib");

    assertThat(execute("conformance", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:pypy"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("tiny-python:pypy");
  }

  @Test
  void overlappingCpuSetsAreAUsageError() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--server-cpus", "0", "--client-cpus", "0"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("disjoint");
  }

  @Test
  void badDurationsAreUsageErrors() {
    assertThat(execute("run", "--duration", "fast")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("not a duration");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--duration", "500ms"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("at least 1s");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--ladder-duration", "2500ms"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--ladder-duration must be a whole number of seconds, at least 1s, got 2500 ms");
  }

  @Test
  void anUnknownLadderRateRuleIsAUsageError() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--ladder-rate", "nice"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown ladder rate \"nice\"; known: exact, round");
  }

  @Test
  void baselineEndpointsWithoutTheLadderEndpointsAreAUsageError() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--baseline-endpoints", "plaintext"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--baseline-endpoints must include the ladder endpoints");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--baseline-endpoints", "json,nope"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown endpoint \"nope\"");
  }

  @Test
  void ladderRatesFromAFileThatIsMissingOrHasNoLadderAreUsageErrors(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--ladder-rates-from", dir.resolve("none.json").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("none.json: no such file");
    java.nio.file.Path notResults = java.nio.file.Files.writeString(dir.resolve("x.json"), "[1, 2]");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--ladder-rates-from", notResults.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("x.json: cannot read it as a results.json");
    java.nio.file.Path noLadder = java.nio.file.Path.of("..").toAbsolutePath().normalize()
        .resolve("results/reference-2026-12-01/results.json");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--mode", "rate", "--rate", "100",
        "--ladder-rates-from", noLadder.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("this run has no ladder");
  }

  @Test
  void noProcessOrMoreProcessesThanRoundsIsAUsageError() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--forks", "0", NO_SUCH_ENTRY))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--forks must be at least 1, got 0").doesNotContain("unknown entry");
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--rounds", "3", "--forks", "4", NO_SUCH_ENTRY))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--forks (4) must be at most --rounds (3)").doesNotContain("unknown entry");
  }

  @Test
  void pipeliningDeeperThanTheSuiteChecksIsAUsageError() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--pipeline", "257", NO_SUCH_ENTRY))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--pipeline must be at most 256, the deepest burst the conformance suite's "
        + "clause 11.6 checks, got 257").doesNotContain("unknown entry");
  }

  /** An entry that does not exist: were the option accepted, the run would stop there, before anything starts. */
  private static final String NO_SUCH_ENTRY = "no-such-entry";

  @Test
  void anAcceptedFailureMustBeAClauseOfTheSuiteOrTheRunIsRefusedNamingIt() {
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--accept-fail", "4.6,zz, 99.1", NO_SUCH_ENTRY))
        .isEqualTo(ExitCodes.USAGE);
    // Each section's clauses as a range, up to the suite's last clause of it.
    String lastOfSection11 = SpecClause.ALL.stream().map(SpecClause::id).filter(id -> id.startsWith("11.")).toList().getLast();
    assertThat(err.toString()).contains("fairbench: --accept-fail: no clause zz, 99.1 in the conformance suite; its "
            + "clauses are 1.1–1.3, 2.1–2.3, 3.1–3.9, ")
        .contains(", 10.1–10.3, 11.1–" + lastOfSection11 + ", 12.1–12.5 (docs/SPEC.md)")
        .contains("Try `fairbench run --help`.").doesNotContain("unknown entry").doesNotContain("\tat ");
    assertThat(err.toString().lines().count()).isEqualTo(2);

    err.getBuffer().setLength(0);
    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "--accept-fail", "11.6, ,4.6",
        NO_SUCH_ENTRY)).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--accept-fail: no clause \"\" in the conformance suite")
        .contains("Try `fairbench rate --help`.");

    err.getBuffer().setLength(0);
    assertThat(execute("run", "--impls", TestEntries.impls().toString(), "--accept-fail", "11.6,4.6", NO_SUCH_ENTRY))
        .as("clauses the suite has pass on to the entries").isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown entry " + NO_SUCH_ENTRY).doesNotContain("--accept-fail");
  }

  @Test
  void conformanceTakesAUrlOrEntriesNotBoth() {
    assertThat(execute("conformance", "--url", "http://127.0.0.1:1", "tiny-python")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("either --url or entries");
  }

  @Test
  void conformanceRejectsANonHttpUrl() {
    assertThat(execute("conformance", "--url", "ftp://127.0.0.1/")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("absolute http:// URL");
  }

  @Test
  void conformanceRefusesAPortOutOfRangeAsAUsageError() {
    assertThat(execute("conformance", "--url", "http://127.0.0.1:99999")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--url names port 99999; a port is from 1 to 65535").doesNotContain("failed:");
  }

  @Test
  void conformanceRefusesAJsonReportThatIsAFolderBeforeTheSuiteRuns() {
    assertThat(execute("conformance", "--url", "http://127.0.0.1:1", "--json", temp.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--json " + temp + " is a folder").doesNotContain("cannot reach");
  }

  @Test
  void aLadderShareThatIsNotANumberIsAUsageErrorBeforeAnythingStarts() {
    Path output = temp.resolve("nan-run");
    assertThat(execute("run", "tiny-python:stdlib", "--runtime", "native", "--impls", TestEntries.impls().toString(),
        "--no-calibration", "--rounds", "1", "--ladder-share", "NaN", "--output", output.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--ladder-share must be between 0 and 100%");
    assertThat(output).doesNotExist();
  }

  @Test
  void conformanceAgainstNothingListeningIsUnreachable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path json = temp.resolve("report.json");

    assertThat(execute("conformance", "--url", "http://127.0.0.1:" + port, "--json", json.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("cannot reach http://127.0.0.1:" + port);
    assertThat(json).doesNotExist();
  }

  @Test
  void reportOfAMissingOrForeignFileIsAUsageError() throws Exception {
    assertThat(execute("report", temp.resolve("missing.json").toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("no such file");

    Path foreign = Files.writeString(temp.resolve("foreign.json"), "[1, 2]");
    assertThat(execute("report", foreign.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("not a fairbench results file");
  }

  @Test
  void aRunRefusedBecauseAnotherRunHoldsTheLockLeavesNoResultsFolder() throws Exception {
    Path output = temp.resolve("refused-run");
    try (var channel = java.nio.channels.FileChannel.open(dev.fairbench.orchestrator.pipeline.RunSession.LOCK,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
        var held = channel.tryLock()) {
      org.junit.jupiter.api.Assumptions.assumeTrue(held != null, "another run holds the machine's run lock right now");
      int code = execute("run", "tiny-python:stdlib", "--runtime", "native", "--impls", TestEntries.impls().toString(),
          "--no-calibration", "--rounds", "1", "--output", output.toString());
      assertThat(code).isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString()).contains("another fairbench run holds");
    }
    assertThat(output).doesNotExist();
  }
}
