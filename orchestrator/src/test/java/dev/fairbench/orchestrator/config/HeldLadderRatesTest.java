package dev.fairbench.orchestrator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.LadderRates;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeldLadderRatesTest {
  private static final HeldLadderRates EARLIER = new HeldLadderRates("earlier", Map.of("py-asgi:uvicorn json", 5000.0));

  @Test
  void aHeldRateIsUsedWhereTheSlowestRungHereCanHoldItWithRoom() {
    // A handicapped slowest rung: its maximum 9,400 instead of 10,200; 5,000 is 53% of it.
    assertThat(EARLIER.holdable("py-asgi:uvicorn", Endpoint.JSON, 9_400)).contains(5000.0);
    assertThat(EARLIER.holdable("py-asgi:uvicorn", Endpoint.JSON, 5000 / HeldLadderRates.HOLDABLE_SHARE)).contains(5000.0);
  }

  @Test
  void aHeldRateAboveSeventyPercentOfTheSlowestMaximumHereIsNotUsed() {
    assertThat(EARLIER.holdable("py-asgi:uvicorn", Endpoint.JSON, 7_000)).isEmpty();
    assertThat(EARLIER.rate("py-asgi:uvicorn", Endpoint.JSON)).contains(5000.0);
  }

  @Test
  void aLadderTheEarlierRunDidNotHaveTakesItsOwnRate() {
    assertThat(EARLIER.holdable("node-http", Endpoint.JSON, 100_000)).isEmpty();
    assertThat(EARLIER.holdable("py-asgi:uvicorn", Endpoint.USER, 100_000)).isEmpty();
  }

  @Test
  void theRatesAreReadFromEachBaselinesLadderCellsAndARunWithoutALadderHasNone() {
    ResultsDocument run = ResultsFixtures.document(2, List.of(
        ResultsFixtures.rung("bare", Role.BASELINE, "", List.of(ResultsFixtures.ladderCell("json",
            List.of(ResultsFixtures.ladderRun(1, 3000, 80), ResultsFixtures.ladderRun(2, 3000, 82))))),
        ResultsFixtures.rung("framework", Role.ENTRY, "bare", List.of(ResultsFixtures.ladderCell("json",
            List.of(ResultsFixtures.ladderRun(1, 3000, 120), ResultsFixtures.ladderRun(2, 3000, 125)))))));
    HeldLadderRates held = LadderRates.of(run, "a.json");
    assertThat(held.rates()).containsExactly(Map.entry("bare json", 3000.0));
    assertThat(held.from()).startsWith("a.json (the run of ");

    ResultsDocument noLadder = ResultsFixtures.document(2, List.of(ResultsFixtures.measured("x", "x",
        List.of(ResultsFixtures.cell("json", ResultsFixtures.runs(100, 110))), ResultsFixtures.conformance(0, List.of()))));
    assertThatThrownBy(() -> LadderRates.of(noLadder, "b.json")).hasMessage("b.json has no ladder that ran: no rate to hold");
  }

  @Test
  void aHeldRateMustBeARate() {
    assertThatThrownBy(() -> new HeldLadderRates("x", Map.of("bare json", Double.NaN))).hasMessageContaining("not a rate");
  }
}
