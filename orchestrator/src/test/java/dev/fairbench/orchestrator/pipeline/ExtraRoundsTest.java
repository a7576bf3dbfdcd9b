package dev.fairbench.orchestrator.pipeline;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderCell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderRun;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static dev.fairbench.orchestrator.report.ResultsFixtures.runs;
import static dev.fairbench.orchestrator.report.ResultsFixtures.rung;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.Statistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ExtraRoundsTest {
  private static final double[] TIGHT = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9};
  private static final double[] NEAR_THE_EDGE = {100, 104, 96, 103, 97, 102, 98, 101, 99};
  private static final double[] WIDE = {80, 120, 90, 110, 100, 85, 115, 95, 105};

  private static ExtraRounds.Key key(String server, String endpoint) {
    return new ExtraRounds.Key(server, endpoint, CellKind.THROUGHPUT, "");
  }

  private static EntryResult entry(String id, CellResult... cells) {
    return rung(id, Role.ENTRY, "", List.of(cells));
  }

  private static EntryResult nginx() {
    return rung("nginx", Role.CALIBRATION, "", List.of(cell("plaintext", runs(TIGHT)), cell("json", runs(TIGHT))));
  }

  /** Every run of the cell answered with errors only: invalid whatever its spread. */
  private static CellResult invalid(String endpoint) {
    return cell(endpoint, IntStream.range(0, WIDE.length).mapToObj(i -> run(i + 1, WIDE[i], 0.5, 0.99, 1_000_000)).toList());
  }

  /** b's plaintext wide; every other cell trustworthy, b's user nearest the threshold; nginx's two cells. */
  private static dev.fairbench.orchestrator.results.ResultsDocument oneWideCellAmongTrustedOnes() {
    return derived(document(9, List.of(
        entry("a", cell("plaintext", runs(TIGHT)), cell("json", runs(TIGHT)), cell("user", runs(TIGHT)),
            cell("validate", runs(TIGHT))),
        entry("b", cell("plaintext", runs(WIDE)), cell("json", runs(TIGHT)), cell("user", runs(NEAR_THE_EDGE))),
        nginx())));
  }

  @Test
  void aCellWhoseIntervalIsWiderThanTheThresholdIsVisitedAgainWithTheCalibrationsCellsBesideIt() {
    var doc = oneWideCellAmongTrustedOnes();

    ExtraRounds.Choice choice = ExtraRounds.choose(doc);

    assertThat(choice.wide()).containsExactly(key("b", "plaintext"));
    assertThat(choice.anchors()).startsWith(key("nginx", "plaintext"), key("nginx", "json"));
    assertThat(choice.visits()).isEqualTo(ExtraRounds.MIN_VISITS);
    assertThat(ExtraRounds.enough(choice)).isTrue();
  }

  @Test
  void theAnchorsBesideTheCalibrationAreTheTrustedCellsNearestTheThreshold() {
    var doc = oneWideCellAmongTrustedOnes();

    List<ExtraRounds.Key> anchors = ExtraRounds.choose(doc).anchors();

    // After nginx's two cells the first trusted cell taken is the one whose interval is widest.
    assertThat(anchors.get(2)).isEqualTo(key("b", "user"));
    assertThat(anchors).doesNotContain(key("b", "plaintext"));
  }

  private static CellResult ladder(double[] cpuMicros) {
    return ladderCell("json", IntStream.range(0, cpuMicros.length).mapToObj(i -> ladderRun(i + 1, 5000, cpuMicros[i])).toList());
  }

  @Test
  void aWideLadderCellBringsItsBaselinesLadderCellAlong() {
    var doc = derived(document(9, List.of(
        rung("base", Role.BASELINE, "", List.of(cell("json", runs(TIGHT)), ladder(TIGHT))),
        rung("framework", Role.ENTRY, "base", List.of(cell("json", runs(TIGHT)), ladder(WIDE))),
        // Trusted cells nearer the threshold than the floor: filling the round to six would take these first.
        entry("other", cell("plaintext", runs(NEAR_THE_EDGE)), cell("user", runs(NEAR_THE_EDGE)),
            cell("validate", runs(NEAR_THE_EDGE))),
        nginx())));

    ExtraRounds.Choice choice = ExtraRounds.choose(doc);

    assertThat(choice.wide()).containsExactly(new ExtraRounds.Key("framework", "json", CellKind.LADDER, "50%"));
    assertThat(choice.anchors()).contains(new ExtraRounds.Key("base", "json", CellKind.LADDER, "50%"));
  }

  @Test
  void aCellThatMoreRunsCannotMakeTrustworthyGetsNoExtraRound() {
    var doc = derived(document(9, List.of(
        entry("a", cell("plaintext", runs(TIGHT)), cell("json", runs(TIGHT)), cell("user", runs(TIGHT)),
            cell("validate", runs(TIGHT))),
        entry("broken", invalid("plaintext")), nginx())));

    assertThat(Quality.trustworthy(doc.entries().get(1).cells().getFirst())).isFalse();
    assertThat(ExtraRounds.choose(doc).wide()).isEmpty();
  }

  @Test
  void withoutAWideCellThereIsNoExtraRound() {
    var doc = derived(document(9, List.of(entry("a", cell("plaintext", runs(TIGHT)), cell("json", runs(NEAR_THE_EDGE))),
        nginx())));

    ExtraRounds.Choice choice = ExtraRounds.choose(doc);

    assertThat(choice.wide()).isEmpty();
    assertThat(choice.visits()).isZero();
  }

  @Test
  void aRunWithTooFewRoundsForAnIntervalGetsNoExtraRound() {
    double[] three = {80, 120, 100};
    var doc = derived(document(3, List.of(entry("a", cell("plaintext", runs(three)), cell("json", runs(three)),
        cell("user", runs(three))), nginx())));

    assertThat(ExtraRounds.choose(doc).wide()).isEmpty();
  }

  @Test
  void aRunWithTooFewOtherCellsToStandForTheMachineGetsNoExtraRound() {
    var doc = derived(document(9, List.of(entry("a", cell("plaintext", runs(WIDE)), cell("json", runs(TIGHT))))));

    ExtraRounds.Choice choice = ExtraRounds.choose(doc);

    assertThat(choice.wide()).containsExactly(key("a", "plaintext"));
    assertThat(ExtraRounds.enough(choice)).isFalse();
  }

  @Test
  void theExtraVisitsStayWithinAThirdOfTheRoundsVisits() {
    assertThat(ExtraRounds.visitBudget(9, 81)).isEqualTo(243);
    assertThat(ExtraRounds.visitBudget(9, 31)).isEqualTo(93);
    assertThat(ExtraRounds.visitBudget(2, 7)).isEqualTo(4);
  }

  @Test
  void aVisitsCostLeavesOutTheWaitsForSlowSpellsSoOneSpellIsNotProjectedOntoEveryVisitLeft() {
    // 100 visits in 300 s, 100 s of which waited for a spell to pass: 2 s a visit, not 3.
    assertThat(ExtraRounds.secondsPerVisit(Duration.ofSeconds(300), 100, 100)).isEqualTo(2.0);
    assertThat(ExtraRounds.secondsPerVisit(Duration.ofSeconds(300), 0, 100)).isEqualTo(3.0);
    // 400 visits left: the run would end 800 s from now at that cost, not 1,200 s.
    assertThat(ExtraRounds.endsAtSeconds(Duration.ofSeconds(600),
        ExtraRounds.secondsPerVisit(Duration.ofSeconds(300), 100, 100), 400, 0)).isEqualTo(1400.0);
  }

  @Test
  void aFreshProcessIsCountedOnceWhereItComesNotInTheCostOfEveryVisitAfterIt() {
    // --forks 2 in the run of 2026-12-06 23:08: rounds 1-4 made 284 visits in 472 s, then the fresh processes took 282 s.
    double perVisit = ExtraRounds.secondsPerVisit(Duration.ofSeconds(472 + 282), 282, 284);
    assertThat(perVisit).isCloseTo(472 / 284.0, within(1e-9));
    // Before them, the 340 visits of rounds 5-9 and the restarts still to come; after them, the visits alone.
    assertThat(ExtraRounds.endsAtSeconds(Duration.ofSeconds(855), perVisit, 340, 282))
        .isCloseTo(855 + 340 * perVisit + 282, within(1e-9));
    // At round 5, 1,133 s after the run began: about 28.4 min, so the disturbed visits of rounds 5-9 may be repeated.
    assertThat(ExtraRounds.endsAtSeconds(Duration.ofSeconds(1133), perVisit, 340, 0)).isLessThan(1800);
    assertThat(ExtraRounds.endsAtSeconds(Duration.ofSeconds(1133),
        ExtraRounds.secondsPerVisit(Duration.ofSeconds(472 + 282), 0, 284), 340, 0))
        .as("with the fresh processes in every visit's cost, as before 2026-12-06 23:46 UTC: 33.9 min")
        .isCloseTo(33.9 * 60, within(6.0));
  }

  /**
   * Going on while the interval is wide, and stopping once it is not, decides on the interval's width
   * alone: the interval still covers the true median as often as a fixed count's does (9 runs: 96.1%
   * exactly), and among the cells it calls trustworthy more often than 9 runs do — 9 runs that
   * happened to land close together look precise, more runs correct that.
   */
  @ParameterizedTest
  @EnumSource(MedianIntervalKind.class)
  void anIntervalNarrowedByExtraRoundsStillCoversTheTrueMedianAbout95PercentOfTheTime(MedianIntervalKind kind) {
    Random random = new Random(7);
    double sigma = 0.05; // a log-normal spread that leaves most cells wide after 9 runs, as this machine's often does
    int trials = 20_000;
    int covered = 0;
    int trustedSequential = 0;
    int trustedSequentialCovered = 0;
    int trustedFixed = 0;
    int trustedFixedCovered = 0;
    for (int t = 0; t < trials; t++) {
      List<Double> runs = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        runs.add(Math.exp(random.nextGaussian() * sigma));
      }
      if (halfWidth(runs, kind) <= 0.05) {
        trustedFixed++;
        trustedFixedCovered += covers(runs, kind) ? 1 : 0;
      }
      for (int extra = 0; extra < 6 && halfWidth(runs, kind) > 0.05; extra++) {
        runs.add(Math.exp(random.nextGaussian() * sigma));
      }
      covered += covers(runs, kind) ? 1 : 0;
      if (halfWidth(runs, kind) <= 0.05) {
        trustedSequential++;
        trustedSequentialCovered += covers(runs, kind) ? 1 : 0;
      }
    }
    System.out.printf("%s: covered %.4f; trustworthy after 9 runs %d (covered %.4f), after the extra rounds %d (covered %.4f)%n",
        kind.wireName(), (double) covered / trials, trustedFixed, (double) trustedFixedCovered / trustedFixed,
        trustedSequential, (double) trustedSequentialCovered / trustedSequential);
    assertThat((double) covered / trials).isGreaterThan(0.94);
    assertThat(trustedSequential).as("more cells come out trustworthy").isGreaterThan(2 * trustedFixed);
    assertThat((double) trustedSequentialCovered / trustedSequential)
        .isGreaterThan((double) trustedFixedCovered / trustedFixed).isGreaterThan(0.92);
  }

  private static Interval interval(List<Double> runs, MedianIntervalKind kind) {
    return Objects.requireNonNull(Derivation.interval(runs, kind));
  }

  private static double halfWidth(List<Double> runs, MedianIntervalKind kind) {
    return interval(runs, kind).halfWidthShareOf(Statistics.median(runs));
  }

  private static boolean covers(List<Double> runs, MedianIntervalKind kind) {
    return interval(runs, kind).contains(1.0); // the log-normal's median
  }

  @Test
  void anExtraRoundsRunsKeepTheirRoundNumberBeyondTheRounds() {
    RunRecord extra = run(11, 100, 0.5, 0.99, 0);
    var doc = derived(document(9, List.of(entry("a", cell("plaintext", withExtra(runs(WIDE), extra))), nginx())));
    assertThat(doc.entries().getFirst().cells().getFirst().stats().runs()).isEqualTo(10);
  }

  private static List<RunRecord> withExtra(List<RunRecord> runs, RunRecord extra) {
    List<RunRecord> all = new ArrayList<>(runs);
    all.add(extra);
    return all;
  }
}
