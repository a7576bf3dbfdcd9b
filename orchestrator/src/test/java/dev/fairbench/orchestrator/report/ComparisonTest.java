package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.environment;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  private static ResultsDocument doc(String endpoint, double... rps) {
    return new ResultsDocument(1, environment(), List.of(measured("e", "E",
        List.of(cell(endpoint, java.util.Arrays.stream(rps).mapToObj(r -> run(r, 0.5, 0)).toList())),
        conformance(0, List.of()))));
  }

  @Test
  void aTenPercentDropWithTightRunsIsReal() {
    Comparison c = Comparison.of(doc("/json", 10_000, 10_080, 9_950), doc("/json", 9_000, 9_050, 8_970));
    assertThat(c.rows()).singleElement().satisfies(r -> {
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.REAL);
      assertThat(r.deltaPercent()).isBetween(-10.5, -9.5);
    });
  }

  @Test
  void twoRunsOfTheSameThingWithOverlappingSpreadAreNoise() {
    Comparison c = Comparison.of(doc("/json", 10_000, 10_300, 9_800), doc("/json", 10_200, 9_900, 10_100));
    assertThat(c.rows()).singleElement().extracting(Comparison.Row::verdict).isEqualTo(Comparison.Verdict.NOISE);
  }

  @Test
  void aShiftSmallerThanTwiceTheSpreadIsNoiseEvenWithoutOverlap() {
    // Runs spread ~2.5% (CV): a 3% shift whose ranges just miss each other is within 2 × CV,
    // even with the minimum change lowered to 1%.
    Comparison c = Comparison.of(doc("/json", 10_000, 10_250, 9_750), doc("/json", 10_300, 10_450, 10_260), 0.01);
    assertThat(c.rows()).singleElement().extracting(Comparison.Row::verdict).isEqualTo(Comparison.Verdict.NOISE);
  }

  @Test
  void twoSessionsOfTheSameCodeThatDifferByLessThanTheMinimumChangeAreNoise() {
    // Measured here: py-fastapi /validate, the same code in two sessions (docs/REPORTS.md).
    ResultsDocument first = doc("/validate", 4_664, 4_700, 4_675);
    ResultsDocument second = doc("/validate", 4_633, 4_545, 4_542);
    assertThat(Comparison.of(first, second).rows()).singleElement()
        .extracting(Comparison.Row::verdict).isEqualTo(Comparison.Verdict.NOISE);
    assertThat(Comparison.of(first, second, 0.01).rows()).singleElement()
        .extracting(Comparison.Row::verdict).isEqualTo(Comparison.Verdict.REAL);
  }

  @Test
  void aCellMeasuredOnOneSideOnlyIsNotJudged() {
    Comparison c = Comparison.of(doc("/json", 10_000, 10_100, 9_900), doc("/plaintext", 10_000, 10_100, 9_900));
    assertThat(c.rows()).extracting(Comparison.Row::verdict).containsOnly(Comparison.Verdict.NA);
    assertThat(c.toMarkdown()).contains("not measured after").contains("not measured before");
  }
}
