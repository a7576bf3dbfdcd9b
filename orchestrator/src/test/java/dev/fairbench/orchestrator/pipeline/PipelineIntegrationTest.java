package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.runtime.Watchdog;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline on the fixture entries of src/test/resources/impls: a conformant Python
 * server is built, started, checked, measured and reported, while entries that fail to build, exit
 * at start, FAIL conformance, lack a tool or have a broken manifest are recorded with their reason.
 */
class PipelineIntegrationTest {
  @TempDir static Path output;
  static int exitCode;
  static String stdout;
  static String stderr;
  static ResultsDocument results;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runEverything() throws Exception {
    assertThat(TestEntries.onPath("wrk")).as("wrk must be installed (apt-get install -y wrk)").isTrue();
    assertThat(TestEntries.onPath("python3")).as("python3 runs the fixture server").isTrue();
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "--duration", "1s", "--rounds", "2",
        "--warmup", "1s", "--rewarm", "0", "--seed", "7", "--output", output.resolve("run").toString());
    exitCode = run.exitCode();
    stdout = run.stdout();
    stderr = run.stderr();
    results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  @Test
  void aFailedEntryMakesTheRunExitWith1AndSaysWhereTheResultsAre() {
    assertThat(exitCode).as(stderr).isEqualTo(ExitCodes.FAILED);
    assertThat(stdout).contains("Measured 1 of 6 entries.")
        .contains("Results: " + output.resolve("run/results.json"))
        .contains("Report:  " + output.resolve("run/report.md"));
    assertThat(stderr).contains("[prepare 1/7]").contains("[prepare 7/7] nginx").contains("[round 2/2]");
  }

  @Test
  void theConformantEntryIsMeasuredWithEveryFieldFilled() {
    PipelineAssertions.environmentIsComplete(results.environment());
    PipelineAssertions.isFullyMeasured(entries.get("tiny-python:stdlib"), 4, 2);
  }

  @Test
  void theCalibrationServerIsMeasuredInTheSameRoundsAndGivesTheCeiling() {
    EntryResult nginx = entries.get("nginx");
    assertThat(nginx.role()).isEqualTo(Role.CALIBRATION);
    assertThat(nginx.cells()).extracting(CellResult::endpoint).containsExactlyInAnyOrder("plaintext", "json", "user");
    assertThat(nginx.cells()).allSatisfy(c -> assertThat(c.countedRuns()).hasSize(2));
    assertThat(results.calibration()).isNotNull();
    assertThat(results.calibration().clientCeilingRequestsPerSecond()).isPositive();
    assertThat(entries.get("tiny-python:stdlib").cells().stream().filter(c -> !c.endpoint().equals("validate")))
        .allSatisfy(c -> assertThat(c.stats().toCalibration()).isNotNull());
  }

  @Test
  void everyCellKeepsItsWarmUpRunsAndTheFairnessReviewShowsThem() throws Exception {
    for (String id : List.of("tiny-python:stdlib", "nginx")) {
      assertThat(entries.get(id).cells()).allSatisfy(c -> assertThat(c.warmup()).as(id + " " + c.name())
          .hasSizeBetween(2, 6).allSatisfy(rps -> assertThat(rps).isPositive()));
    }
    assertThat(Files.readString(output.resolve("run/fairness.md")))
        .containsPattern("- Warm-up: runs of 1 s while one is over 5% faster than the last, req/s: plaintext [0-9,]+ → [0-9,]+")
        .containsPattern("Round 1, its effect on every cell taken out: [0-9.]+% (below|above) its cells' medians \\(the mean over 4\\)");
  }

  @Test
  void eachRoundVisitsEveryCellOnceInTheOrderTheSeedGives() {
    assertThat(results.method().seed()).isEqualTo(7);
    assertThat(results.rounds()).hasSize(2).allSatisfy(round -> {
      assertThat(round.order().stream().filter(o -> !o.endsWith("(repeat)")).toList()).hasSize(7).doesNotHaveDuplicates();
      assertThat(round.probe()).isNotNull();
    });
    assertThat(results.rounds().get(0).order()).isNotEqualTo(results.rounds().get(1).order());
  }

