package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FairnessReviewTest {
  private final FairnessReview review = FairnessReview.of(withDeparture(ResultsFixtures.mixed()));

  private static ResultsDocument withDeparture(ResultsDocument doc) {
    List<EntryResult> entries = doc.entries().stream().map(e -> !e.id().equals("steady-entry") ? e
        : new EntryResult(e.id(), e.entry(), e.variant(), e.role(), e.language(), e.framework(), e.versions(),
            e.workersModel(), e.status(), e.reason(), e.logTail(), e.conformance(), e.cells(), e.limitsReadBack(),
            e.freeze(), e.acceptedFailures(), new EntryResult.Facts("steady", List.of("release build"),
                List.of("checks keys by hand: the binder is case-insensitive")), e.standsOn(), e.startup())).toList();
    return doc.withEntries(entries);
  }

  /** The review, in Markdown, of the mixed fixture with {@code extra} beside its entries. */
  private static String reviewWith(EntryResult extra) {
    ResultsDocument doc = ResultsFixtures.mixed();
    List<EntryResult> entries = new java.util.ArrayList<>(doc.entries());
    entries.add(extra);
    return FairnessReview.of(ResultsFixtures.derived(doc.withEntries(entries))).toMarkdown();
  }

  @Test
  void eachEntryShowsLimitsAppliedAndWorkersObserved() {
    assertThat(review.entries()).hasSize(4);
    assertThat(review.entries().get(0).limitsApplied()).contains("server CPUs 1").contains("512 MiB").contains("WORKERS=1");
    assertThat(review.entries().get(0).workersObserved()).startsWith("1 thread(s) busy under load for WORKERS=1");
    assertThat(review.entries().get(0).workersCheck()).isEqualTo(FairnessReview.WorkersCheck.MATCHES);
  }

  @Test
  void anEntryThatMeasuredNothingHasNoWorkersToCheckAndIsNotMarkedAsAMismatch() {
    FairnessReview.EntryReview absent = review.entries().stream().filter(e -> e.id().equals("absent-entry")).findFirst().orElseThrow();
    assertThat(absent.workersCheck()).isEqualTo(FairnessReview.WorkersCheck.NOTHING_MEASURED);
    assertThat(review.toMarkdown()).contains("- Workers observed: not observed (no cell was measured)\n");
    assertThat(review.toMarkdown()).doesNotContain("does not match, or not observed");
  }

  @Test
  void workersAreCheckedOnlyWhereCellsWereMeasured() {
    EntryResult measured = ResultsFixtures.mixed().entries().get(0);
    assertThat(FairnessReview.WorkersCheck.of(new WorkerObservation("threads", 1, 1, 1, 1, 12, 3, false), measured))
        .isEqualTo(FairnessReview.WorkersCheck.DOES_NOT_MATCH);
    assertThat(FairnessReview.WorkersCheck.of(null, measured)).isEqualTo(FairnessReview.WorkersCheck.NOT_OBSERVED);
    assertThat(FairnessReview.WorkersCheck.NOT_OBSERVED.badge()).isEqualTo("not observed");
  }

  @Test
  void departuresAndProductionFactsComeFromTheManifest() {
    String md = review.toMarkdown();
    assertThat(md).contains("Production mode: release build").contains("  - checks keys by hand: the binder is case-insensitive");
  }

  @Test
  void conformanceWarningsAndRunQualityDoubtsAreListed() {
    String md = review.toMarkdown();
    assertThat(md).contains("  - 7.10: 30.0 answered 400 (integral floats rejected)");
    assertThat(md).contains("  - plaintext: client-bound").contains("  - json: invalid");
    assertThat(md).contains("Status: unavailable — dependencies not fetched: hex.pm is unreachable");
  }

  @Test
  void eachCellsWarmUpRunsAreListedWithHowFarRoundOneFellFromTheMedians() {
    assertThat(review.toMarkdown()).contains("- Warm-up: runs of 2 s while one is over 5% faster than the last, req/s: "
        + "plaintext 12,000 → 19,000 → 19,600. Round 1, its effect on every cell taken out: 0.5% above its cells' medians "
        + "(the mean over 2)\n");
  }

  @Test
  void aColdFirstRoundAndAWarmUpStillRisingAtItsLastRunAreShown() {
    EntryResult cold = ResultsFixtures.measured("cold-jvm", "Cold 1.0", List.of(
        ResultsFixtures.warmed(ResultsFixtures.cell("plaintext",
            ResultsFixtures.runs(12_000, 20_000, 20_100, 20_050, 19_900, 20_150, 20_000, 20_100, 19_950)),
            4_000.0, 8_000.0, 11_000.0, 14_000.0, 16_000.0, 18_000.0)), ResultsFixtures.conformance(0, List.of()));
    String md = reviewWith(cold);

    assertThat(md).contains("- Warm-up: runs of 2 s while one is over 5% faster than the last, req/s: plaintext 4,000 → "
        + "8,000 → 11,000 → 14,000 → 16,000 → 18,000 (**still rising at the last**). Round 1, its effect on every cell "
        + "taken out: 39.6% below its cells' medians (the mean over 1)");
  }

  @Test
  void aFreshProcesssWarmUpAndHowFarItsFirstRoundFellAreShown() {
    EntryResult forked = ResultsFixtures.measured("forked-jvm", "Forked 1.0", List.of(
        ResultsFixtures.warmed(ResultsFixtures.cell("plaintext",
            ResultsFixtures.runs(20_000, 20_100, 20_050, 12_000, 19_900, 20_150, 20_000, 20_100, 19_950)),
            15_000.0, 19_800.0, 20_000.0)), ResultsFixtures.conformance(0, List.of()));
    java.time.Instant start = java.time.Instant.parse("2026-12-06T20:00:00Z");
    forked = new EntryResult(forked.id(), forked.entry(), forked.variant(), forked.role(), forked.language(),
        forked.framework(), forked.versions(), forked.workersModel(), forked.status(), forked.reason(), forked.logTail(),
        forked.conformance(), forked.cells(), forked.limitsReadBack(), forked.freeze(), forked.acceptedFailures(),
        forked.facts(), forked.standsOn(), forked.startup(), forked.openFiles(), forked.runtime(), forked.serverLog(),
        List.of(new EntryResult.ProcessStart(1, start), new EntryResult.ProcessStart(4, start.plusSeconds(600),
            Map.of("plaintext", List.of(3_000.0, 6_000.0, 9_000.0, 12_000.0, 15_000.0, 18_000.0)))));
    String md = reviewWith(forked);

    assertThat(md).contains("plaintext 15,000 → 19,800 → 20,000; process 2 (from round 4): plaintext 3,000 → 6,000 → "
        + "9,000 → 12,000 → 15,000 → 18,000 (**still rising at the last**). Round 1, its effect on every cell taken out: ")
        .containsPattern("; round 4 \\(a fresh process's first\\), its effect on every cell taken out: 3\\d\\.\\d% below "
            + "its cells' medians \\(the mean over 1\\)");
  }

  @Test
  void aFirstRoundSlowOnEveryCellIsTheMachinesNotTheEntrys() {
    // every cell's round 1 10% below its later rounds: the round's effect, not a cold start
    List<EntryResult> entries = new java.util.ArrayList<>();
    for (String id : List.of("a", "b", "c")) {
      entries.add(ResultsFixtures.measured(id, id, List.of(
          ResultsFixtures.warmed(ResultsFixtures.cell("plaintext",
              ResultsFixtures.runs(18_000, 20_000, 20_100, 20_050, 19_900, 20_150, 20_000, 20_100, 19_950)), 19_000.0, 19_500.0),
          ResultsFixtures.warmed(ResultsFixtures.cell("json",
              ResultsFixtures.runs(9_000, 10_000, 10_050, 10_020, 9_950, 10_080, 10_000, 10_050, 9_970)), 9_800.0, 9_900.0)),
          ResultsFixtures.conformance(0, List.of())));
    }
    String md = FairnessReview.of(ResultsFixtures.derived(ResultsFixtures.document(9, entries))).toMarkdown();

    assertThat(md).containsPattern("Round 1, its effect on every cell taken out: 0\\.[0-4]% (below|above) its cells' medians "
        + "\\(the mean over 2\\)");
  }

  @Test
  void aShareOfMaxRateCellsWarmUpSaysItRanUntilTwoRunsAgreed() {
    List<RunRecord> runs = java.util.stream.IntStream.rangeClosed(1, 9)
        .mapToObj(r -> ResultsFixtures.ladderRun(r, 126_000, 6.0)).toList();
    CellResult settled = new CellResult("json", CellKind.RATE, "90%", CellStatus.MEASURED, "", runs, null, null,
        List.of(), null, List.of(6_639.0, 100_000.0, 140_000.0, 141_000.0));
    CellResult apart = new CellResult("json", CellKind.RATE, "50%", CellStatus.MEASURED, "", runs, null, null,
        List.of(), null, List.of(1_000.0, 2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0));
    String md = reviewWith(ResultsFixtures.measured("soaked", "Soaked 1.0", List.of(settled, apart),
        ResultsFixtures.conformance(0, List.of())));

    assertThat(md).contains("json@90% 6,639 → 100,000 → 140,000 → 141,000 (the maximum its rate is a share of: runs until two "
        + "agreed within 5%); json@50% 1,000 → 2,000 → 3,000 → 4,000 → 5,000 → 6,000 (**the maximum its rate is a share of: "
        + "the last two still more than 5% apart**)");
  }

  @Test
  void aRunWithoutWarmUpRecordsHasNoWarmUpLine() {
    ResultsDocument doc = ResultsFixtures.mixed();
    ResultsDocument bare = doc.withEntries(doc.entries().stream().map(e -> e.withCells(e.cells().stream()
        .map(c -> new CellResult(c.endpoint(), c.kind(), c.rate(), c.status(), c.reason(), c.runs(), c.stats(),
            c.workers(), c.flags(), c.answerBytes())).toList())).toList());
    assertThat(FairnessReview.of(bare).toMarkdown()).doesNotContain("Warm-up");
  }

  @Test
  void theCalibrationServerIsReviewedAsCalibrationNotAsAnEntry() {
    assertThat(review.toMarkdown()).contains("## nginx — nginx (calibration server: measured like an entry, never ranked)");
  }

  @Test
  void theMethodSaysTheEntriesWereInterleavedWithTheSeed() {
    assertThat(review.toMarkdown()).contains("visited in 9 rounds in shuffled orders (seed 42)");
  }
}
