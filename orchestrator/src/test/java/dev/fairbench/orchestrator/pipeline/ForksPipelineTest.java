package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --forks 2 over 3 rounds: the fixture server's first process measures round 1, a fresh one rounds 2 and 3. */
class ForksPipelineTest {
  @TempDir static Path output;
  static CliRun run;
  static ResultsDocument results;
  static CliRun resumedRun;
  static ResultsDocument resumed;

  @BeforeAll
  static void runWithTwoProcesses() throws Exception {
    run = CliRun.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
        "--endpoints", "plaintext,json", "--warmup", "1s", "--rewarm", "0", "--rounds", "3", "--extra-rounds", "0",
        "--forks", "2", "--no-calibration", "--no-baselines", "--startups", "1", "--seed", "7",
        "--output", output.toString());
    results = ResultsJson.read(output.resolve("results.json"));

    Path broken = output.resolve("broken");
    Pipeline.afterVisit = (round, visits) -> {
      if (round == 2 && visits == 1) {
        throw new ResumeTest.Killed();
      }
    };
    try {
      CliRun.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
          "--endpoints", "plaintext,json", "--warmup", "1s", "--rewarm", "0", "--rounds", "3", "--extra-rounds", "0",
          "--forks", "2", "--no-calibration", "--no-baselines", "--startups", "1", "--seed", "7",
          "--output", broken.toString());
    } finally {
      Pipeline.afterVisit = (round, visits) -> {};
    }
    resumedRun = CliRun.of("run", "--resume", broken.toString());
    resumed = ResultsJson.read(broken.resolve("results.json"));
  }

  private static EntryResult tiny() {
    return tiny(results);
  }

  private static EntryResult tiny(ResultsDocument results) {
    return results.entries().stream().filter(e -> e.id().equals("tiny-python:stdlib")).findFirst().orElseThrow();
  }

  @Test
  void aFreshProcessOfEveryServerIsStartedBeforeTheFirstRoundOfItsBlock() {
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(tiny().processes()).extracting(EntryResult.ProcessStart::firstRound).containsExactly(1, 2);
    var round1 = results.rounds().stream().filter(r -> r.index() == 1).findFirst().orElseThrow().started();
    var round2 = results.rounds().stream().filter(r -> r.index() == 2).findFirst().orElseThrow().started();
    assertThat(tiny().processes().get(1).started()).isAfter(round1).isBefore(round2);
    assertThat(run.stderr()).contains("process 2 of 2 of every server, for rounds 2–3: starting afresh")
        .contains("tiny-python:stdlib: process 2 ready at http://127.0.0.1:");
  }

  @Test
  void aFreshProcessIsWarmedUpOnEachEndpointByTheRuleOfTheFirstAndItsRunsAreRecorded() throws Exception {
    EntryResult.ProcessStart second = tiny().processes().get(1);
    assertThat(second.warmup()).containsOnlyKeys("plaintext", "json");
    // until a run is no more than 5% faster than the one before: two runs at the least, six at the most
    assertThat(second.warmup().values()).allSatisfy(runs -> assertThat(runs).hasSizeBetween(2, 6)
        .allSatisfy(r -> assertThat(r).isPositive()));
    assertThat(tiny().processes().get(0).warmup()).as("the first process's warm-up is each cell's").isEmpty();
    assertThat(Files.readString(output.resolve("fairness.md"))).contains("; process 2 (from round 2): plaintext ")
        .contains("round 2 (a fresh process's first), its effect on every cell taken out: ");
  }

  @Test
  void everyCellHasItsRunsFromBothProcesses() {
    for (CellResult cell : tiny().cells()) {
      assertThat(cell.status()).as(cell.reason()).isEqualTo(CellStatus.MEASURED);
      assertThat(cell.countedRuns()).extracting(RunRecord::round).containsExactlyInAnyOrder(1, 2, 3);
      assertThat(cell.countedRuns()).allSatisfy(r -> assertThat(r.requests()).isPositive());
    }
  }

  @Test
  void theResultsAndTheReportSayHowManyProcessesMeasuredWhichRounds() throws Exception {
    assertThat(results.method().forks()).isEqualTo(2);
    assertThat(results.invocation().config().forks()).isEqualTo(2);
    assertThat(Files.readString(output.resolve("report.md")))
        .contains("measured by 2 processes of each server in turn, each started afresh (rounds 1, 2–3)");
  }

  @Test
  void aRunResumedAtTheFirstRoundOfABlockStartsNoFurtherProcessForIt() {
    assertThat(resumedRun.exitCode()).as(resumedRun.stderr()).isEqualTo(ExitCodes.OK);
    // Killed in round 2, the first of process 2: the process the resumed run prepares serves rounds 2 and 3.
    assertThat(tiny(resumed).processes()).extracting(EntryResult.ProcessStart::firstRound).containsExactly(1, 2);
    assertThat(resumedRun.stderr()).doesNotContain("starting afresh");
    assertThat(resumed.breaks()).singleElement().asString().contains("from round 2");
    for (CellResult cell : tiny(resumed).cells()) {
      assertThat(cell.countedRuns()).extracting(RunRecord::round).containsExactlyInAnyOrder(1, 2, 3);
    }
  }
}
