package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats.RssTrend;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short soak of src/test/resources/faults/tiny-leaky: the variant that keeps 16 KiB per request
 * and the same server without the leak, each at 200 req/s for 12 s. The run's own thresholds judge
 * no leak in so short a window; the same cells judged with a window threshold of 5 s flag the leaking
 * one and not the steady one (the 60 s of a real soak would make the test too slow).
 */
class SoakTest {
  @TempDir static Path output;
  static String stderr;
  static ResultsDocument results;
  static Map<String, EntryResult> entries;

  /** The run's thresholds with the leak window of a short test. */
  static final Quality.Thresholds SHORT_WINDOW = new Quality.Thresholds(
      Quality.THRESHOLDS.intervalHalfWidth(), Quality.THRESHOLDS.confidence(), Quality.THRESHOLDS.invalidErrorShare(),
      Quality.THRESHOLDS.clientCpu(), Quality.THRESHOLDS.serverShare(), Quality.THRESHOLDS.ceilingShare(),
      Quality.THRESHOLDS.littlesLawLow(), Quality.THRESHOLDS.littlesLawHigh(), Quality.THRESHOLDS.nearMemoryLimit(),
      Quality.THRESHOLDS.rateAchieved(), Quality.THRESHOLDS.rateSuccess(), Quality.THRESHOLDS.leakSlopeMibPerMinute(),
      Quality.THRESHOLDS.leakGrowthShare(), 5, Quality.THRESHOLDS.answerSize(), Quality.THRESHOLDS.cpuFloor());

  @BeforeAll
  static void soakTheLeakyAndTheSteadyServer() throws Exception {
    assertThat(TestEntries.onPath("oha")).as("oha must be on PATH (cargo install oha --locked)").isTrue();
    Path faults = TestEntries.impls().getParent().resolve("faults");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-leaky", "--mode", "rate",
        "--rate", "200", "--duration", "12s", "--warmup", "0", "--rewarm", "0", "--rounds", "1", "--connections", "4",
        "--endpoints", "json", "--no-calibration", "--startups", "1", "--seed", "5", "--output",
        output.resolve("run").toString());
    stderr = run.stderr();
    assertThat(output.resolve("run/results.json")).as(stderr).exists();
    results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  private static CellResult cell(String id) {
    EntryResult entry = entries.get(id);
    assertThat(entry.status()).as(entry.reason() + "\n" + stderr).isEqualTo(EntryStatus.MEASURED);
    CellResult cell = entry.cells().getFirst();
    assertThat(cell.status()).as(cell.reason()).isEqualTo(CellStatus.MEASURED);
    return cell;
  }

  private static final Quality.Context CONTEXT = new Quality.Context(1, 1, 512L << 20, 0, false, 64);

  @Test
  void theRoundRecordsWhenItStartedNotWhenItsFirstVisitEnded() throws Exception {
    // two visits of 12 s in round 1, the file written after the second
    java.time.Instant written = java.nio.file.Files.getLastModifiedTime(output.resolve("run/results.json")).toInstant();
    assertThat(java.time.Duration.between(results.rounds().getFirst().started(), written))
        .isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(24));
  }

  @Test
  void everyRateRunRecordsTheServersMemoryOnceASecond() {
    RunRecord run = cell("tiny-leaky:leaks").countedRuns().getFirst();
    assertThat(run.rssSamples()).hasSizeBetween(11, 14);
    assertThat(run.rssSamples().getFirst().seconds()).isLessThan(1);
    assertThat(run.rssSamples()).allSatisfy(s -> assertThat(s.bytes()).isPositive());
    for (int i = 1; i < run.rssSamples().size(); i++) {
      double gap = run.rssSamples().get(i).seconds() - run.rssSamples().get(i - 1).seconds();
      assertThat(gap).as("samples %d and %d", i - 1, i).isBetween(0.5, 1.6);
    }
  }

  @Test
  void theLeakingServersSlopeIsAboutWhatItKeeps() {
    CellResult leaks = cell("tiny-leaky:leaks");
    RssTrend trend = leaks.stats().rss();
    assertThat(trend).isNotNull();
    // At most what it keeps: the achieved rate × 16 KiB a minute (187.5 MiB/min at 200 req/s). One run here
    // read 84 MiB/min at 200 req/s asked, for a reason not yet found (see the soak branch's report); the band
    // is wide, its floor still 30 times the leak threshold.
    double kept = leaks.stats().medianRequestsPerSecond() * 16384 * 60 / (1 << 20);
    assertThat(trend.slopeMibPerMinute()).as("kept %.1f MiB/min", kept).isBetween(0.3 * kept, 1.3 * kept);
    assertThat(trend.slopeMibPerMinute()).isGreaterThan(30 * Quality.THRESHOLDS.leakSlopeMibPerMinute());
    assertThat(trend.windowSeconds()).isBetween(6.0, 9.0);
    assertThat(trend.warmupSeconds()).isBetween(3.0, 5.0);
  }

  @Test
  void aShortRateCellIsNotJudgedForALeak() {
    assertThat(cell("tiny-leaky:leaks").flags()).doesNotContain(Flag.LEAK);
    assertThat(Quality.hasRssSlope(cell("tiny-leaky:leaks"))).isFalse();
  }

  @Test
  void withALongEnoughWindowTheLeakingServerIsFlaggedAndTheSteadyOneIsNot() {
    CellResult leaks = cell("tiny-leaky:leaks");
    CellResult steady = cell("tiny-leaky:steady");
    assertThat(Quality.flags(leaks, CONTEXT, SHORT_WINDOW)).contains(Flag.LEAK);
    assertThat(Quality.flags(steady, CONTEXT, SHORT_WINDOW)).doesNotContain(Flag.LEAK);
    assertThat(Math.abs(steady.stats().rss().slopeMibPerMinute())).as("steady slope").isLessThan(1.0);
  }

  @Test
  void everyServerGetsTheSameOpenFileLimitAndItIsReadBack() {
    for (String id : java.util.List.of("tiny-leaky:leaks", "tiny-leaky:steady")) {
      EntryResult entry = entries.get(id);
      assertThat(entry.openFiles()).as(id).isNotNull();
      assertThat(entry.openFiles().is(dev.fairbench.orchestrator.config.Defaults.OPEN_FILES)).as(id).isTrue();
      assertThat(entry.openFiles().source()).matches("/proc/[0-9]+/limits");
      assertThat(entry.limitsReadBack()).endsWith("nofile=8192:8192");
    }
  }

  @Test
  void theSamplesAreWrittenAsPairsOnOneLine() throws Exception {
    String json = Files.readString(output.resolve("run/results.json"));
    assertThat(json).containsPattern("\"rssSamples\" : \\[ \\[ [0-9.]+, [0-9]+ \\], \\[ [0-9.]+, [0-9]+ \\]");
  }
}
