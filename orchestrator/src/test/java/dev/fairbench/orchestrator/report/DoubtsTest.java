package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.environment;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import java.util.List;
import org.junit.jupiter.api.Test;

class DoubtsTest {
  private static List<String> kinds(CellResult cell) {
    return Doubts.of(cell, environment()).stream().map(Doubts.Doubt::kind).toList();
  }

  @Test
  void aSteadyCellWithThreeCleanRunsIsTrustworthy() {
    CellResult steady = cell("/json", List.of(run(10_000, 0.5, 0), run(10_100, 0.5, 0), run(9_950, 0.5, 0)));
    assertThat(Doubts.trustworthy(steady, environment())).isTrue();
  }

  @Test
  void aLoadGeneratorAtNinetyPercentCpuMakesTheCellClientBound() {
    assertThat(kinds(cell("/json", List.of(run(60_000, 0.95, 0), run(60_100, 0.95, 0), run(60_050, 0.95, 0)))))
        .containsExactly("client-bound");
  }

  @Test
  void moreThanOneErrorPerThousandRequestsMakesTheCellInvalid() {
    assertThat(kinds(cell("/json", List.of(run(10_000, 0.5, 60), run(10_000, 0.5, 60), run(10_000, 0.5, 60)))))
        .containsExactly("invalid");
  }

  @Test
  void aSpreadAboveFivePercentMakesTheCellNoisy() {
    assertThat(kinds(cell("/json", List.of(run(10_000, 0.5, 0), run(12_000, 0.5, 0), run(9_000, 0.5, 0)))))
        .containsExactly("noisy");
  }

  @Test
  void fewerThanThreeRunsLeaveTheSpreadUnknown() {
    assertThat(kinds(cell("/json", List.of(run(10_000, 0.5, 0))))).containsExactly("few-runs");
  }

  @Test
  void workersSeenUnlikeThoseRequestedAreADoubt() {
    CellResult c = cell("/json", List.of(run(10_000, 0.5, 0), run(10_000, 0.5, 0), run(10_000, 0.5, 0)));
    CellResult mismatched = new CellResult(c.endpoint(), c.status(), c.reason(), c.runs(), c.stats(),
        new WorkerObservation("processes", 2, 1, 2, 1, 4, 1, false), c.flags());
    assertThat(Doubts.of(mismatched, environment())).singleElement()
        .satisfies(d -> assertThat(d.text()).contains("2 requested, 1 processes"));
  }

  @Test
  void aCellThatWasNotMeasuredSaysWhy() {
    CellResult failed = new CellResult("/json", CellResult.FAILED, "correctness check: got 500", List.of(), null, null, List.of());
    assertThat(Doubts.of(failed, environment())).singleElement()
        .satisfies(d -> assertThat(d.text()).isEqualTo("not measured: correctness check: got 500"));
  }
}
