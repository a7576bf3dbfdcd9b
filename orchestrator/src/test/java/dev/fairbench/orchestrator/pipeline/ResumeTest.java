package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.Watchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped in round 2 of 3 (a seam ends it right after round 2's first visit is written, as a
 * SIGKILL would), then `run --resume`: every round in the end, the break recorded, the rounds in the
 * seed's orders; and every refusal of --resume, each in one line.
 */
class ResumeTest {
  private static final long SEED = 11;
  private static final List<String> CELLS = List.of("tiny-python:stdlib plaintext", "tiny-python:stdlib json",
      "tiny-python:stdlib user");

  @TempDir static Path output;
  static Path run;
  static ResultsDocument killed;
  static ResultsDocument resumed;
  static Result resumedRun;

  record Result(int exitCode, String stdout, String stderr) {}

  /** What the seam throws: the run ends there, as if killed, leaving the file as last written. */
  static final class Killed extends RuntimeException {
    Killed() {
      super("killed by the test after round 2's first visit");
    }
  }

  @BeforeAll
  static void runKillItAndResume() throws Exception {
    run = output.resolve("run");
    Pipeline.afterVisit = (round, visits) -> {
      if (round == 2 && visits == 1) {
        throw new Killed();
      }
    };
    Result first;
    try {
      first = cli("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
          "--endpoints", "plaintext,json,user", "--duration", "1s", "--warmup", "0", "--rewarm", "0", "--rounds", "3",
          "--startups", "1", "--no-calibration", "--seed", Long.toString(SEED), "--output", run.toString());
    } finally {
      Pipeline.afterVisit = (round, visits) -> {};
    }
    assertThat(first.stderr()).contains("killed by the test");
    killed = ResultsJson.read(run.resolve("results.json"));
    copy(run, output.resolve("killed"));
    resumedRun = cli("run", "--resume", run.toString());
    resumed = ResultsJson.read(run.resolve("results.json"));
  }

  @Test
  void theKilledRunLeftRoundOneCompleteAndRoundTwoPartial() {
    List<CellResult> cells = killed.entries().getFirst().cells();
    assertThat(cells.stream().flatMap(c -> c.countedRuns().stream()).filter(r -> r.round() == 1)).hasSize(3);
    assertThat(cells.stream().flatMap(c -> c.runs().stream()).filter(r -> r.round() == 2)).hasSize(1);
    assertThat(cells.stream().flatMap(c -> c.runs().stream()).filter(r -> r.round() == 3)).isEmpty();
  }

  @Test
  void aResumedRunEndsWithEveryRoundOfEveryCell() {
    assertThat(resumedRun.exitCode()).as(resumedRun.stderr()).isEqualTo(ExitCodes.OK);
    EntryResult entry = resumed.entries().getFirst();
    PipelineAssertions.isFullyMeasured(entry, 3, 3);
    assertThat(resumed.rounds()).extracting(ResultsDocument.RoundRecord::index).containsExactly(1, 2, 3);
  }

  @Test
  void theRoundsCompleteBeforeTheBreakAreKeptAsTheyWere() {
    for (CellResult cell : resumed.entries().getFirst().cells()) {
      CellResult before = killed.entries().getFirst().cells().stream()
          .filter(c -> c.endpoint().equals(cell.endpoint())).findFirst().orElseThrow();
      assertThat(cell.runs().stream().filter(r -> r.round() == 1).toList())
          .isEqualTo(before.runs().stream().filter(r -> r.round() == 1).toList());
    }
    ResultsDocument.RoundRecord before = killed.rounds().getFirst();
    ResultsDocument.RoundRecord after = resumed.rounds().getFirst();
    assertThat(List.of(after.index(), after.started(), after.order()))
        .isEqualTo(List.of(before.index(), before.started(), before.order()));
    assertThat(resumed.environment().timestamp()).isEqualTo(killed.environment().timestamp());
    assertThat(resumed.entries().getFirst().startup().warm())
        .as("startup figures measured before the break are kept").isEqualTo(killed.entries().getFirst().startup().warm());
  }

  @Test
  void theBreakIsRecordedWithItsTimeTheRoundResumedFromAndNewProcesses() {
    assertThat(resumed.breaks()).hasSize(1);
    assertThat(resumed.breaks().getFirst()).contains("after round 1 of 3").contains("from round 2")
        .contains("new server processes").contains("the 1 partial run of round 2 dropped").contains("results last written 20");
    assertThat(resumedRun.stderr()).contains("resuming " + run.resolve("results.json") + " from round 2 of 3");
  }

  @Test
  void everyRoundVisitsTheCellsInTheOrderItsSeedGives() {
    for (ResultsDocument.RoundRecord round : resumed.rounds()) {
      List<String> visited = round.order().stream().filter(name -> !name.endsWith("(repeat)")).toList();
      assertThat(visited).as("round " + round.index()).isEqualTo(Pipeline.shuffledOrder(CELLS, SEED, round.index()));
    }
  }

  @Test
  void theFairnessReviewSaysTheRunWasResumed() throws IOException {
    assertThat(Files.readString(run.resolve("fairness.md"))).contains("The run was resumed: stopped after round 1 of 3");
  }

