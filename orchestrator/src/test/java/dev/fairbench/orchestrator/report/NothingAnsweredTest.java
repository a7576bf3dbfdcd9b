package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import org.junit.jupiter.api.Test;

/**
 * A server that answered nothing in any round (ResultsFixtures.silent): its cells read 0, with no
 * interval to give as a share of 0 and no CPU per request, and say why; no report shows NaN.
 */
class NothingAnsweredTest {
  private final ResultsDocument results = ResultsFixtures.silent();
  private final String md = MarkdownReport.render(results);
  private final FairnessReview review = FairnessReview.of(results);

  private CellResult cell(String entry, String name) {
    return results.entries().stream().filter(e -> e.id().equals(entry)).findFirst().orElseThrow()
        .cells().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aCellWhoseRunsAllMeasuredZeroShowsZeroWithADashForItsIntervalNotNaN() {
    assertThat(md).contains("| silent-entry (Lang) | 0 ±—² | 17,971 ±0.8% |")
        .contains("| silent-entry (Lang) | — (no CI) | 55.09 ±0.8% |")
        .as("ratios to the calibration: 0 req/s, and no CPU per request").contains("| silent-entry (Lang) | 0.00 / — |")
        .contains("| silent-entry | plaintext | 0 [0–0] (0–0, CV 0.0%) | — [no CI] |");
  }

  @Test
  void itIsFlaggedInvalidAndTheReasonSaysNothingWasAnswered() {
    CellResult silent = cell("silent-entry", "plaintext");
    assertThat(silent.flags()).containsExactly(Flag.INVALID);
    assertThat(Quality.trustworthy(silent)).isFalse();
    assertThat(Quality.doubts(silent, results.environment())).extracting(Quality.Doubt::text)
        .containsExactly("invalid: no request was answered in any of the 9 counted run(s)");
  }

  @Test
  void aRateCellThatGotNoAnswerSaysItHasNoCpuPerRequestRatherThanTooFewRuns() {
    CellResult floor = cell("silent-base", "json@ladder");
    assertThat(floor.flags()).contains(Flag.INVALID, Flag.FEW_RUNS);
    assertThat(Quality.doubts(floor, results.environment())).extracting(Quality.Doubt::text)
        .contains("few runs: 0 of the 9 counted run(s) made a request to count CPU time against; a "
            + "distribution-free 95% interval of the median needs at least 6");
  }

  @Test
  void aLadderFloorWithNoCpuPerRequestIsNoRungToSubtractFrom() {
    assertThat(Ladder.of(results)).noneMatch(r -> r.baseline().equals("silent-base"));
    assertThat(md).doesNotContain("| silent-base | json |");
  }

  @Test
  void noReportShowsNaNOrInfinity() {
    String html = HtmlReport.render(results, review);
    for (String report : new String[] {md, html, review.toMarkdown()}) {
      assertThat(report).contains("silent-entry").doesNotContain("NaN").doesNotContain("Infinity");
    }
  }
}
