package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.ServerRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM or Ctrl-C mid-round: the shutdown hook stops every server while the rounds go on for a
 * moment, their visits failing against stopped servers. A seam says "terminating" right after round 1's
 * first visit is written; what the file holds then is what it holds at the end, and `run --resume`
 * continues from round 1 (before, a run that raced its own shutdown could write itself complete).
 */
class TerminatedRunTest {
  @TempDir static Path output;
  static Path run;
  static CliRun terminated;
  static String writtenAtTheSignal;
  static String writtenAtTheEnd;
  static boolean reportWritten;
  static CliRun resumed;

  @BeforeAll
  static void runTerminateItAndResume() throws Exception {
    run = output.resolve("run");
    AtomicBoolean signalled = new AtomicBoolean();
    Pipeline.afterVisit = (round, visits) -> {
      if (round == 1 && visits == 1 && signalled.compareAndSet(false, true)) {
        try {
          writtenAtTheSignal = Files.readString(run.resolve("results.json"));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
    Pipeline.terminating = signalled::get;
    try {
      terminated = CliRun.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
          "--endpoints", "plaintext,json", "--duration", "1s", "--warmup", "0", "--rewarm", "0", "--rounds", "2",
          "--startups", "1", "--no-calibration", "--seed", "5", "--output", run.toString());
    } finally {
      Pipeline.afterVisit = (round, visits) -> {};
      Pipeline.terminating = ServerRegistry::stopping;
    }
    writtenAtTheEnd = Files.readString(run.resolve("results.json"));
    reportWritten = Files.exists(run.resolve("report.md"));
    resumed = CliRun.of("run", "--resume", run.toString());
  }

  @Test
  void aTerminatedRunWritesNothingAfterTheSignal() {
    assertThat(writtenAtTheSignal).as("the seam fired").isNotNull();
    assertThat(writtenAtTheEnd).isEqualTo(writtenAtTheSignal);
    assertThat(reportWritten).as("a report of the terminated run").isFalse();
  }

  @Test
  void itSaysItWasTerminatedAndHowToContinue() {
    assertThat(terminated.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
    assertThat(terminated.stderr()).contains("fairbench run: terminated: " + run.resolve("results.json")
        + " keeps the visits made before").contains("fairbench run --resume " + run).doesNotContain("FAIRBENCH_DEBUG");
  }

  @Test
  void resumeContinuesItFromTheRoundItStoppedIn() throws Exception {
    assertThat(resumed.exitCode()).as(resumed.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(resumed.stderr()).contains("from round 1 of 2");
    ResultsDocument done = ResultsJson.read(run.resolve("results.json"));
    assertThat(done.breaks()).hasSize(1);
    assertThat(done.entries().getFirst().cells()).allSatisfy(cell -> assertThat(cell.countedRuns())
        .extracting(dev.fairbench.orchestrator.results.RunRecord::round).containsExactly(1, 2));
    assertThat(done.entries().getFirst().cells()).extracting(CellResult::status).doesNotContainNull();
  }
}
