package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtraRoundsDoneTest {
  /** {@link ResultsFixtures#mixed()} with two extra rounds after its 9, one with a repeated visit. */
  private static ResultsDocument withExtraRounds() {
    ResultsDocument d = ResultsFixtures.mixed();
    List<RoundRecord> rounds = new ArrayList<>(d.rounds());
    Instant t = Instant.parse("2026-11-30T13:00:00Z");
    rounds.add(new RoundRecord(10, t, List.of("fast-entry json", "nginx plaintext", "steady-entry json",
        "fast-entry json (repeat)"), null, 0));
    rounds.add(new RoundRecord(11, t.plusSeconds(30), List.of("nginx plaintext", "fast-entry json"), null, 0));
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(), rounds, d.calibration(),
        d.breaks(), d.entries(), d.invocation());
  }

  @Test
  void aRoundAfterTheRoundsIsLabelledExtra() {
    ResultsDocument d = withExtraRounds();
    assertThat(ExtraRoundsDone.label(d, d.rounds().get(8))).isEqualTo("9");
    assertThat(ExtraRoundsDone.label(d, d.rounds().get(9))).isEqualTo("10 (extra)");
  }

  @Test
  void theReportsSayHowManyExtraRoundsVisitsAndCells() {
    ResultsDocument d = withExtraRounds();
    ExtraRoundsDone extra = ExtraRoundsDone.of(d).orElseThrow();
    assertThat(extra).isEqualTo(new ExtraRoundsDone(2, 6, 3));
    assertThat(extra.describe()).startsWith("Then 2 extra rounds (6 visits) over 3 cells");
    assertThat(MarkdownReport.render(d)).contains("| 10 (extra) |").contains(extra.describe());
    assertThat(FairnessReview.of(d).toMarkdown()).contains(extra.describe());
  }

  @Test
  void aRunWithoutExtraRoundsSaysNothingOfThem() {
    ResultsDocument d = ResultsFixtures.mixed();
    assertThat(ExtraRoundsDone.of(d)).isEmpty();
    assertThat(MarkdownReport.render(d)).doesNotContain("extra round");
  }
}