  @Test
  void theResumedRunLeavesNoServerRunning() {
    long watchdog = Watchdog.pid();
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> p.pid() != watchdog && p.parent().map(parent -> parent.pid() != watchdog).orElse(true)))
        .as("processes the runs started").isEmpty();
  }

  @Test
  void aCompleteRunIsNotResumed() {
    refused(cli("run", "--resume", run.toString()), "is complete: all 3 rounds are done");
  }

  @Test
  void aFolderWithoutResultsIsNotResumed() throws IOException {
    Path empty = Files.createDirectories(output.resolve("empty"));
    refused(cli("run", "--resume", empty.toString()), "holds no results.json: nothing to resume");
  }

  @Test
  void theResultsFilePathIsAcceptedAsWellAsItsFolder() {
    refused(cli("run", "--resume", run.resolve("results.json").toString()), run.resolve("results.json") + " is complete");
  }

  @Test
  void optionsThatWouldChangeTheRecordedSettingsAreRefused() throws IOException {
    Path copy = edited("options", doc -> {});
    refused(cli("run", "--resume", copy.toString(), "--rounds", "5", "--duration", "2s"),
        "it takes no other option (given: --rounds --duration)");
    refused(cli("run", "--resume", copy.toString(), "tiny-python:stdlib"), "it takes no entries (given: tiny-python:stdlib)");
  }

  @Test
  void anotherMethodVersionIsNotResumed() throws IOException {
    Path copy = edited("method", doc -> doc.put("methodVersion", "rounds-0"));
    refused(cli("run", "--resume", copy.toString()), "was measured with method rounds-0");
  }

  @Test
  void anotherCommitIsNotResumed() throws IOException {
    Path copy = edited("commit", doc -> ((ObjectNode) doc.get("environment")).put("gitCommit", "0".repeat(40)));
    refused(cli("run", "--resume", copy.toString()), "the checkout changed: the run measured commit " + "0".repeat(40));
  }

  @Test
  void aChangedUncommittedStateIsNotResumed() throws IOException {
    boolean dirty = killed.environment().gitDirty();
    Path copy = edited("dirty", doc -> ((ObjectNode) doc.get("environment")).put("gitDirty", !dirty));
    refused(cli("run", "--resume", copy.toString()), dirty ? "has uncommitted changes it did not have when the run began"
        : "had uncommitted changes when the run began, now has none");
  }

  @Test
  void theRunRecordsEachEntrysFilesAndItsCodeWithoutItsDocs() {
    assertThat(killed.invocation().sources()).isNotEmpty()
        .allSatisfy((id, hash) -> assertThat(hash).startsWith("sha256:"));
    assertThat(killed.invocation().code()).containsOnlyKeys(killed.invocation().sources().keySet())
        .allSatisfy((id, hash) -> assertThat(hash).startsWith("sha256:"));
  }

  @Test
  void anEntryWhoseFilesChangedIsNotResumed() throws IOException {
    Path copy = edited("sources", doc -> ((ObjectNode) doc.get("invocation").get("sources"))
        .put("tiny-python:stdlib", "sha256:00"));
    refused(cli("run", "--resume", copy.toString()),
        "the entries changed since the run began: tiny-python:stdlib has other files than it had");
  }

  @Test
  void anotherMachineIsNotResumedAndTheRefusalSaysWhatChanged() throws IOException {
    Path copy = edited("machine", doc -> ((ObjectNode) doc.get("environment")).put("kernel", "0.0.0-other").put("cores", 96));
    refused(cli("run", "--resume", copy.toString()), "the environment changed since the run began: cores 96 → "
        + killed.environment().cores() + "; kernel 0.0.0-other → " + killed.environment().kernel());
  }

  @Test
  void aRunMadeWithAClientHostResumesWithTheLoadClientOnThatEngine() throws IOException {
    assertThat(killed.invocation().clientHost()).as("a run with the local client records none").isEmpty();
    String socket = output.resolve("no-engine.sock").toString();
    Path copy = edited("client-host", doc -> ((ObjectNode) doc.get("invocation")).put("clientHost", "unix://" + socket));
    refused(cli("run", "--resume", copy.toString()), "unavailable: the client host's engine unix://" + socket
        + " does not answer");
  }

  /** A copy of the killed run's folder, its results.json edited. */
  private static Path edited(String name, Consumer<ObjectNode> edit) throws IOException {
    Path copy = output.resolve(name);
    copy(output.resolve("killed"), copy);
    Path file = copy.resolve("results.json");
    ObjectNode doc = (ObjectNode) ResultsJson.mapper().readTree(file.toFile());
    edit.accept(doc);
    ResultsJson.mapper().writeValue(file.toFile(), doc);
    return copy;
  }

  private static void refused(Result result, String says) {
    assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.stderr()).contains(says).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(result.stderr().lines().filter(l -> !l.isBlank())).as("one line").hasSize(1);
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    Files.copy(from.resolve("results.json"), to.resolve("results.json"));
  }

  private static Result cli(String... args) {
    CliRun run = CliRun.of(args);
    return new Result(run.exitCode(), run.stdout(), run.stderr());
  }
}
