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
  void fewerCellsThanTheMinimumGiveNoEstimate() {
    assertThat(RunToRun.spread(changes(RunToRun.MIN_CELLS - 1, 0.05, 0.01, 5),
        Collections.nCopies(RunToRun.MIN_CELLS - 1, 0.01))).isEmpty();
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
}
