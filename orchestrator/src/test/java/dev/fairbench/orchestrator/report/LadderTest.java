package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderCell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderRun;
import static dev.fairbench.orchestrator.report.ResultsFixtures.rung;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LadderTest {
  private static List<dev.fairbench.orchestrator.results.RunRecord> around(double cpuMicros, long seed) {
    Random random = new Random(seed);
    return IntStream.range(0, 9).mapToObj(i -> ladderRun(i + 1, 5_000, cpuMicros * (1 + 0.01 * random.nextGaussian())))
        .toList();
  }

  /** A baseline at 10 CPU-µs/request, a framework on it at 15, and one at 9 (it does less than the floor). */
  private static ResultsDocument ladder() {
    return derived(document(9, List.of(
        rung("heavy-framework", Role.ENTRY, "bare", List.of(ladderCell("json", around(15, 2)))),
        rung("light-framework", Role.ENTRY, "bare", List.of(ladderCell("json", around(9, 3)))),
        rung("bare", Role.BASELINE, "", List.of(ladderCell("json", around(10, 1)))))));
  }

  @Test
  void theBaselineIsTheFloorAndEachFrameworkItsOverheadOverIt() {
    List<Ladder.Row> rows = Ladder.of(ladder());
    assertThat(rows).extracting(Ladder.Row::id).containsExactly("bare", "heavy-framework", "light-framework");
    Ladder.Row heavy = rows.get(1);
    assertThat(heavy.overhead()).isBetween(4.5, 5.5);
    assertThat(heavy.ratio()).isBetween(1.45, 1.55);
    assertThat(heavy.overheadInterval().low()).isLessThan(heavy.overhead());
    assertThat(heavy.overheadInterval().high()).isGreaterThan(heavy.overhead());
  }

  @Test
  void anOverheadCanBeNegativeAndTheChartDrawsItSo() {
    Ladder.Row light = Ladder.of(ladder()).get(2);
    assertThat(light.overhead()).isNegative();
    assertThat(light.ratio()).isLessThan(1);
    String html = HtmlReport.render(ladder(), FairnessReview.of(ladder()));
    assertThat(html).contains("<section id=\"ladder\">").contains("class=\"overhead negative\"")
        .contains("class=\"overhead\"");
  }

  @Test
  void theMarkdownReportHasTheLadderSection() {
    String md = MarkdownReport.render(ladder());
    assertThat(md).contains("## The ladder: runtime floor and framework overhead")
        .contains("| bare | json | **floor** | 5,000 |").containsPattern("\\| bare \\| json \\| heavy-framework \\| 5,000 \\| 15\\.[0-9]{2} ");
  }

  @Test
  void baselinesAreNeverRankedWithTheFrameworks() {
    assertThat(ladder().rankedEntries()).extracting(e -> e.id()).containsExactly("heavy-framework", "light-framework");
    assertThat(FairnessReview.of(ladder()).toMarkdown()).contains("- Ladder: stands on the baseline bare")
        .contains("(baseline: never ranked with the frameworks)");
  }

  @Test
  void aFrameworkWhoseBaselineWasNotMeasuredIsToldSoAndTheBaselineIsNotCalledTrustworthy() {
    ResultsDocument document = ladder();
    List<EntryResult> entries = document.entries().stream()
        .map(e -> e.id().equals("bare") ? new EntryResult(e.id(), e.entry(),
            e.variant(), e.role(), e.language(), e.framework(), e.versions(), e.workersModel(),
            EntryStatus.CONFORMANCE_FAILED, "FAILs 2.3: not benchmarked", e.logTail(),
            e.conformance(), List.of(), e.limitsReadBack(), e.freeze(), e.acceptedFailures(), e.facts(), e.standsOn())
            : e)
        .toList();
    ResultsDocument withoutFloor = derived(document(9, entries));
    assertThat(FairnessReview.of(withoutFloor).toMarkdown())
        .contains("- Ladder: stands on the baseline bare (conformance-failed in this run: no overhead measured)")
        .contains("- Run quality: \n  - no cell measured: the entry is conformance-failed");
  }
}