  @Test
  void everyVisitRecordsTheMachinesSpeedOnBothSidesAndTheMemorysLatencyBeforeAndAfterIt() {
    assertThat(entries.get("tiny-python:stdlib").cells()).flatExtracting(CellResult::runs).isNotEmpty()
        .allSatisfy(r -> {
          assertThat(r.disturbance().speed()).as("round %d", r.round()).isNotNull();
          assertThat(List.of(r.disturbance().speed().serverBefore(), r.disturbance().speed().serverAfter(),
              r.disturbance().speed().clientBefore(), r.disturbance().speed().clientAfter()))
              .allSatisfy(mbps -> assertThat(mbps).isBetween(10.0, 10_000.0));
          assertThat(r.disturbance().speed().readsMemory()).as("round %d", r.round()).isTrue();
          // Memory beyond the caches: tens to hundreds of nanoseconds a load on any machine of this kind.
          assertThat(List.of(r.disturbance().speed().memoryBefore(), r.disturbance().speed().memoryAfter()))
              .allSatisfy(ns -> assertThat(ns).isBetween(10.0, 2_000.0));
        });
  }

  @Test
  void eachRunRecordsTheStealOnTheLoadClientsCpusAndTheOrchestratorsOwnTime() {
    assertThat(entries.get("tiny-python:stdlib").cells()).flatExtracting(CellResult::runs).isNotEmpty()
        .allSatisfy(r -> {
          RunRecord.ClientSide client = r.disturbance().client();
          assertThat(client).as("round %d", r.round()).isNotNull();
          assertThat(client.stealSeconds()).isNotNegative();
          // Counted in clock ticks (10 ms): a quiet orchestrator may show none, and it never takes the whole run.
          assertThat(client.orchestratorCpuSeconds()).isNotNegative().isLessThan(r.durationSeconds());
        });
  }

  @Test
  void aRunDrawsItsCellsIntervalsByInterpolatedOrderStatisticsAndSaysSo() {
    assertThat(results.method().medianInterval())
        .isEqualTo(dev.fairbench.orchestrator.core.MedianIntervalKind.INTERPOLATED);
  }

  @Test
  void everyVisitRecordsTheCrossCpuWakeupsAroundItJudgedAgainstTheRunsUsualRateAndHowLongItWaitedForThem() {
    assertThat(results.method().wakeupThreshold()).isEqualTo(0.8);
    assertThat(results.method().spellWaitSeconds()).isEqualTo(30.0);
    assertThat(entries.get("tiny-python:stdlib").cells()).flatExtracting(CellResult::runs).isNotEmpty()
        .allSatisfy(r -> {
          RunRecord.Wakeups w = r.disturbance().wakeups();
          assertThat(w).as("round %d", r.round()).isNotNull();
          // Thousands of round trips a second on any machine that runs a loopback benchmark at all.
          assertThat(List.of(w.before(), w.after(), w.usual())).allSatisfy(rate -> assertThat(rate).isBetween(500.0, 1e7));
          assertThat(w.slow()).isEqualTo(Math.min(w.before(), w.after()) < 0.8 * w.usual());
          // Polled twice a second for at most 30 s; a visit that did not wait records 0.
          assertThat(w.waitedSeconds()).isNotNull().isBetween(0.0, 32.0);
          if (w.slow()) {
            assertThat(r.disturbance().disturbed()).isTrue();
          }
        });
  }

