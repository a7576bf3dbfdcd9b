package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.report.UnrepeatedVisits;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disturbed visit is repeated once later in its round while the repeat fits in the run's time limit,
 * and counts as it is when it does not. A real-time loop on the server's CPU for the whole of both runs
 * takes far more than 5% of its time, so every visit is disturbed; the same two-round run is made with
 * the default limit (30 min: every repeat fits) and with one of a second (none does).
 */
class DisturbedVisitsTest {
  private static final String SERVER_CPU = "1";
  /**
   * 20 ms of work in every 50, at a real-time priority: it takes its share of the CPU from the server
   * whenever it wants it. A plain busy loop would not: the scheduler favours a server that wakes for
   * each request, and the loop gets almost nothing while the server is loaded.
   */
  static final String BURNER = burner(20, 30);

  /** A Python loop that holds its CPU {@code busyMs} in every {@code busyMs + idleMs}; says "burning" first. */
  static String burner(int busyMs, int idleMs) {
    return """
        import time
        print("burning", flush=True)
        while True:
            t = time.monotonic()
            while time.monotonic() - t < %s:
                pass
            time.sleep(%s)
        """.formatted(busyMs / 1000.0, idleMs / 1000.0);
  }

  @TempDir static Path output;
  static Process burner;
  static CliRun withTime;
  static CliRun withoutTime;

  @BeforeAll
  static void runTwiceBesideABusyLoopOnTheServersCpu() throws Exception {
    assertThat(Runtime.getRuntime().availableProcessors()).as("a server CPU apart from the client's").isGreaterThan(1);
    burner = new ProcessBuilder("taskset", "-c", SERVER_CPU, "chrt", "--fifo", "1", "python3", "-c", BURNER).start();
    withTime = run("with-time", "30m");
    withoutTime = run("without-time", "1s");
  }

  @AfterAll
  static void stopTheBusyLoop() throws InterruptedException {
    if (burner != null) {
      burner.destroyForcibly().waitFor();
    }
  }

  private static CliRun run(String name, String timeLimit) {
    Path faults = TestEntries.impls().getParent().resolve("faults");
    return CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-faulty:steady",
        "--server-cpus", SERVER_CPU, "--client-cpus", "0", "--duration", "1s", "--warmup", "0", "--rewarm", "0",
        "--rounds", "2", "--endpoints", "json", "--no-calibration", "--startups", "1", "--seed", "7",
        "--time-limit", timeLimit, "--output", output.resolve(name).toString());
  }

  private static ResultsDocument results(String name, CliRun run) throws Exception {
    assertThat(output.resolve(name + "/results.json")).as(run.stderr()).exists();
    return ResultsJson.read(output.resolve(name + "/results.json"));
  }

  private static List<RunRecord> runs(ResultsDocument results) {
    CellResult cell = results.entries().stream().filter(e -> e.id().equals("tiny-faulty:steady")).findFirst()
        .orElseThrow().cells().getFirst();
    return cell.runs();
  }

  @Test
  void aDisturbedVisitIsRepeatedOnceLaterInItsRoundAndTheRepeatCounts() throws Exception {
    List<RunRecord> runs = runs(results("with-time", withTime));

    assertThat(runs).as(withTime.stderr()).hasSize(4);
    assertThat(runs).filteredOn(r -> r.visit() == 1).hasSize(2).allSatisfy(r -> {
      assertThat(r.disturbance().disturbed()).as("share %s", r.disturbance().share()).isTrue();
      assertThat(r.counted()).isFalse();
    });
    assertThat(runs).filteredOn(r -> r.visit() == 2).hasSize(2).allSatisfy(r -> assertThat(r.counted()).isTrue());
    assertThat(withTime.stderr()).contains("repeated later").doesNotContain("without a repeat");
  }

  @Test
  void aDisturbedVisitWithNoTimeLeftForItsRepeatCountsAsItIs() throws Exception {
    ResultsDocument results = results("without-time", withoutTime);
    List<RunRecord> runs = runs(results);

    assertThat(runs).as(withoutTime.stderr()).hasSize(2).allSatisfy(r -> {
      assertThat(r.visit()).isEqualTo(1);
      assertThat(r.disturbance().disturbed()).isTrue();
      assertThat(r.counted()).isTrue();
    });
    assertThat(results.rounds()).allSatisfy(round -> assertThat(round.order()).noneMatch(o -> o.endsWith("(repeat)")));
    assertThat(UnrepeatedVisits.count(results)).isEqualTo(2);
    assertThat(withoutTime.stderr()).contains("a disturbed visit now counts without a repeat")
        .contains("past --time-limit 1 s").contains("counted: no time left for a repeat");
  }

  @Test
  void theReportSaysHowManyDisturbedVisitsCountedWithoutARepeatAndInWhichRound() throws Exception {
    results("without-time", withoutTime);
    String report = Files.readString(output.resolve("without-time/report.md"));

    assertThat(report).contains("is repeated once (2 disturbed visits were counted without one: no time was left "
        + "for a repeat within the run's time limit (1 s))");
    assertThat(report).contains("| Disturbed, counted without a repeat (time limit) |");
    assertThat(Files.readString(output.resolve("without-time/report.html")))
        .contains("<th>disturbed, counted without a repeat (time limit)</th>");
    String withTimeReport = Files.readString(output.resolve("with-time/report.md"));
    assertThat(withTimeReport).doesNotContain("counted without");
  }
}
