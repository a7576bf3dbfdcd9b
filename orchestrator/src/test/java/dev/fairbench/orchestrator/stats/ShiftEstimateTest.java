package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShiftEstimateTest {
  private static final double CONFIDENCE = 0.95;

  @Test
  void aPureTenPercentShiftOfTheSameNoiseGivesARatioOfOnePointOne() {
    List<Double> before = List.of(51_200.0, 49_800.0, 50_500.0, 47_900.0, 52_300.0, 50_100.0, 49_000.0);
    List<Double> after = before.stream().map(v -> v * 1.10).toList();
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(before, after, CONFIDENCE).orElseThrow();
    // The differences log(after_j) - log(before_i) are log 1.1 plus e_j - e_i: symmetric about log 1.1.
    assertThat(change.ratio()).isCloseTo(1.10, within(1e-12));
    assertThat(change.ratioInterval().contains(1.10)).isTrue();
    assertThat(change.ratioInterval().low()).as("a 10% shift over 4% noise is clear").isGreaterThan(1.0);
  }

  @Test
  void aTenPercentShiftUnderIndependentNoiseIsCoveredByTheInterval() {
    Random random = new Random(5);
    List<Double> before = lognormal(random, 9, 1.0, 0.03);
    List<Double> after = lognormal(random, 9, 1.10, 0.03);
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(before, after, CONFIDENCE).orElseThrow();
    assertThat(change.ratio()).isCloseTo(1.10, within(0.03));
    assertThat(change.ratioInterval().contains(1.10)).isTrue();
    assertThat(change.ratioInterval().contains(1.0)).isFalse();
  }

  @Test
  void theSameRunsInAnotherOrderGiveARatioOfOneInsideItsInterval() {
    List<Double> before = List.of(103.0, 97.0, 100.0, 99.0, 101.5, 98.0);
    List<Double> after = List.of(99.0, 101.5, 97.0, 100.0, 98.0, 103.0);
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(before, after, CONFIDENCE).orElseThrow();
    assertThat(change.ratio()).isCloseTo(1.0, within(1e-12));
    assertThat(change.ratioInterval().low()).isLessThan(1.0);
    assertThat(change.ratioInterval().high()).isGreaterThan(1.0);
  }

  @Test
  void intervalBoundsArePairwiseDifferencesAtTheCriticalCount() {
    // 5 against 5 at 95%: P(U <= 2) = 4/252 = 0.0159 <= 0.025 < P(U <= 3) = 7/252, so c = 3 and the
    // bounds are the 3rd smallest and 3rd largest of the 25 ratios after_j / before_i.
    assertThat(ShiftEstimate.criticalCount(5, 5, CONFIDENCE)).isEqualTo(3);
    List<Double> before = List.of(1.0, 2.0, 4.0, 8.0, 16.0);
    List<Double> after = List.of(3.0, 5.0, 7.0, 11.0, 13.0);
    List<Double> ratios = new ArrayList<>();
    for (double b : before) {
      for (double a : after) {
        ratios.add(a / b);
      }
    }
    ratios.sort(null);
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(before, after, CONFIDENCE).orElseThrow();
    assertThat(change.ratio()).isCloseTo(ratios.get(12), within(1e-12));
    assertThat(change.ratioInterval().low()).isCloseTo(ratios.get(2), within(1e-12));
    assertThat(change.ratioInterval().high()).isCloseTo(ratios.get(22), within(1e-12));
  }

  @Test
  void emptyWhenTheSamplesAreTooSmallForTheConfidence() {
    assertThat(ShiftEstimate.ratioOfMedians(runs(3), runs(3), CONFIDENCE)).as("1/C(6,3) = 1/20 > 0.025").isEmpty();
    assertThat(ShiftEstimate.ratioOfMedians(runs(3), runs(4), CONFIDENCE)).as("1/35 > 0.025").isEmpty();
    assertThat(ShiftEstimate.ratioOfMedians(runs(2), runs(7), CONFIDENCE)).as("1/36 > 0.025").isEmpty();
    assertThat(ShiftEstimate.ratioOfMedians(runs(2), runs(8), CONFIDENCE)).as("1/45 <= 0.025").isPresent();
    assertThat(ShiftEstimate.ratioOfMedians(runs(4), runs(4), CONFIDENCE)).as("1/70 <= 0.025").isPresent();
  }

  @Test
  void coverageBySimulationReachesTheConfidence() {
    Random random = new Random(17);
    int trials = 4_000;
    for (int[] size : new int[][] {{5, 5}, {6, 9}}) {
      int covered = 0;
      for (int t = 0; t < trials; t++) {
        List<Double> before = lognormal(random, size[0], 1, 0.2);
        List<Double> after = lognormal(random, size[1], 1.25, 0.2);
        if (ShiftEstimate.ratioOfMedians(before, after, CONFIDENCE).orElseThrow().ratioInterval().contains(1.25)) {
          covered++;
        }
      }
      double observed = covered / (double) trials;
      int c = ShiftEstimate.criticalCount(size[0], size[1], CONFIDENCE);
      double below = 0;
      double[] counts = MannWhitney.exactCounts(size[0], size[1]);
      for (int u = 0; u < c; u++) {
        below += counts[u];
      }
      double exact = 1 - 2 * below / MannWhitney.choose(size[0] + size[1], size[0]);
      // Standard error below 0.0035; allow about three of them.
      assertThat(observed).as("coverage for %d vs %d", size[0], size[1]).isGreaterThanOrEqualTo(CONFIDENCE - 0.01);
      assertThat(observed).as("coverage for %d vs %d is the exact one", size[0], size[1]).isCloseTo(exact, within(0.01));
    }
  }

  @Test
  void largeSamplesTakeTheCriticalCountFromTheNormalApproximation() {
    // 60 against 60: mean 1800, sd sqrt(3600 * 121 / 12) = 190.53; P(U <= c - 1) ~ Phi((c - 0.5 - 1800) / sd)
    // stays <= 0.025 up to c - 0.5 <= 1800 - 1.95996 * 190.53 = 1426.6, so c = 1427.
    assertThat(ShiftEstimate.criticalCount(60, 60, CONFIDENCE)).isEqualTo(1427);
    // At the boundary the exact and the approximate counts hardly differ.
    int exact = ShiftEstimate.criticalCount(50, 50, CONFIDENCE);
    double sd = Math.sqrt(2500 * 101 / 12.0);
    assertThat((double) exact).isCloseTo(1250 - 1.959964 * sd + 0.5, within(1.5));
  }

  @Test
  void aValueThatIsNotPositiveIsAnError() {
    assertThatThrownBy(() -> ShiftEstimate.ratioOfMedians(List.of(1.0, 0.0, 2.0, 3.0), runs(4), CONFIDENCE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before");
    assertThatThrownBy(() -> ShiftEstimate.ratioOfMedians(runs(4), List.of(), CONFIDENCE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after");
  }

  private static List<Double> runs(int n) {
    List<Double> runs = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      runs.add(100.0 + i);
    }
    return runs;
  }

  private static List<Double> lognormal(Random random, int n, double median, double sigma) {
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values.add(median * Math.exp(sigma * random.nextGaussian()));
    }
    return values;
  }
}
