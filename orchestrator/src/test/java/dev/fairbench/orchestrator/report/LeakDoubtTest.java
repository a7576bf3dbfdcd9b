package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.environment;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.RssSample;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The leak doubt of a soak, judged on synthetic memory samples, and the RSS slope in the reports. */
class LeakDoubtTest {
  static final long MIB = 1 << 20;

  /** Nine counted rate runs of {@code seconds} s at 800 req/s, each with one memory sample a second. */
  static CellResult rateCell(int seconds, IntToLongFunction bytesAt) {
    List<RunRecord> runs = IntStream.rangeClosed(1, 9).mapToObj(round -> {
      long requests = 800L * seconds;
      List<RssSample> samples = new ArrayList<>();
      for (int t = 0; t <= seconds; t++) {
        samples.add(new RssSample(t, bytesAt.applyAsLong(t)));
      }
      return new RunRecord(round, 1, true, requests, seconds, 800, 0, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
          new RunRecord.LatencyRecord(300, 400, 700, 900, 1200, 320), requests * 50e-6, 40 * MIB, 60 * MIB, 0.2, 0.1,
          RunRecord.Disturbance.NONE, new RunRecord.RateRecord(800, requests, requests, requests,
              Map.of("200", requests), Map.of(), 0, false, 1.0, 800)).withRssSamples(samples);
    }).toList();
    return new CellResult("json", CellKind.RATE, "80%", CellStatus.MEASURED, "", runs, null,
        new WorkerObservation("threads", 1, 1, 1, 1, 12, 1, true), List.of());
  }

  static ResultsDocument soak(CellResult... cells) {
    List<dev.fairbench.orchestrator.results.EntryResult> entries = new ArrayList<>();
    for (int i = 0; i < cells.length; i++) {
      entries.add(measured("e" + i, "E", List.of(cells[i]), null));
    }
    return ResultsFixtures.derived(document(9, entries));
  }

  static CellResult derived(CellResult cell) {
    return soak(cell).entries().getFirst().cells().getFirst();
  }

  @Test
  void aServerThatKeepsGrowingThroughASoakIsSuspectedOfALeak() {
    CellResult c = derived(rateCell(600, t -> 30 * MIB + 2 * MIB * t / 60));
    assertThat(c.flags()).contains(Flag.LEAK);
    assertThat(Quality.doubts(c, environment())).extracting(Quality.Doubt::text)
        .anySatisfy(text -> assertThat(text).startsWith("leak: the memory grew 2.0 MiB/min")
            .contains("over the 400 s after each run's first 200 s"));
    assertThat(Quality.trustworthy(c)).as("a leak doubt does not make the CPU figure wrong").isTrue();
  }

  @Test
  void aHeapThatGrowsOnlyInTheWarmUpPartIsNotALeak() {
    CellResult c = derived(rateCell(600, t -> t < 180 ? (40 + t) * MIB : 220 * MIB + (t % 7) * MIB));
    assertThat(c.flags()).doesNotContain(Flag.LEAK);
  }

  @Test
  void aLargeHeapDriftingSlowlyUpIsNotALeak() {
    // 1.5 MiB/min on 400 MiB: 10 MiB over the window, 2.5% of where it began
    CellResult c = derived(rateCell(600, t -> 400 * MIB + 3 * MIB * t / 120));
    assertThat(c.stats().rss().slopeMibPerMinute()).isGreaterThan(Quality.THRESHOLDS.leakSlopeMibPerMinute());
    assertThat(c.flags()).doesNotContain(Flag.LEAK);
  }

  @Test
  void aShortRateCellIsNeverJudgedHoweverSteepItsSlope() {
    CellResult c = derived(rateCell(60, t -> 30 * MIB + 20 * MIB * t / 60));
    assertThat(c.stats().rss().windowSeconds()).isLessThan(Quality.THRESHOLDS.leakMinWindowSeconds());
    assertThat(c.flags()).doesNotContain(Flag.LEAK);
    assertThat(Quality.hasRssSlope(c)).isFalse();
  }

  @Test
  void theRateTablesShowTheSlopeOnlyWhenARunWasLongEnough() {
    ResultsDocument soak = soak(rateCell(600, t -> 30 * MIB + 2 * MIB * t / 60), rateCell(600, t -> 30 * MIB));
    String md = MarkdownReport.render(soak);
    assertThat(md).contains("RSS slope MiB/min (window)").contains("| +2.00 (400 s) | leak |")
        .contains("| +0.00 (400 s) |  |");
    String html = HtmlReport.render(soak, FairnessReview.of(soak));
    assertThat(html).contains("<th>RSS slope MiB/min (window)</th>").contains("<td>+2.00 (400 s)</td>")
        .contains("leak: the memory grew 2.0 MiB/min");
    assertThat(FairnessReview.of(soak).toMarkdown()).contains("json@80%: leak: the memory grew 2.0 MiB/min");

    ResultsDocument shortRun = soak(rateCell(30, t -> 30 * MIB));
    assertThat(MarkdownReport.render(shortRun)).contains("## Constant rate").doesNotContain("RSS slope");
    assertThat(HtmlReport.render(shortRun, FairnessReview.of(shortRun))).doesNotContain("RSS slope");
  }
}
