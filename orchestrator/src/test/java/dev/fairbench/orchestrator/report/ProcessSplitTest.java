package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessSplitTest {
  /** Rounds 1–4 by the first process, 5–9 by the second. */
  private static final List<EntryResult.ProcessStart> TWO = List.of(
      new EntryResult.ProcessStart(1, Instant.parse("2026-12-05T17:30:00Z")),
      new EntryResult.ProcessStart(5, Instant.parse("2026-12-05T17:46:00Z")));

  private static EntryResult withProcesses(EntryResult e, List<EntryResult.ProcessStart> processes) {
    return new EntryResult(e.id(), e.entry(), e.variant(), e.role(), e.language(), e.framework(), e.versions(),
        e.workersModel(), e.status(), e.reason(), e.logTail(), e.conformance(), e.cells(), e.limitsReadBack(), e.freeze(),
        e.acceptedFailures(), e.facts(), e.standsOn(), e.startup(), e.openFiles(), e.runtime(), e.serverLog(), processes);
  }

  private static ResultsDocument twoProcesses(List<EntryResult> entries) {
    ResultsDocument d = ResultsFixtures.document(9, entries);
    ResultsDocument.Method m = d.method();
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(),
        new ResultsDocument.Method(m.kind(), m.rounds(), m.extraRounds(), m.seed(), m.rewarmSeconds(), m.rates(),
            m.disturbanceThreshold(), m.pipeline(), m.keepAlive(), m.ladderShare(), m.ladderEndpoints(),
            m.wakeupThreshold(), m.spellWaitSeconds(), m.ladderDurationSeconds(), m.ladderRate(), 2),
        d.rounds(), d.calibration(), d.breaks(), d.entries());
  }

  /** Nine runs: rounds 1–4 around {@code first}, 5–9 around {@code second}, each wobbling by 1%. */
  private static List<RunRecord> runs(double first, double second) {
    double[] wobble = {1.00, 1.01, 0.99, 1.005, 0.995, 1.01, 0.99, 1.00, 1.008};
    List<RunRecord> runs = new ArrayList<>();
    for (int round = 1; round <= 9; round++) {
      runs.add(ResultsFixtures.run(round, (round <= 4 ? first : second) * wobble[round - 1], 0.5, 0.99, 0));
    }
    return runs;
  }

  /** node:http in two processes: /validate 17% faster in the second, /json and /plaintext alike. */
  private static ResultsDocument nodeHttpWithOneCellApart() {
    // Only the first cell's runs fall apart by process; a 1% wobble mixes the others'.
    List<CellResult> cells = List.of(ResultsFixtures.cell("validate", runs(33_500, 39_200)),
        ResultsFixtures.cell("json", runs(60_000, 60_300)), ResultsFixtures.cell("plaintext", runs(62_000, 61_800)));
    return twoProcesses(List.of(withProcesses(ResultsFixtures.measured("node-http", "node:http", cells,
        ResultsFixtures.conformance(0, List.of())), TWO)));
  }

  @Test
  void aCellWhoseSecondProcessRanSeventeenPercentFasterIsApartAndTheSteadyOnesAreNot() {
    ResultsDocument document = nodeHttpWithOneCellApart();

    List<ProcessSplit.Row> rows = ProcessSplit.of(document);
    assertThat(rows).hasSize(3);
    assertThat(rows).filteredOn(ProcessSplit.Row::apart).singleElement().satisfies(r -> {
      assertThat(r.cell()).isEqualTo("validate");
      assertThat(r.process()).isEqualTo(2);
      assertThat(r.firstRuns()).isEqualTo(4);
      assertThat(r.runs()).isEqualTo(5);
      assertThat(r.change()).isBetween(0.16, 0.18);
      assertThat(r.separated()).isTrue();
      assertThat(r.p()).isLessThan(0.02); // every run of one above every run of the other: 2 of C(9, 4) orders
    });
    assertThat(ProcessSplit.toMarkdown(document)).contains("## Processes").contains("**1 of 3 cells apart.**")
        .contains("| node-http | validate | req/s | 33,");
  }

  @Test
  void theSectionSaysHowManyCellsChanceAloneWouldPartWithTheirRuns() {
    // Three cells of 4 runs against 5: each falls apart by chance in 2 of C(9, 4) = 126 orders.
    ResultsDocument document = nodeHttpWithOneCellApart();

    assertThat(ProcessSplit.expectedByChance(ProcessSplit.of(document))).isCloseTo(3 * 2 / 126.0,
        org.assertj.core.data.Offset.offset(1e-12));
    assertThat(ProcessSplit.toMarkdown(document)).contains("chance alone would part about 0.05 of the 3")
        .contains("a shift they all share at a turn is read as those rounds' effect");
  }

  @Test
  void runsSeparatedByProcessButLessThanFivePercentApartAreNotApart() {
    List<CellResult> cells = List.of(ResultsFixtures.cell("json", runs(60_000, 62_400)));
    ResultsDocument document = twoProcesses(List.of(withProcesses(ResultsFixtures.measured("go-gin", "gin", cells,
        ResultsFixtures.conformance(0, List.of())), TWO)));
    assertThat(ProcessSplit.of(document)).singleElement().satisfies(r -> {
      assertThat(r.separated()).isTrue();
      assertThat(r.apart()).isFalse();
    });
  }

  @Test
  void aRoundSlowForEveryCellIsTheMachineNotAProcess() {
    // Rounds 1–4 read 15% slower for every cell, as a slow spell would have them; the round effect takes it out.
    List<RunRecord> runs = runs(51_000, 60_000);
    ResultsDocument d = twoProcesses(List.of(withProcesses(ResultsFixtures.measured("go-gin", "gin",
        List.of(ResultsFixtures.cell("json", runs)), ResultsFixtures.conformance(0, List.of())), TWO)));
    List<ResultsDocument.RoundRecord> slowFirst = d.rounds().stream().map(r -> new ResultsDocument.RoundRecord(r.index(),
        r.started(), r.order(), r.probe(), r.index() <= 4 ? Math.log(0.85) : 0)).toList();
    ResultsDocument spelled = new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(),
        slowFirst, d.calibration(), d.breaks(), d.entries());
    assertThat(ProcessSplit.of(d)).singleElement().matches(ProcessSplit.Row::apart);
    assertThat(ProcessSplit.of(spelled)).singleElement().satisfies(r -> assertThat(r.apart()).isFalse());
  }

  @Test
  void aRunOfOneProcessHasNoSection() {
    ResultsDocument document = ResultsFixtures.document(9, List.of(ResultsFixtures.measured("go-gin", "gin",
        List.of(ResultsFixtures.cell("json", runs(33_500, 39_200))), ResultsFixtures.conformance(0, List.of()))));
    assertThat(ProcessSplit.of(document)).isEmpty();
    assertThat(ProcessSplit.toMarkdown(document)).isEmpty();
    assertThat(MarkdownReport.render(ResultsFixtures.derived(document))).doesNotContain("## Processes");
  }

  @Test
  void aRunBelongsToTheLastProcessBegunAtOrBeforeItsRound() {
    assertThat(ProcessSplit.processOf(TWO, 1)).isEqualTo(1);
    assertThat(ProcessSplit.processOf(TWO, 4)).isEqualTo(1);
    assertThat(ProcessSplit.processOf(TWO, 5)).isEqualTo(2);
    assertThat(ProcessSplit.processOf(TWO, 12)).as("an extra round").isEqualTo(2);
  }
}
