package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.entry;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderCell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderRun;
import static dev.fairbench.orchestrator.report.ResultsFixtures.rung;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.report.html.CompareHtml;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  /** n runs around {@code centre} with ~2% lognormal noise, the same seed giving the same noise. */
  private static List<RunRecord> noisy(double centre, int n, long seed) {
    Random random = new Random(seed);
    return IntStream.range(0, n).mapToObj(i -> run(i + 1, centre * Math.exp(0.02 * random.nextGaussian()), 0.5, 0.99, 0))
        .toList();
  }

  /** Ten entries × two endpoints; {@code slowed} runs {@code factor} slower. */
  private static ResultsDocument session(long seed, String slowed, double factor, int rounds) {
    return shifted(seed, 10, 0, slowed, factor, rounds);
  }

  @Test
  void twoSessionsOfTheSameCodeAreNotSignificantAnywhere() {
    Comparison c = Comparison.of(session(1, "", 1, 9), session(2, "", 1, 9));
    assertThat(c.rows()).hasSize(20).allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
    assertThat(c.toMarkdown()).contains("**0 of 20 cells significant.**").contains("| ~ |");
  }

  @Test
  void aTenPercentSlowerEntryIsSignificantOnItsCellsOnly() {
    Comparison c = Comparison.of(session(1, "", 1, 9), session(2, "entry-3", 0.9, 9));
    assertThat(c.rows()).filteredOn(r -> r.entry().equals("entry-3"))
        .hasSize(2).allSatisfy(r -> {
          assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT);
          assertThat(r.deltaPercent()).isBetween(-13.0, -7.0);
          assertThat(r.interval().low()).isLessThan(r.ratio());
          assertThat(r.qValue()).isLessThan(0.05);
        });
    assertThat(c.rows()).filteredOn(r -> !r.entry().equals("entry-3"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
  }

  /**
   * {@code entries} entries × two endpoints, each entry shifted by a factor of its own (log-normal, sd
   * {@code spread}, both endpoints alike): what two runs hours apart look like here.
   */
  private static ResultsDocument shifted(long seed, int entries, double spread, String slowed, double factor) {
    return shifted(seed, entries, spread, slowed, factor, 9);
  }

  private static ResultsDocument shifted(long seed, int entries, double spread, String slowed, double factor, int rounds) {
    Random shifts = new Random(seed * 31 + 7);
    List<EntryResult> list = new ArrayList<>();
    for (int e = 0; e < entries; e++) {
      String id = "entry-" + e;
      double f = Math.exp(spread * shifts.nextGaussian()) * (id.equals(slowed) ? factor : 1);
      list.add(measured(id, "F" + e, List.of(cell("plaintext", noisy(20_000 * f, rounds, seed * 100 + e)),
          cell("json", noisy(15_000 * f, rounds, seed * 100 + 50 + e))), conformance(0, List.of())));
    }
    return derived(document(rounds, list));
  }

  @Test
  void cellsThatMoveByShiftsOfTheirOwnBetweenTwoRunsAreNotCalledSignificant() {
    Comparison c = Comparison.of(shifted(1, 20, 0, "", 1), shifted(2, 20, 0.06, "", 1));

    assertThat(c.betweenRuns().significantWithout()).as("on the scatter inside each run alone").isGreaterThanOrEqualTo(10);
    assertThat(c.rows()).filteredOn(r -> r.verdict() == Comparison.Verdict.NOT_SIGNIFICANT).hasSizeGreaterThanOrEqualTo(36);
    assertThat(c.betweenRuns().spreads()).singleElement().satisfies(s -> {
      assertThat(s.cells()).isEqualTo(40);
      assertThat(s.spread()).isBetween(0.03, 0.09);
    });
    assertThat(c.toMarkdown()).contains("Between two runs every cell also moves by a shift of its own")
        .contains("over the 40 throughput and rate cells").contains("cells would have been called significant");
  }

  /** Twenty entries as {@link #shifted}, entry-0 to entry-2 slowed by {@code factor}, each entry's sources recorded. */
  private static ResultsDocument withSources(long seed, double spread, double factor, boolean changedSources) {
    return withSources(seed, spread, factor, changedSources, 1);
  }

  /** As {@link #withSources(long, double, double, boolean)}, entry-3, whose sources never differ, slowed by {@code untouched}. */
  private static ResultsDocument withSources(long seed, double spread, double factor, boolean changedSources,
      double untouched) {
    Random shifts = new Random(seed * 31 + 7);
    List<EntryResult> list = new ArrayList<>();
    java.util.Map<String, String> sources = new java.util.HashMap<>();
    for (int e = 0; e < 20; e++) {
      String id = "entry-" + e;
      boolean slowed = e < 3;
      double f = Math.exp(spread * shifts.nextGaussian()) * (slowed ? factor : 1) * (e == 3 ? untouched : 1);
      list.add(measured(id, "F" + e, List.of(cell("plaintext", noisy(20_000 * f, 9, seed * 100 + e)),
          cell("json", noisy(15_000 * f, 9, seed * 100 + 50 + e))), conformance(0, List.of())));
      sources.put(id, "sha256:" + (slowed && changedSources ? "handicapped-" : "") + id);
    }
    ResultsDocument d = derived(document(9, list));
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(), d.rounds(),
        d.calibration(), d.breaks(), d.entries(),
        new dev.fairbench.orchestrator.results.Invocation(null, List.of(), false, "impls", "native", "", "", "", sources,
            null));
  }

  /** {@code d} recording {@code sources} and {@code code} as the folder hashes of its entries. */
  private static ResultsDocument recording(ResultsDocument d, java.util.Map<String, String> sources,
      java.util.Map<String, String> code) {
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(), d.rounds(),
        d.calibration(), d.breaks(), d.entries(), new dev.fairbench.orchestrator.results.Invocation(null, List.of(),
            false, "impls", "native", "", "", "", sources, code));
  }

  @Test
  void anEntryWhoseDocsAloneDifferIsNotTheChangeUnderTestWhenBothRunsRecordItsCode() {
    java.util.Map<String, String> code = java.util.Map.of("entry-0", "sha256:code-0", "entry-1", "sha256:code-1");
    java.util.Map<String, String> sources = java.util.Map.of("entry-0", "sha256:all-0", "entry-1", "sha256:all-1");
    java.util.Map<String, String> readmeEdited = java.util.Map.of("entry-0", "sha256:all-0-readme-edited",
        "entry-1", "sha256:all-1");
    ResultsDocument before = withSources(1, 0.02, 1, false);
    ResultsDocument after = withSources(2, 0.02, 1, false);

    assertThat(Comparison.changedSources(List.of(recording(before, sources, code)),
        List.of(recording(after, readmeEdited, code)))).isEmpty();
    assertThat(Comparison.changedSources(List.of(recording(before, sources, code)),
        List.of(recording(after, readmeEdited, java.util.Map.of("entry-0", "sha256:code-0-changed",
            "entry-1", "sha256:code-1"))))).as("its code changed").containsExactly("entry-0");
    assertThat(Comparison.changedSources(List.of(recording(before, sources, null)),
        List.of(recording(after, readmeEdited, code))))
        .as("a run made before code was recorded: every file counts").containsExactly("entry-0");
  }

  @Test
  void theSpreadBetweenRunsIsEstimatedWithoutTheCellsOfEntriesWhoseSourcesDiffer() {
    ResultsDocument before = withSources(1, 0.02, 1, false);
    Comparison sameSources = Comparison.of(before, withSources(2, 0.02, 0.8, false));
    Comparison changed = Comparison.of(before, withSources(2, 0.02, 0.8, true));

    assertThat(changed.betweenRuns().changedSources()).containsExactly("entry-0", "entry-1", "entry-2");
    assertThat(changed.betweenRuns().spreads()).singleElement().satisfies(s -> {
      assertThat(s.cells()).as("the allowance still applies to every tested cell").isEqualTo(40);
      assertThat(s.leftOut()).isEqualTo(6);
    });
    ResultsDocument after = withSources(2, 0.02, 0.8, true);
    java.util.function.UnaryOperator<ResultsDocument> unchangedOnly = d -> d.withEntries(d.entries().stream()
        .filter(e -> !List.of("entry-0", "entry-1", "entry-2").contains(e.id())).toList());
    // The same as from a comparison of the unchanged entries alone, but for the round effects, which every cell
    // of a run still estimates.
    assertThat(changed.betweenRuns().spreads().getFirst().spread()).as("the spread of the 34 unchanged cells")
        .isCloseTo(Comparison.of(unchangedOnly.apply(before), unchangedOnly.apply(after)).betweenRuns().spreads()
            .getFirst().spread(), org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(sameSources.betweenRuns().spreads().getFirst().spread())
        .as("taken from every cell, the changed entries' own 20% widens the allowance for their change")
        .isGreaterThan(0.08);
    assertThat(changed.rows()).filteredOn(r -> r.entry().matches("entry-[012]"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT));
    assertThat(sameSources.rows()).filteredOn(r -> r.entry().matches("entry-[012]"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
    assertThat(changed.toMarkdown()).contains(", but for the 6 cells of entry-0, entry-1, entry-2, whose sources differ "
        + "between the runs: they are the change under test, not the noise");
    assertThat(sameSources.betweenRuns().changedSources()).isEmpty();
    assertThat(sameSources.toMarkdown()).doesNotContain("whose sources differ");
  }

  @Test
  void theCellsOfEntriesWhoseSourcesDifferAreTheChangeUnderTestAndTheComparisonSaysHowManyOfTheOthersMoved() {
    Comparison c = Comparison.of(withSources(1, 0.025, 1, false), withSources(2, 0.025, 0.9, true));

    List<Comparison.Row> tested = c.rows().stream().filter(r -> r.pValue() != null).toList();
    assertThat(tested.stream().filter(Comparison.Row::underTest)).hasSize(6)
        .allSatisfy(r -> assertThat(r.entry()).matches("entry-[012]"));
    assertThat(qValues(tested)).as("one family: q among every tested cell").containsExactly(benjaminiHochberg(tested));
    // The untouched entries' own shifts of 2.5% (one run a side) make some of their cells significant too; the
    // comparison counts them under its count.
    long moved = tested.stream().filter(r -> !r.underTest() && r.verdict() == Comparison.Verdict.SIGNIFICANT).count();
    assertThat(moved).isGreaterThan(1);
    assertThat(c.toMarkdown()).contains("Benjamini–Hochberg q-values over the 40 tested cells (false discovery rate 5%)")
        .contains(moved + " of the 34 tested cells whose sources did not change were called significant");

    Comparison sameSources = Comparison.of(withSources(1, 0.025, 1, false), withSources(2, 0.025, 0.9, false));
    assertThat(sameSources.rows()).noneMatch(Comparison.Row::underTest);
    assertThat(sameSources.toMarkdown()).doesNotContain("whose sources did not change");
  }

  @Test
  void anUntouchedCellCalledSignificantIsCountedAsASignThatTheSidesDifferByMore() {
    // entry-0 to entry-2 changed (sources differ) and 20% slower; entry-3 untouched but 30% slower too.
    Comparison c = Comparison.of(withSources(1, 0.01, 1, false), withSources(2, 0.01, 0.8, true, 0.7));

    assertThat(c.rows()).filteredOn(r -> r.entry().equals("entry-3"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT));
    assertThat(c.toMarkdown()).contains("2 of the 34 tested cells whose sources did not change were called significant: "
        + "the sides differ by more than the spread between runs allows for");
  }

  private static double[] qValues(List<Comparison.Row> rows) {
    return rows.stream().mapToDouble(Comparison.Row::qValue).toArray();
  }

  private static double[] benjaminiHochberg(List<Comparison.Row> rows) {
    return dev.fairbench.orchestrator.stats.FalseDiscovery.benjaminiHochbergQValues(
        rows.stream().mapToDouble(Comparison.Row::pValue).toArray());
  }

  /** {@code count} runs of twenty entries, each run with shifts of its own of sd {@code spread}. */
  private static List<ResultsDocument> runs(long firstSeed, int count, double spread, String slowed, double factor) {
    return IntStream.range(0, count).mapToObj(i -> shifted(firstSeed + i, 20, spread, slowed, factor)).toList();
  }

  @Test
  void severalRunsASideOfTheSameCodeAreNotSignificantAndTheSpreadComesFromTheRepeatedRuns() {
    Comparison c = Comparison.of(runs(1, 3, 0.04, "", 1), runs(11, 3, 0.04, "", 1), 0.05, 0.05,
        Comparison.Normalization.NONE);

    assertThat(c.rows()).hasSize(40).allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
    assertThat(c.betweenRuns().repeated()).isTrue();
    assertThat(c.betweenRuns().spreads()).singleElement().satisfies(s -> {
      assertThat(s.source()).isEqualTo(Comparison.Source.REPEATS);
      assertThat(s.spread()).isBetween(0.02, 0.07);
    });
    assertThat(c.toMarkdown()).contains("3 runs before, 3 after.")
        .contains("from the mean of its side's runs").contains("divided among the runs of each side");
  }

  @Test
  void aChangeOfOneEntryTheSizeOfTheShiftsBetweenRunsIsFoundWithSeveralRunsASideNotWithOne() {
    List<ResultsDocument> before = runs(1, 4, 0.04, "", 1);
    List<ResultsDocument> after = runs(11, 4, 0.04, "entry-3", 0.88);

    Comparison one = Comparison.of(before.get(0), after.get(0), 0.05, 0.05, Comparison.Normalization.NONE);
    assertThat(one.rows()).filteredOn(r -> r.entry().equals("entry-3"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));

    Comparison four = Comparison.of(before, after, 0.05, 0.05, Comparison.Normalization.NONE);
    assertThat(four.rows()).filteredOn(r -> r.entry().equals("entry-3")).hasSize(2).allSatisfy(r -> {
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT);
      assertThat(r.interval().low()).isLessThan(0.88).isLessThan(r.ratio());
      assertThat(r.interval().high()).isGreaterThan(r.ratio()).isLessThan(0.95);
    });
    assertThat(four.rows()).filteredOn(r -> !r.entry().equals("entry-3"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
  }

  @Test
  void oneRunAgainstSeveralTakesTheSpreadFromTheSideThatRepeats() {
    Comparison c = Comparison.of(runs(1, 3, 0.04, "", 1), List.of(shifted(21, 20, 0.04, "", 1)), 0.05, 0.05,
        Comparison.Normalization.NONE);
    assertThat(c.betweenRuns().runsBefore()).isEqualTo(3);
    assertThat(c.betweenRuns().runsAfter()).isEqualTo(1);
    assertThat(c.betweenRuns().spreads()).singleElement().satisfies(s -> assertThat(s.spread()).isPositive());
    assertThat(c.rows()).filteredOn(r -> r.verdict() == Comparison.Verdict.NOT_SIGNIFICANT).hasSizeGreaterThanOrEqualTo(38);
  }

  private static ResultsDocument withMethodVersion(ResultsDocument a, String methodVersion) {
    return new ResultsDocument(a.schemaVersion(), methodVersion, a.environment(), a.method(), a.rounds(),
        a.calibration(), a.breaks(), a.entries());
  }

  @Test
  void severalRunsOfDifferentMethodsAreRefusedNamingTheFile() {
    ResultsDocument other = withMethodVersion(shifted(5, 20, 0, "", 1), "another method");
    assertThatThrownBy(() -> Comparison.of(runs(1, 2, 0, "", 1), List.of(shifted(3, 20, 0, "", 1), other), 0.05, 0.05,
        Comparison.Normalization.NONE))
        .isInstanceOf(Comparison.IncomparableException.class).hasMessageContaining("AFTER file 2");
  }

  @Test
  void anEntryFarBeyondTheRunToRunSpreadIsStillFound() {
    Comparison c = Comparison.of(shifted(1, 20, 0, "", 1), shifted(2, 20, 0.02, "entry-3", 0.7));
    assertThat(c.rows()).filteredOn(r -> r.entry().equals("entry-3")).hasSize(2)
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT));
  }

  @Test
  void twoEntriesOfOneRunNeedNoRunToRunTerm() {
    Comparison c = Comparison.withinRun(shifted(1, 20, 0.06, "", 1), "entry-3", "entry-4", 0.05, 0.05,
        Comparison.Normalization.NONE);
    assertThat(c.betweenRuns()).isNull();
    assertThat(c.toMarkdown()).doesNotContain("Between two runs");
  }

  @Test
  void withTooFewCellsTheRunToRunSpreadIsNotEstimatedAndTheComparisonSaysSo() {
    Comparison c = Comparison.of(shifted(1, 2, 0, "", 1), shifted(2, 2, 0.06, "", 1));
    assertThat(c.betweenRuns().spreads()).singleElement().satisfies(s -> assertThat(s.spread()).isNull());
    assertThat(c.toMarkdown()).contains("not estimated for the 4 throughput and rate cells (fewer than 8");
  }

  @Test
  void withThreeRunsASideTheComparisonSaysItCannotDecide() {
    Comparison c = Comparison.of(session(1, "", 1, 3), session(2, "entry-3", 0.5, 3));
    assertThat(c.rows()).allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.TOO_FEW_RUNS));
    assertThat(c.toMarkdown()).contains("too few runs on a side");
  }

  @Test
  void aSignificantButTinyChangeIsBelowTheMinimum() {
    Comparison c = Comparison.of(session(1, "", 1, 15), session(1, "entry-3", 0.97, 15), 0.05, 0.05,
        Comparison.Normalization.NONE);
    assertThat(c.rows()).filteredOn(r -> r.entry().equals("entry-3"))
        .allSatisfy(r -> assertThat(r.why()).contains("below the 5% minimum"));
  }

  @Test
  void falseDiscoveryControlAdjustsEveryPValueUpwards() {
    Comparison c = Comparison.of(session(1, "", 1, 9), session(2, "entry-3", 0.9, 9));
    assertThat(c.rows()).allSatisfy(r -> assertThat(r.qValue()).isGreaterThanOrEqualTo(r.pValue()));
  }

  @Test
  void aCellMeasuredOnOneSideOnlyIsNotJudged() {
    ResultsDocument before = derived(document(9, List.of(measured("e", "E", List.of(cell("json", noisy(1e4, 9, 1))), null))));
    ResultsDocument after = derived(document(9, List.of(measured("e", "E", List.of(cell("plaintext", noisy(1e4, 9, 1))), null))));
    Comparison c = Comparison.of(before, after);
    assertThat(c.rows()).extracting(Comparison.Row::verdict).containsOnly(Comparison.Verdict.NA);
    assertThat(c.toMarkdown()).contains("not measured after").contains("not measured before");
  }

  @Test
  void documentsOfDifferentMethodsAreRefused() {
    ResultsDocument a = session(1, "", 1, 9);
    ResultsDocument old = new ResultsDocument(a.schemaVersion(), "", a.environment(), a.method(), a.rounds(),
        a.calibration(), a.breaks(), a.entries());
    assertThatThrownBy(() -> Comparison.of(old, a)).isInstanceOf(Comparison.IncomparableException.class)
        .hasMessageContaining("different methods");
  }

  @Test
  void everyEnvironmentDifferenceIsListedAtTheTop() {
    ResultsDocument a = session(1, "", 1, 9);
    ResultsDocument b = session(2, "", 1, 9);
    var env = b.environment();
    ResultsDocument other = new ResultsDocument(b.schemaVersion(), b.methodVersion(),
        new dev.fairbench.orchestrator.results.Environment(env.timestamp(), "other-host", "Other CPU", 4, env.kernel(),
            env.cgroupVersion(), env.limitsMode(), env.limitsNote(), env.runtime(), env.loadGenerator(), env.javaVersion(),
            "fedcba", false, new dev.fairbench.orchestrator.results.Environment.LimitsRecord("1", "0", 1024L << 20, 1),
            new dev.fairbench.orchestrator.results.Environment.LoadSettings(1, 2, 64, 1, 2, null), env.endpoints(),
            env.orchestratorPlacement(), env.topology()),
        b.method(), b.rounds(), b.calibration(), b.breaks(), b.entries());
    Comparison c = Comparison.of(a, other);
    assertThat(c.environmentDifferences()).contains("CPU model: Test CPU @ 2.0GHz → Other CPU", "cores: 2 → 4",
        "commit: 0123abcd → fedcba",
        "limits: server CPUs 1, client CPUs 0, memory 512 MiB, WORKERS=1 → server CPUs 1, client CPUs 0, memory 1024 MiB, WORKERS=1",
        "load settings: runs of 2 s, warm-up runs of 2 s while one is over 5% faster than the last, 64 connections, "
            + "1 thread(s), timeout 2 s → runs of 1 s, warm-up 2 s, 64 connections, 1 thread(s), timeout 2 s");
    assertThat(c.toMarkdown()).contains("**The environments differ, and the figures are absolute**");
    assertThat(c.toMarkdown()).as("absolute figures say so instead").doesNotContain("CPU models differ");
    assertThat(c.rows()).allSatisfy(r -> assertThat(r.why()).contains("environments differ"));
  }

  @Test
  void aRunWithExtraRoundsAgainstOneWithoutIsAMethodDifference() {
    ResultsDocument a = session(1, "", 1, 9);
    ResultsDocument b = session(2, "", 1, 9);
    var m = b.method();
    ResultsDocument extra = new ResultsDocument(b.schemaVersion(), b.methodVersion(), b.environment(),
        new ResultsDocument.Method(m.kind(), m.rounds(), 6, m.seed(), m.rewarmSeconds(), m.rates(),
            m.disturbanceThreshold(), m.pipeline(), m.keepAlive(), m.ladderShare(), m.ladderEndpoints(), m.wakeupThreshold(),
            m.spellWaitSeconds(), m.ladderDurationSeconds(), m.ladderRate(), m.forks()),
        b.rounds(), b.calibration(), b.breaks(), b.entries());

    assertThat(Comparison.of(a, extra).environmentDifferences())
        .anySatisfy(d -> assertThat(d).startsWith("method: throughput, 9 rounds, ").contains("→ throughput, 9 rounds and up to 6 extra"));
  }

  @Test
  void aRunWithInterpolatedIntervalsAgainstOneWithoutIsAMethodDifference() {
    ResultsDocument a = session(1, "", 1, 9);
    ResultsDocument b = session(2, "", 1, 9);
    ResultsDocument interpolated = new ResultsDocument(b.schemaVersion(), b.methodVersion(), b.environment(),
        b.method().withMedianInterval(MedianIntervalKind.INTERPOLATED), b.rounds(), b.calibration(), b.breaks(),
        b.entries());

    assertThat(Comparison.of(a, interpolated).environmentDifferences())
        .anySatisfy(d -> assertThat(d).startsWith("method: ").endsWith(", cells' intervals from interpolated order statistics"));
    assertThat(Comparison.of(interpolated, interpolated).environmentDifferences()).noneMatch(d -> d.startsWith("method: "));
  }

  /** A machine 30% slower in every respect: its entries and its nginx alike. */
  private static ResultsDocument machine(double speed, long seed, String slowed, double factor) {
    List<EntryResult> entries = new ArrayList<>(session(seed, slowed, factor, 9).entries().stream()
        .map(e -> e.withCells(e.cells().stream().map(c -> scaled(c, speed)).toList())).toList());
    entries.add(entry("nginx", "nginx", Role.CALIBRATION,
        List.of(scaled(cell("plaintext", noisy(60_000, 9, seed + 7)), speed), scaled(cell("json", noisy(58_000, 9, seed + 8)), speed)),
        null));
    return derived(document(9, entries));
  }

  private static CellResult scaled(CellResult cell, double speed) {
    return cell(cell.endpoint(), cell.runs().stream().map(r -> run(r.round(), r.requestsPerSecond() * speed, 0.5, 0.99, 0))
        .toList());
  }

  @Test
  void normalisedByTheCalibrationTwoMachinesOfDifferentSpeedAgree() {
    ResultsDocument fast = machine(1.0, 1, "", 1);
    ResultsDocument slow = machine(0.7, 2, "", 1);
    assertThat(Comparison.of(fast, slow).significant()).as("absolute figures: every cell, nginx too").isEqualTo(22);
    Comparison normalised = Comparison.of(fast, slow, 0.05, 0.05, Comparison.Normalization.CALIBRATION);
    assertThat(normalised.rows()).filteredOn(r -> !r.calibration())
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
    assertThat(normalised.rows()).filteredOn(r -> !r.calibration())
        .allSatisfy(r -> assertThat(r.metric()).endsWith("÷ calibration"));
  }

  /** The same document, measured (as its environment says) on another CPU model and host. */
  private static ResultsDocument onCpu(ResultsDocument d, String cpuModel, String host) {
    Environment env = d.environment();
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(),
        new Environment(env.timestamp(), host, cpuModel, env.cores(), env.kernel(), env.cgroupVersion(), env.limitsMode(),
            env.limitsNote(), env.runtime(), env.loadGenerator(), env.javaVersion(), env.gitCommit(), env.gitDirty(),
            env.limits(), env.load(), env.endpoints(), env.orchestratorPlacement(), env.topology()),
        d.method(), d.rounds(), d.calibration(), d.breaks(), d.entries());
  }

  @Test
  void aComparisonAcrossCpuModelsSaysThatTheCalibrationDoesNotCarryBetweenThem() {
    Comparison c = Comparison.of(onCpu(machine(1.0, 1, "", 1), "Intel(R) Xeon(R) Processor", "vm-a"),
        onCpu(machine(0.7, 2, "", 1), "AMD EPYC", "vm-b"), 0.05, 0.05, Comparison.Normalization.CALIBRATION);
    assertThat(c.acrossCpuModels()).isTrue();
    assertThat(c.toMarkdown()).contains("- CPU model: Intel(R) Xeon(R) Processor → AMD EPYC")
        .contains("**The CPU models differ.** A ratio to the calibration server does not carry from one CPU model to another")
        .contains("compare runs of one CPU model");
    assertThat(CompareHtml.render(c, "a.json", "b.json")).contains("<strong>The CPU models differ.</strong>");
  }

  @Test
  void twoMachinesOfOneCpuModelAreNotWarnedAboutCpuModels() {
    Comparison c = Comparison.of(onCpu(machine(1.0, 1, "", 1), "AMD EPYC", "vm-a"),
        onCpu(machine(0.7, 2, "", 1), "AMD EPYC", "vm-b"), 0.05, 0.05, Comparison.Normalization.CALIBRATION);
    assertThat(c.environmentDifferences()).contains("host: vm-a → vm-b");
    assertThat(c.acrossCpuModels()).isFalse();
    assertThat(c.toMarkdown()).contains("**The environments differ**").doesNotContain("CPU models differ");
  }

  @Test
  void normalisedByTheCalibrationARealHandicapStillShows() {
    Comparison normalised = Comparison.of(machine(1.0, 1, "", 1), machine(0.7, 2, "entry-5", 0.9), 0.05, 0.05,
        Comparison.Normalization.CALIBRATION);
    assertThat(normalised.rows()).filteredOn(r -> r.entry().equals("entry-5"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT));
  }

  /**
   * Three entries (too few cells for a spread between runs, so each cell's interval is its own) and
   * nginx, whose /json runs scatter by {@code jsonScatter} (up to 1.5 of it either side) around a median
   * {@code jsonLevel} of its usual.
   */
  private static ResultsDocument withFloor(long seed, double jsonLevel, double jsonScatter) {
    List<EntryResult> entries = new ArrayList<>(shifted(seed, 3, 0, "", 1).entries());
    double[] deviations = {0.5, -1.5, 1, -0.2, 0, 1.5, -1, 0.2, -0.5};
    CellResult json = cell("json", IntStream.range(0, 9)
        .mapToObj(i -> run(i + 1, 58_000 * jsonLevel * Math.exp(jsonScatter * deviations[i]), 0.5, 0.99, 0)).toList());
    entries.add(entry("nginx", "nginx", Role.CALIBRATION, List.of(cell("plaintext", noisy(60_000, 9, seed + 7)), json), null));
    return derived(document(9, entries));
  }

  /** How wide a row's 95% interval of the change is, on the log scale. */
  private static double logWidth(Comparison.Row row) {
    return Math.log(row.interval().high() / row.interval().low());
  }

  @Test
  void theCalibrationsOwnScatterEntersEveryNormalisedCellItDividesBetweenTwoRuns() {
    // After: nginx's /json runs scatter by 15% (a noisy hour) and their median came out 12% low; its
    // /plaintext is as steady as before. Every entry is unchanged, so every /json ratio rose about 12%.
    Comparison c = Comparison.of(withFloor(1, 1, 0.02), withFloor(2, 0.88, 0.15), 0.05, 0.05,
        Comparison.Normalization.CALIBRATION);
    assertThat(c.betweenRuns().spreads()).singleElement().satisfies(s -> assertThat(s.spread()).isNull());
    double widestPlaintext = c.rows().stream().filter(r -> !r.calibration() && r.cell().equals("plaintext"))
        .mapToDouble(ComparisonTest::logWidth).max().orElseThrow();
    assertThat(c.rows()).filteredOn(r -> !r.calibration() && r.cell().equals("json")).hasSize(3)
        .allSatisfy(r -> {
          assertThat(r.ratio()).isGreaterThan(1.05);
          assertThat(logWidth(r)).isGreaterThan(2 * widestPlaintext);
          assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT);
        });
    // A steady floor as low is a change of every /json cell, and stays one.
    Comparison steady = Comparison.of(withFloor(1, 1, 0.02), withFloor(2, 0.88, 0.02), 0.05, 0.05,
        Comparison.Normalization.CALIBRATION);
    assertThat(steady.rows()).filteredOn(r -> !r.calibration() && r.cell().equals("json"))
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT));
    assertThat(c.toMarkdown()).contains("Normalisation: calibration (each run's cells divided by its calibration server's "
        + "median over that run, as docs/REPORTS.md says; that median's own error is in every interval and test).");
  }

  @Test
  void twoEntriesOfOneRunShareTheirFloorSoItsScatterDoesNotEnter() {
    ResultsDocument run = withFloor(2, 0.88, 0.15);
    Comparison within = Comparison.withinRun(run, "entry-0", "entry-1", 0.05, 0.05, Comparison.Normalization.CALIBRATION);
    Comparison between = Comparison.of(withFloor(1, 1, 0.02), run, 0.05, 0.05, Comparison.Normalization.CALIBRATION);
    double withinJson = within.rows().stream().filter(r -> r.cell().equals("json")).mapToDouble(ComparisonTest::logWidth)
        .findFirst().orElseThrow();
    double betweenJson = between.rows().stream().filter(r -> r.entry().equals("entry-1") && r.cell().equals("json"))
        .mapToDouble(ComparisonTest::logWidth).findFirst().orElseThrow();
    assertThat(withinJson).isLessThan(betweenJson / 2);
    assertThat(within.toMarkdown())
        .contains("Normalisation: calibration (both entries divided by the same calibration of their run, so its error cancels).");
  }

  /**
   * A framework on its baseline, both at a shared rate: the rate and with it every rung's CPU-µs/request
   * differ between runs ({@code costAtThisRate}), the framework's overhead over its baseline does not
   * unless {@code overhead} says so. ~2% noise per run.
   */
  private static ResultsDocument ladder(long seed, double rate, double costAtThisRate, double overhead) {
    Random random = new Random(seed);
    List<RunRecord> base = new ArrayList<>();
    List<RunRecord> framework = new ArrayList<>();
    for (int round = 1; round <= 9; round++) {
      double baseCost = 20 * costAtThisRate * Math.exp(0.02 * random.nextGaussian());
      base.add(ladderRun(round, rate, baseCost));
      framework.add(ladderRun(round, rate, baseCost * 1.5 * overhead * Math.exp(0.02 * random.nextGaussian())));
    }
    return derived(document(9, List.of(rung("bare", Role.BASELINE, "", List.of(ladderCell("json", base))),
        rung("framework", Role.ENTRY, "bare", List.of(ladderCell("json", framework))))));
  }

  @Test
  void aLadderCellIsComparedByItsOverheadOverItsBaselineNotByItsCostAtARateThatMoved() {
    // The second run's shared rate came out lower, and at a lower rate every request costs 20% more CPU.
    Comparison same = Comparison.of(ladder(1, 20_000, 1.0, 1.0), ladder(2, 16_000, 1.2, 1.0));
    assertThat(same.rows()).filteredOn(r -> r.entry().equals("framework")).singleElement().satisfies(r -> {
      assertThat(r.metric()).isEqualTo("CPU-µs/req ÷ baseline");
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT);
      assertThat(r.before()).isCloseTo(1.5, org.assertj.core.api.Assertions.within(0.05));
    });
    assertThat(same.rows()).filteredOn(r -> r.entry().equals("bare")).singleElement()
        .satisfies(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NA));

    Comparison heavier = Comparison.of(ladder(1, 20_000, 1.0, 1.0), ladder(2, 16_000, 1.2, 1.1));
    assertThat(heavier.rows()).filteredOn(r -> r.entry().equals("framework")).singleElement().satisfies(r -> {
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT);
      assertThat(r.deltaPercent()).isBetween(6.0, 14.0);
    });
  }

  @Test
  void aFrameworkWhoseSourcesDifferIsJudgedOnItsLadderAndItsBaselineStaysUnjudged() {
    java.util.function.BiFunction<ResultsDocument, String, ResultsDocument> withFrameworkSource = (d, hash) ->
        new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(), d.rounds(),
            d.calibration(), d.breaks(), d.entries(), new dev.fairbench.orchestrator.results.Invocation(null, List.of(),
                false, "impls", "native", "", "", "", java.util.Map.of("bare", "sha256:bare", "framework", hash), null));
    Comparison c = Comparison.of(withFrameworkSource.apply(ladder(1, 20_000, 1.0, 1.0), "sha256:framework"),
        withFrameworkSource.apply(ladder(2, 20_000, 1.0, 1.3), "sha256:framework-slower"));

    assertThat(c.betweenRuns().changedSources()).containsExactly("framework");
    assertThat(c.rows()).filteredOn(r -> r.entry().equals("framework")).singleElement().satisfies(r -> {
      assertThat(r.underTest()).isTrue();
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT);
    });
    assertThat(c.rows()).filteredOn(r -> r.entry().equals("bare")).singleElement().satisfies(r -> {
      assertThat(r.underTest()).isFalse();
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NA);
    });
  }

  @Test
  void aLadderThatRanAtAnotherRateSaysSoInItsVerdictsWhyAndOneAtTheSameRateDoesNot() {
    Comparison moved = Comparison.of(ladder(1, 20_000, 1.0, 1.0), ladder(2, 16_000, 1.2, 1.0));
    assertThat(moved.rows()).filteredOn(r -> r.entry().equals("framework")).singleElement()
        .satisfies(r -> assertThat(r.why()).endsWith("; the ladder ran at 20,000 req/s before and 16,000 after: "
            + "a request's CPU cost depends on its rate"));
    // Within 5%: the same measure.
    Comparison close = Comparison.of(ladder(1, 20_000, 1.0, 1.0), ladder(2, 19_500, 1.0, 1.0));
    assertThat(close.rows()).filteredOn(r -> r.entry().equals("framework")).singleElement()
        .satisfies(r -> assertThat(r.why()).doesNotContain("ran at"));
    assertThat(Comparison.of(List.of(ladder(1, 20_000, 1.0, 1.0), ladder(3, 21_000, 1.0, 1.0)),
        List.of(ladder(2, 16_000, 1.2, 1.0), ladder(4, 16_000, 1.2, 1.0)), 0.05, 0.05, Comparison.Normalization.NONE).rows())
        .filteredOn(r -> r.entry().equals("framework")).singleElement()
        .satisfies(r -> assertThat(r.why()).contains("ran at 20,000–21,000 req/s before and 16,000 after"));
  }

  @Test
  void twoEntriesOfOneRunAreComparedCellByCellAsBeforeAndAfter() {
    List<EntryResult> entries = new ArrayList<>(session(1, "entry-4", 0.9, 9).entries());
    ResultsDocument run = derived(document(9, entries));
    Comparison c = Comparison.withinRun(run, "entry-3", "entry-4", 0.05, 0.05, Comparison.Normalization.NONE);
    assertThat(c.rows()).hasSize(2).allSatisfy(r -> {
      assertThat(r.entry()).isEqualTo("entry-3 → entry-4");
      assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SIGNIFICANT);
      assertThat(r.deltaPercent()).isBetween(-13.0, -7.0);
    });
    assertThat(c.toMarkdown()).contains("Two entries of one run");
    assertThat(Comparison.withinRun(run, "entry-1", "entry-2", 0.05, 0.05, Comparison.Normalization.NONE).rows())
        .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_SIGNIFICANT));
  }

  @Test
  void aWithinRunComparisonShowsTheStartFiguresOfTheTwoNamedEntriesOnly() {
    List<EntryResult> entries = session(1, "entry-4", 0.9, 9).entries().stream()
        .map(e -> e.withStartup(StartupReportTest.figures(e.id().equals("entry-4") ? 30 : 20, null, 8 << 20, null)))
        .toList();
    Comparison c = Comparison.withinRun(derived(document(9, entries)), "entry-3", "entry-4", 0.05, 0.05,
        Comparison.Normalization.NONE);
    assertThat(c.startup()).isNotEmpty()
        .allSatisfy(r -> assertThat(r.entry()).isEqualTo("entry-3 → entry-4"));
    assertThat(c.startup()).filteredOn(r -> r.metric().equals("warm start p50")).singleElement()
        .satisfies(r -> assertThat(r.deltaPercent()).isCloseTo(50.0, org.assertj.core.api.Assertions.within(0.1)));
  }

  @Test
  void aWithinRunComparisonOfAnUnknownOrTheSameEntryIsRefused() {
    ResultsDocument run = session(1, "", 1, 9);
    assertThatThrownBy(() -> Comparison.withinRun(run, "entry-1", "nope", 0.05, 0.05, Comparison.Normalization.NONE))
        .isInstanceOf(Comparison.IncomparableException.class).hasMessageContaining("no entry nope");
    assertThatThrownBy(() -> Comparison.withinRun(run, "entry-1", "entry-1", 0.05, 0.05, Comparison.Normalization.NONE))
        .isInstanceOf(Comparison.IncomparableException.class).hasMessageContaining("twice");
  }
}
