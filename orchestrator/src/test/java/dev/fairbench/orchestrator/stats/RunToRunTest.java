package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RunToRunTest {
  /** {@code cells} log changes: a shift of sd {@code spread} of each cell's own plus its error of sd {@code error}. */
  private static List<Double> changes(int cells, double spread, double error, long seed) {
    Random random = new Random(seed);
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < cells; i++) {
      out.add(spread * random.nextGaussian() + error * random.nextGaussian());
    }
    return out;
  }

  @Test
  void theSpreadIsHowFarTheChangesScatterBeyondWhatTheirOwnIntervalsExplain() {
    List<Double> changes = changes(400, 0.05, 0.02, 1);
    assertThat(RunToRun.spread(changes, Collections.nCopies(400, 0.02))).hasValueSatisfying(
        s -> assertThat(s).isCloseTo(0.05, within(0.008)));
  }

  @Test
  void changesNoWiderThanTheirOwnIntervalsLeaveNoSpreadWorthTheName() {
    List<Double> changes = changes(400, 0, 0.02, 2);
    assertThat(RunToRun.spread(changes, Collections.nCopies(400, 0.02))).hasValueSatisfying(
        s -> assertThat(s).isLessThan(0.008));
  }

  @Test
  void aShiftOfEveryCellAlikeIsNotASpread() {
    List<Double> changes = changes(60, 0, 0.01, 3).stream().map(r -> r - 0.10).toList();
    assertThat(RunToRun.spread(changes, Collections.nCopies(60, 0.01))).hasValueSatisfying(
        s -> assertThat(s).isLessThan(0.005));
  }

  @Test
  void aMinorityOfCellsThatReallyChangedMovesTheEstimateLittle() {
    List<Double> changes = new ArrayList<>(changes(100, 0.03, 0.01, 4));
    for (int i = 0; i < 10; i++) {
      changes.add(-0.30);
    }
    assertThat(RunToRun.spread(changes, Collections.nCopies(110, 0.01))).hasValueSatisfying(
        s -> assertThat(s).isBetween(0.02, 0.04));
  }

  @Test
  void aHeavyTailOfShiftsWidensTheSpreadBeyondWhatTheMedianCellShows() {
    // Shifts from a Student t with 3 degrees of freedom (scale 3%): the median absolute deviation
    // reads about 1.13 × the scale, the 90th percentile 1.43 ×; the larger is kept.
    Random random = new Random(14);
    List<Double> changes = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      double chiSquare = 0;
      for (int k = 0; k < 3; k++) {
        double g = random.nextGaussian();
        chiSquare += g * g;
      }
      changes.add(0.03 * random.nextGaussian() / Math.sqrt(chiSquare / 3));
    }
    assertThat(RunToRun.spread(changes, Collections.nCopies(2000, 0.0))).hasValueSatisfying(
        s -> assertThat(s).isBetween(0.03 * 1.3, 0.03 * 1.6));
  }

  @Test
  void fewerCellsThanTheMinimumGiveNoEstimate() {
    assertThat(RunToRun.spread(changes(RunToRun.MIN_CELLS - 1, 0.05, 0.01, 5),
        Collections.nCopies(RunToRun.MIN_CELLS - 1, 0.01))).isEmpty();
  }

  /**
   * {@code entries} entries of four cells each: every cell of an entry shares the entry's shift (sd
   * {@code entryShift}) and has an error of its own (sd {@code error}); the {@code moved} first entries
   * moved by a further {@code by} with every cell.
   */
  private record Grouped(List<Double> changes, List<Double> errors, List<String> entries) {}

  private static Grouped grouped(int entries, double entryShift, double error, int moved, double by, long seed) {
    Random random = new Random(seed);
    Grouped out = new Grouped(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int e = 0; e < entries; e++) {
      double shift = entryShift * random.nextGaussian() + (e < moved ? by : 0);
      for (int c = 0; c < 4; c++) {
        out.changes().add(shift + error * random.nextGaussian());
        out.errors().add(error);
        out.entries().add("entry-" + e);
      }
    }
    return out;
  }

  @Test
  void aFewEntriesThatMovedWithEveryEndpointWidenTheSpreadBeyondWhatTheCellsOneByOneShow() {
    // 3 of 16 entries moved 10% with all four cells, among cells whose own intervals are wide (3%):
    // the cells read one by one take much of that for their own errors; an entry's mean has half of it.
    // Over 200 such draws the entries' reading is the larger in 173, by 14% on average.
    Grouped g = grouped(16, 0.01, 0.03, 3, 0.10, 15);
    double ofCells = RunToRun.spread(g.changes(), g.errors()).orElseThrow();
    assertThat(RunToRun.spread(g.changes(), g.errors(), g.entries())).hasValueSatisfying(r -> {
      assertThat(r.basis()).isEqualTo(RunToRun.Basis.ENTRIES);
      assertThat(r.spread()).isGreaterThan(ofCells);
    });
  }

  @Test
  void entriesWhoseCellsMoveEachOnItsOwnKeepTheCellsReading() {
    // No shift shared by an entry's cells: an entry's mean change scatters less than its cells do.
    Grouped g = grouped(16, 0, 0.02, 0, 0, 16);
    List<Double> shifted = new ArrayList<>();
    Random random = new Random(17);
    g.changes().forEach(c -> shifted.add(c + 0.05 * random.nextGaussian()));
    assertThat(RunToRun.spread(shifted, g.errors(), g.entries())).hasValueSatisfying(r -> {
      assertThat(r.basis()).isEqualTo(RunToRun.Basis.CELLS);
      assertThat(r.spread()).isEqualTo(RunToRun.spread(shifted, g.errors()).orElseThrow());
    });
  }

  @Test
  void fewerEntriesThanTheMinimumGiveOnlyTheCellsReading() {
    Grouped g = grouped(RunToRun.MIN_ENTRIES - 1, 0.01, 0.04, 1, 0.3, 18);
    assertThat(RunToRun.spread(g.changes(), g.errors(), g.entries())).hasValueSatisfying(r -> {
      assertThat(r.basis()).isEqualTo(RunToRun.Basis.CELLS);
      assertThat(r.spread()).isEqualTo(RunToRun.spread(g.changes(), g.errors()).orElseThrow());
    });
  }

  @Test
  void theStandardErrorIsReadBackFromA95PercentInterval() {
    double se = 0.03;
    Interval interval = new Interval(Math.exp(-1.959963984540054 * se), Math.exp(1.959963984540054 * se));
    assertThat(RunToRun.standardError(interval)).isCloseTo(se, within(1e-12));
  }

  @Test
  void theSpreadWeakensTheTestAndWidensTheIntervalInQuadrature() {
    assertThat(RunToRun.pValue(0.10, 0.02, 0)).isLessThan(1e-6);
    assertThat(RunToRun.pValue(0.10, 0.02, 0.05)).isCloseTo(0.0636, within(0.002));
    assertThat(RunToRun.pValue(-0.10, 0.02, 0.05)).isEqualTo(RunToRun.pValue(0.10, 0.02, 0.05));

    Interval wider = RunToRun.widen(1.0, new Interval(0.95, 1.05), 0.05);
    double lowSide = Math.hypot(Math.log(1 / 0.95), 1.959963984540054 * 0.05);
    assertThat(wider.low()).isCloseTo(Math.exp(-lowSide), within(1e-12));
    assertThat(wider.high()).isGreaterThan(1.05);
    Interval same = RunToRun.widen(1.0, new Interval(0.95, 1.05), 0);
    assertThat(same.low()).isCloseTo(0.95, within(1e-12));
    assertThat(same.high()).isCloseTo(1.05, within(1e-12));
  }

  /**
   * One side's {@code runs} runs of {@code cells} cells: each cell's log median is its own level, a
   * shift of that run's own (sd {@code spread}) and its error (sd {@code error}), plus {@code wholeRun}
   * times the run's index for every cell of it alike.
   */
  private static RunToRun.Repeats repeats(int runs, int cells, double spread, double error, double wholeRun, long seed) {
    Random random = new Random(seed);
    double[] levels = new double[cells];
    for (int c = 0; c < cells; c++) {
      levels[c] = Math.log(10_000) + random.nextGaussian();
    }
    double[][] logs = new double[runs][cells];
    double[][] errors = new double[runs][cells];
    for (int r = 0; r < runs; r++) {
      for (int c = 0; c < cells; c++) {
        logs[r][c] = levels[c] + spread * random.nextGaussian() + error * random.nextGaussian() + wholeRun * r;
        errors[r][c] = error;
      }
    }
    return new RunToRun.Repeats(logs, errors);
  }

  @Test
  void theSpreadFromRepeatedRunsIsHowFarTheyScatterBeyondWhatTheirOwnIntervalsExplain() {
    assertThat(RunToRun.spreadFromRepeats(List.of(repeats(3, 200, 0.05, 0.02, 0, 6), repeats(2, 200, 0.05, 0.02, 0, 7))))
        .hasValueSatisfying(s -> assertThat(s).isCloseTo(0.05, within(0.008)));
  }

  @Test
  void repeatedRunsNoWiderThanTheirOwnIntervalsLeaveNoSpreadWorthTheName() {
    assertThat(RunToRun.spreadFromRepeats(List.of(repeats(3, 200, 0, 0.02, 0, 8))))
        .hasValueSatisfying(s -> assertThat(s).isLessThan(0.008));
  }

  @Test
  void aShiftOfAWholeRunIsNotASpread() {
    assertThat(RunToRun.spreadFromRepeats(List.of(repeats(3, 100, 0.03, 0.01, 0.15, 9))))
        .hasValueSatisfying(s -> assertThat(s).isCloseTo(0.03, within(0.008)));
  }

  @Test
  void sidesOfOneRunOrTooFewRepeatedCellsGiveNoEstimate() {
    assertThat(RunToRun.spreadFromRepeats(List.of(repeats(1, 100, 0.05, 0.01, 0, 10), repeats(1, 100, 0.05, 0.01, 0, 11))))
        .isEmpty();
    assertThat(RunToRun.spreadFromRepeats(List.of(repeats(2, RunToRun.MIN_CELLS - 1, 0.05, 0.01, 0, 12)))).isEmpty();
  }

  @Test
  void aCellMissingFromARunIsLeftOutOfThatRunOnly() {
    RunToRun.Repeats side = repeats(3, 200, 0.05, 0.02, 0, 13);
    for (int c = 0; c < 50; c++) {
      side.logMedians()[0][c] = Double.NaN;
      side.standardErrors()[0][c] = Double.NaN;
    }
    assertThat(RunToRun.spreadFromRepeats(List.of(side)))
        .hasValueSatisfying(s -> assertThat(s).isCloseTo(0.05, within(0.01)));
  }
}