  @Test
  void theRawRunsAreWrittenAsCsvBesideTheResults() throws Exception {
    List<String> lines = Files.readAllLines(output.resolve("run/runs.csv"));
    assertThat(lines.getFirst()).startsWith("entry,role,endpoint,kind,rate,round,visit,counted,");
    assertThat(lines).filteredOn(l -> l.startsWith("tiny-python:stdlib,entry,json,throughput,,")).hasSizeGreaterThanOrEqualTo(2)
        .allSatisfy(l -> assertThat(l).doesNotContain(",,,,native")
            .containsPattern(",native,[0-9.]+,[0-9.]+,[0-9.e+]+,[0-9.e+]+,[0-9.e+]+,(true|false),[0-9.e+]+,[0-9.e+]+,[0-9.e+]+$"));
    assertThat(lines.getFirst()).endsWith(",server_speed_before,server_speed_after,client_speed_before,client_speed_after,"
        + "runtime,client_steal_s,orchestrator_cpu_s,wakeups_before,wakeups_after,wakeups_usual,wakeups_slow,wakeups_waited_s,"
        + "memory_before_ns,memory_after_ns");
  }

  @Test
  void aConformanceFailIsNotBenchmarked() {
    EntryResult wrong = entries.get("tiny-python:wrong-json");
    assertThat(wrong.status()).isEqualTo(EntryStatus.CONFORMANCE_FAILED);
    assertThat(wrong.reason()).contains("2.3").contains("not benchmarked");
    assertThat(wrong.conformance().failed()).anyMatch(f -> f.startsWith("2.3"));
    assertThat(wrong.cells()).isEmpty();
    assertThat(output.resolve("run").resolve(wrong.conformance().report())).exists();
  }

  @Test
  void aFailedBuildIsRecordedWithItsLog() {
    EntryResult broken = entries.get("broken-build");
    assertThat(broken.status()).isEqualTo(EntryStatus.BUILD_FAILED);
    assertThat(broken.reason()).contains("exited with 3").contains("broken-build.build.log");
    assertThat(broken.logTail()).contains("main.c:3: error: expected ; before }");
  }

  @Test
  void anEntryThatExitsAtStartIsRecordedWithItsLog() {
    EntryResult exits = entries.get("exits-at-start");
    assertThat(exits.status()).isEqualTo(EntryStatus.EXITED_AT_START);
    assertThat(exits.reason()).contains("exited with code 4");
    assertThat(exits.logTail()).contains("config.yml not found");
  }

  @Test
  void unavailableEntriesSayWhy() {
    assertThat(entries.get("missing-tool").status()).isEqualTo(EntryStatus.UNAVAILABLE);
    assertThat(entries.get("missing-tool").reason()).isEqualTo("missing tool fairbench-no-such-tool");
    assertThat(entries.get("bad-manifest").status()).isEqualTo(EntryStatus.UNAVAILABLE);
    assertThat(entries.get("bad-manifest").reason()).contains("manifest error").contains("start.comand");
  }

  @Test
  void theReportHasTheThroughputTableTheFailuresAndTheEnvironment() throws Exception {
    String report = Files.readString(output.resolve("run/report.md"));
    assertThat(report).contains("| Entry | Plaintext | JSON | Params | Validate (POST) |")
        .containsPattern("\\| tiny-python:stdlib \\(Python\\) \\| [0-9,]+")
        .contains("| broken-build | build-failed |")
        .contains("| exits-at-start | exited-at-start |")
        .contains("| tiny-python:wrong-json | conformance-failed |")
        .contains("| missing-tool | unavailable | missing tool fairbench-no-such-tool |")
        .contains("## Environment")
        .contains("Server CPU-µs per request")
        .contains("nginx — calibration, not ranked")
        .contains("**Trustworthy: ");
  }

  @Test
  void noServerIsLeftRunning() {
    // The watchdog (and the sleep it polls with) outlives the run by design: it is there for a SIGKILL.
    long watchdog = Watchdog.pid();
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> p.pid() != watchdog && p.parent().map(parent -> parent.pid() != watchdog).orElse(true)))
        .as("processes the run started").isEmpty();
  }
}
