package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.results.CellResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
  private final String md = MarkdownReport.render(ResultsFixtures.mixed());

  @Test
  void theReportIsSealedByAGoldenFile() throws Exception {
    Path golden = Path.of(System.getProperty("fairbench.root", "..")).resolve(
        "orchestrator/src/test/resources/report/golden-report.md");
    if (Boolean.getBoolean("fairbench.golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, md);
    }
    String expected;
    try (var in = MarkdownReportTest.class.getResourceAsStream("/report/golden-report.md")) {
      expected = Boolean.getBoolean("fairbench.golden.update") ? Files.readString(golden)
          : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(md).as("the Markdown report changed: check it, then -Dfairbench.golden.update=true").isEqualTo(expected);
  }

  @Test
  void aCellWhoseLoadClientMeasuredNoLatencyShowsNoneNotZero() {
    List<dev.fairbench.orchestrator.results.RunRecord> untimed = ResultsFixtures.runs(9_000, 9_100, 9_050, 9_020, 9_080, 9_060)
        .stream().map(r -> new dev.fairbench.orchestrator.results.RunRecord(r.round(), 1, true, r.requests(),
            r.durationSeconds(), r.requestsPerSecond(), r.bytes(), r.non2xx(), r.socketErrors(), null,
            r.serverCpuSeconds(), r.serverPeakRssBytes(), r.serverMemoryPeakBytes(), r.clientCpuSeconds(),
            r.clientCpuUtilisation(), r.disturbance(), null)).toList();
    var document = ResultsFixtures.derived(ResultsFixtures.document(6, List.of(
        ResultsFixtures.measured("pipelined-entry", "P", List.of(ResultsFixtures.cell("plaintext", untimed)), null))));
    String report = MarkdownReport.render(document);
    assertThat(report).containsPattern("\\| pipelined-entry \\| plaintext \\| [^|]+\\| [^|]+\\| 6 \\| — \\| — \\|")
        .contains("A latency shown as — was not measured");
    String html = dev.fairbench.orchestrator.report.html.HtmlReport.render(document, FairnessReview.of(document));
    assertThat(html).as("the latency charts say why the bar is missing").contains("not measured: a pipelined cell")
        .doesNotContain("not computable");
    assertThat(md).doesNotContain("A latency shown as —");
  }

  @Test
  void theMethodLineSaysWhenSlowWakeupsRepeatAVisitAndHowLongOneWaitsForThem() {
    var plain = ResultsFixtures.mixed();
    var m = plain.method();
    var withWakeups = new dev.fairbench.orchestrator.results.ResultsDocument(plain.schemaVersion(), plain.methodVersion(),
        plain.environment(), new dev.fairbench.orchestrator.results.ResultsDocument.Method(m.kind(), m.rounds(),
            m.extraRounds(), m.seed(), m.rewarmSeconds(), m.rates(), m.disturbanceThreshold(), m.pipeline(), m.keepAlive(),
            m.ladderShare(), m.ladderEndpoints(), 0.8, 30.0, null, null, null),
        plain.rounds(), plain.calibration(), plain.breaks(), plain.entries());
    assertThat(MarkdownReport.render(withWakeups))
        .contains("or with cross-CPU wake-ups below 80% of the run's usual rate just before or after it, is repeated once; "
            + "a visit whose wake-ups read slow just before its thaw first waits up to 30 s for them to read usual.");
    assertThat(md).doesNotContain("wake-ups");
  }

  @Test
  void theTrustLineComesFirstAndCountsOnlyEntryCells() {
    assertThat(md).contains("**Trustworthy: 3 of 4 entry cells**");
    assertThat(md.indexOf("Trustworthy:")).isLessThan(md.indexOf("## Requests per second"));
  }

  @Test
  void throughputShowsTheIntervalAndFlagMarksLikeSeed000() {
    assertThat(md).contains("| Entry | Plaintext | JSON |")
        .contains("| steady-entry (Lang) | 20,082 ±0.9% | 17,970 ±0.8% |")
        .contains("| fast-entry (Lang) | 60,400 ±0.0%¹ | 30,200 ±0.0%² |");
  }

  @Test
  void severalMarksOfOneFigureStandApart() {
    CellResult c = ResultsFixtures.cell("json", ResultsFixtures.runs(1, 2, 3));
    CellResult flagged = new CellResult(
        c.endpoint(), c.kind(), c.rate(), c.status(), c.reason(), c.runs(), c.stats(), c.workers(),
        List.of(Flag.CLIENT_BOUND, Flag.ANSWERS_DIFFER));
    assertThat(MarkdownReport.flagMarks(flagged)).isEqualTo("¹·¹¹");
  }

  @Test
  void theCalibrationServerIsItsOwnRowNeverRanked() {
    // The fixture's nginx rises by the same 100 req/s every round as fast-entry: a round effect, taken out.
    assertThat(md).contains("| nginx — calibration, not ranked | 64,400 ±0.0%¹ | 62,398 ±0.0%¹ |");
  }

  @Test
  void cellsAreShownAsRatiosToTheCalibration() {
    assertThat(md).contains("## Against the calibration server").contains("| steady-entry (Lang) | 0.31 / ");
  }

  @Test
  void roundsShowTheProbeAndTheRoundEffect() {
    assertThat(md).contains("| Round | Started | Visits | Repeated (disturbed) | CPU probe | Round effect (log) |")
        .contains("| 1 | 2026-11-30T12:01:00Z | 0 | 0 | 320 MB/s | -0.006 |");
  }

  @Test
  void failuresConformanceAndEnvironmentAreListed() {
    assertThat(md).contains("| absent-entry | unavailable | dependencies not fetched: hex.pm is unreachable |")
        .contains("| steady-entry | WARN | 59 / 1 / 0 | WARN 7.10: 30.0 answered 400 (integral floats rejected) |")
        .contains("| Server limits | CPUs 1, memory 512 MiB, WORKERS=1 |")
        .contains("| Client ceiling | 64,400 req/s")
        .contains("| Orchestrator | every thread on CPUs 0 (checked) |");
  }
}
