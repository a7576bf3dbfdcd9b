package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.Watchdog;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults that strike while the rounds run (src/test/resources/faults/tiny-faulty): each is recorded
 * in the cell and the entry with its reason, and the run goes on with the other cells.
 */
class FaultsMidCellTest {
  @TempDir static Path output;
  static int exitCode;
  static String stderr;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runTheFaultyEntries() throws Exception {
    Path faults = TestEntries.impls().getParent().resolve("faults");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-faulty", "--endpoints", "json",
        "--warmup", "0", "--rewarm", "0", "--rounds", "6", "--duration", "1s", "--memory", "64m", "--no-calibration",
        "--seed", "3", "--output", output.resolve("run").toString());
    exitCode = run.exitCode();
    stderr = run.stderr();
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  @Test
  void anEntryKilledMidCellIsRecordedWithTheSignal() {
    EntryResult dies = entries.get("tiny-faulty:dies");
    assertThat(dies.status()).as(dies.reason()).isIn(EntryStatus.PARTIAL, EntryStatus.FAILED);
    assertThat(dies.reason()).contains("was killed by signal 9");
    assertThat(dies.cells().getFirst().status()).isIn(CellStatus.PARTIAL, CellStatus.FAILED);
  }

  @Test
  void anEntryOomKilledMidCellSaysOomReadFromTheCgroup() {
    EntryResult grows = entries.get("tiny-faulty:grows");
    assertThat(grows.status()).as(grows.reason()).isIn(EntryStatus.PARTIAL, EntryStatus.FAILED);
    assertThat(grows.reason()).contains("OOM killer").contains("64 MiB");
  }

  @Test
  void anEntryThatHangsMidCellIsStoppedNotWaitedFor() {
    EntryResult hangs = entries.get("tiny-faulty:hangs");
    assertThat(hangs.status()).as(hangs.reason()).isIn(EntryStatus.PARTIAL, EntryStatus.FAILED);
    assertThat(hangs.reason()).contains("stopped answering").contains("the server was stopped");
  }

  @Test
  void anEntryThatAnswersLessUnderLoadThanItWasCheckedWithIsFlaggedAnswersDiffer() {
    CellResult shortAnswers = entries.get("tiny-faulty:short-answers").cells().getFirst();
    assertThat(shortAnswers.answerBytes()).as("the checked answer's size").isNotNull();
    assertThat(shortAnswers.flags()).contains(Flag.ANSWERS_DIFFER);
    assertThat(Quality.trustworthy(shortAnswers)).isFalse();
  }

  @Test
  void anEntryWhoseAnswerIsWrongAfterTheRunsFailsTheCellWithItsRunsKept() {
    // {"message": "Hello, Wor1d!"} after 1,500 requests: the checked size, so no run's bytes tell it apart
    CellResult forged = entries.get("tiny-faulty:forged-answers").cells().getFirst();
    assertThat(forged.status()).as(forged.reason()).isEqualTo(CellStatus.PARTIAL);
    assertThat(forged.reason()).startsWith("the answer after the runs was wrong: ").contains("Wor1d");
    assertThat(forged.countedRuns()).hasSize(6);
    assertThat(forged.flags()).doesNotContain(Flag.ANSWERS_DIFFER);
    assertThat(stderr).contains("answers checked again after the runs: ");
  }

  @Test
  void anEntryThatAnswersUnderLoadWhatItWasCheckedWithIsNotFlagged() {
    CellResult steady = entries.get("tiny-faulty:steady").cells().getFirst();
    assertThat(steady.answerBytes()).as("the checked answer's size").isNotNull();
    assertThat(steady.flags()).doesNotContain(Flag.ANSWERS_DIFFER);
  }

  @Test
  void theRunGoesOnWithTheOtherCells() {
    EntryResult steady = entries.get("tiny-faulty:steady");
    assertThat(steady.status()).as(steady.reason() + "\n" + stderr).isEqualTo(EntryStatus.MEASURED);
    assertThat(steady.cells().getFirst().countedRuns()).hasSize(6);
    assertThat(exitCode).isEqualTo(ExitCodes.FAILED);
  }

  @Test
  void noServerIsLeftRunningOrFrozen() {
    long watchdog = Watchdog.pid();
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> p.pid() != watchdog && p.parent().map(parent -> parent.pid() != watchdog).orElse(true)))
        .as("processes the run started").isEmpty();
  }
}
