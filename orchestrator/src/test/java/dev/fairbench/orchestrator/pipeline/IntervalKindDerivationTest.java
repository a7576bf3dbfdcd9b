package dev.fairbench.orchestrator.pipeline;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A results file says how its cells' intervals were drawn, and its figures re-derive that way. */
class IntervalKindDerivationTest {
  /** Eleven runs whose second-lowest and second-highest lie 5.5% from the median: wide by order statistics. */
  private static final double[] ELEVEN = {101, 94.5, 110, 99, 103, 90, 100, 105.5, 97, 102, 98};

  private static ResultsDocument elevenRuns(MedianIntervalKind kind) {
    double[] steady = new double[ELEVEN.length];
    Arrays.fill(steady, 1000);
    // Two steady cells beside the wide one, so that every round's effect (a median over the cells) is nil.
    ResultsDocument d = document(ELEVEN.length, List.of(
        measured("spread", "Spread", List.of(cell("plaintext", runs(ELEVEN))), conformance(0, List.of())),
        measured("steady", "Steady", List.of(cell("plaintext", runs(steady)), cell("json", runs(steady))),
            conformance(0, List.of()))));
    ResultsDocument.Method method = kind == null ? d.method() : d.method().withMedianInterval(kind);
    return derived(new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), method, d.rounds(),
        d.calibration(), d.breaks(), d.entries(), d.invocation()));
  }

  private static CellResult spread(ResultsDocument d) {
    return d.entries().get(0).cells().get(0);
  }

  @Test
  void aFileThatDoesNotSayKeepsTheOrderStatisticIntervalItWasJudgedBy() {
    CellResult cell = spread(elevenRuns(null));
    assertThat(cell.stats().requestsPerSecondInterval().low()).isCloseTo(94.5, within(1e-9));
    assertThat(cell.stats().requestsPerSecondInterval().high()).isCloseTo(105.5, within(1e-9));
    assertThat(cell.flags()).contains(Flag.WIDE_INTERVAL);
    assertThat(Quality.trustworthy(cell)).isFalse();
    assertThat(spread(elevenRuns(MedianIntervalKind.ORDER_STATISTICS)).stats()).isEqualTo(cell.stats());
  }

  @Test
  void aRunThatInterpolatesGetsTheInterpolatedIntervalAndTheTrustItGives() {
    CellResult cell = spread(elevenRuns(MedianIntervalKind.INTERPOLATED));
    // λ = 0.91779 of the way from x(2) = 94.5 to x(3) = 97, and from x(10) = 105.5 to x(9) = 103.
    assertThat(cell.stats().requestsPerSecondInterval().low()).isCloseTo(94.5 + 0.91779 * 2.5, within(1e-4));
    assertThat(cell.stats().requestsPerSecondInterval().high()).isCloseTo(105.5 - 0.91779 * 2.5, within(1e-4));
    assertThat(cell.stats().medianRequestsPerSecond()).isEqualTo(100);
    assertThat(cell.flags()).doesNotContain(Flag.WIDE_INTERVAL);
    assertThat(Quality.trustworthy(cell)).isTrue();
  }

  @Test
  void theReportSaysHowItsIntervalsWereDrawn() {
    assertThat(MarkdownReport.render(elevenRuns(MedianIntervalKind.INTERPOLATED)))
        .contains("95% confidence interval (from order statistics, interpolated between neighbouring ranks to cover 95%)");
    assertThat(MarkdownReport.render(elevenRuns(null)))
        .contains("95% confidence interval (distribution-free, from order statistics)");
  }
}
