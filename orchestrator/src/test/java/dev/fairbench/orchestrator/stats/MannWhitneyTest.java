package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MannWhitneyTest {
  @Test
  void identicalSamplesGiveAPValueOfOne() {
    List<Double> runs = List.of(101.0, 99.0, 100.0, 102.0, 98.0);
    MannWhitney.Result result = MannWhitney.test(runs, runs);
    assertThat(result.u()).isEqualTo(12.5);
    assertThat(result.exact()).as("every value is tied with its copy").isFalse();
    assertThat(result.pValue()).isEqualTo(1.0);

    MannWhitney.Result allEqual = MannWhitney.test(List.of(7.0, 7.0, 7.0), List.of(7.0, 7.0));
    assertThat(allEqual.pValue()).as("no spread at all").isEqualTo(1.0);
  }

  @Test
  void completelySeparatedFiveAgainstFiveGiveTwoIn252() {
    MannWhitney.Result result = MannWhitney.test(List.of(1.0, 2.0, 3.0, 4.0, 5.0), List.of(6.0, 7.0, 8.0, 9.0, 10.0));
    assertThat(result.exact()).isTrue();
    assertThat(result.u()).isZero();
    assertThat(result.pValue()).isCloseTo(2.0 / 252, within(1e-15));
    assertThat(MannWhitney.test(List.of(6.0, 7.0, 8.0, 9.0, 10.0), List.of(1.0, 2.0, 3.0, 4.0, 5.0)).pValue())
        .as("two-sided: the same either way round").isCloseTo(2.0 / 252, within(1e-15));
  }

  @Test
  void exactDistributionOfFourAgainstFourIsTheTextbookTable() {
    // The frequencies of U for n = m = 4 (any table of the Mann–Whitney distribution): 70 splits.
    double[] frequencies = {1, 1, 2, 3, 5, 5, 7, 7, 8, 7, 7, 5, 5, 3, 2, 1, 1};
    assertThat(MannWhitney.exactCounts(4, 4)).containsExactly(frequencies);
    // a = {1, 2, 3, 6.5} beats b = {4, 5, 6, 7} in 3 pairs: p = 2 * (1 + 1 + 2 + 3) / 70 = 0.2.
    MannWhitney.Result result = MannWhitney.test(List.of(1.0, 2.0, 3.0, 6.5), List.of(4.0, 5.0, 6.0, 7.0));
    assertThat(result.u()).isEqualTo(3);
    assertThat(result.pValue()).isCloseTo(0.2, within(1e-15));
  }

  @Test
  void exactPValueIsTheShareOfPermutationsAtLeastAsExtreme() {
    Random random = new Random(42);
    int[][] sizes = {{1, 4}, {3, 3}, {3, 5}, {4, 6}, {6, 6}, {7, 5}};
    for (int[] size : sizes) {
      for (int draw = 0; draw < 5; draw++) {
        List<Double> a = sample(random, size[0], 0);
        List<Double> b = sample(random, size[1], 0.8);
        MannWhitney.Result result = MannWhitney.test(a, b);
        assertThat(result.exact()).isTrue();
        assertThat(result.pValue()).as("%s vs %s", a, b).isCloseTo(permutationPValue(a, b), within(1e-12));
      }
    }
  }

  @Test
  void tiesUseTheNormalApproximationWithTieAndContinuityCorrections() {
    // By hand: pooled 1, 2, 2, 2, 3, 3, 4, 5 has mid-ranks 1, 3, 3, 3, 5.5, 5.5, 7, 8; a's rank sum
    // is 12.5, so U = 12.5 - 4*5/2 = 2.5 against a mean of 8. Tie groups of 3 and 2 give
    // sum(t^3 - t) = 30, variance = 16/12 * (9 - 30/56) = 11.2857; z = (5.5 - 0.5)/sqrt(11.2857)
    // = 1.48835 and p = erfc(z / sqrt 2) = 0.136658 (R's wilcox.test gives 0.1367 too).
    MannWhitney.Result result = MannWhitney.test(List.of(1.0, 2.0, 2.0, 3.0), List.of(2.0, 3.0, 4.0, 5.0));
    assertThat(result.exact()).isFalse();
    assertThat(result.u()).isEqualTo(2.5);
    assertThat(result.pValue()).isCloseTo(0.13665824773814753, within(1e-9));
  }

  @Test
  void normalApproximationWithTiesIsCloseToThePermutationPValue() {
    Random random = new Random(7);
    for (int draw = 0; draw < 5; draw++) {
      List<Double> a = new ArrayList<>();
      List<Double> b = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        a.add((double) Math.round(random.nextGaussian() * 2)); // rounded: many ties
        b.add((double) Math.round(random.nextGaussian() * 2 + 1.5));
      }
      MannWhitney.Result result = MannWhitney.test(a, b);
      assertThat(result.exact()).isFalse();
      assertThat(result.pValue()).as("%s vs %s", a, b).isCloseTo(permutationPValue(a, b), within(0.03));
    }
  }

  @Test
  void moreThanFiftyRunsASideUseTheNormalApproximation() {
    Random random = new Random(3);
    List<Double> a = sample(random, 60, 0);
    List<Double> b = sample(random, 60, 0);
    assertThat(MannWhitney.test(a, b).exact()).isFalse();
    assertThat(MannWhitney.test(a.subList(0, 50), b.subList(0, 50)).exact()).isTrue();
  }

  @Test
  void exactAndApproximatePValuesAgreeAtFiftyRunsASide() {
    Random random = new Random(11);
    List<Double> a = sample(random, 50, 0);
    List<Double> b = sample(random, 50, 0.5);
    MannWhitney.Result exact = MannWhitney.test(a, b);
    double mean = 50 * 50 / 2.0;
    double z = (Math.abs(exact.u() - mean) - 0.5) / Math.sqrt(50 * 50 * 101 / 12.0);
    assertThat(exact.exact()).isTrue();
    assertThat(exact.pValue()).isCloseTo(2 * Normal.upperTail(z), within(0.002));
  }

  @Test
  void smallestPossiblePValueSaysWhenThereAreTooFewRunsToDecide() {
    assertThat(MannWhitney.smallestPossiblePValue(3, 3)).as("2 / C(6, 3) = 2/20").isCloseTo(0.1, within(1e-15));
    assertThat(MannWhitney.smallestPossiblePValue(5, 5)).isCloseTo(2.0 / 252, within(1e-15));
    assertThat(MannWhitney.smallestPossiblePValue(4, 4)).isCloseTo(2.0 / 70, within(1e-15));
    assertThat(MannWhitney.smallestPossiblePValue(1, 1)).isEqualTo(1.0);
    assertThat(MannWhitney.smallestPossiblePValue(1, 2)).as("2/3 of splits").isCloseTo(2.0 / 3, within(1e-15));
  }

  @Test
  void anEmptySampleIsAnError() {
    assertThatThrownBy(() -> MannWhitney.test(List.of(), List.of(1.0))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MannWhitney.smallestPossiblePValue(0, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void normalTailMatchesKnownValues() {
    // 0.5 * erfc(z / sqrt 2), from Python's math.erfc.
    assertThat(Normal.upperTail(0)).isEqualTo(0.5, within(1e-15));
    assertThat(Normal.upperTail(1)).isCloseTo(0.15865525393145707, within(1e-14));
    assertThat(Normal.upperTail(1.96)).isCloseTo(0.024997895148220435, within(1e-14));
    assertThat(Normal.upperTail(3)).isCloseTo(0.0013498980316300957, within(1e-15));
    assertThat(Normal.upperTail(5) / 2.866515718791946e-07).isCloseTo(1, within(1e-9));
    assertThat(Normal.upperTail(8) / 6.220960574271819e-16).as("the far tail, relatively").isCloseTo(1, within(1e-7));
    assertThat(Normal.upperTail(-1)).isCloseTo(0.8413447460685429, within(1e-14));
  }

  /** Values without ties (continuous draws), shifted. */
  private static List<Double> sample(Random random, int n, double shift) {
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values.add(random.nextGaussian() + shift);
    }
    return values;
  }

  /**
   * Brute force: every way of choosing which |a| of the pooled values form the first sample; the
   * share whose U lies at least as far from n·m/2 as the observed one.
   */
  private static double permutationPValue(List<Double> a, List<Double> b) {
    List<Double> pooled = new ArrayList<>(a);
    pooled.addAll(b);
    int n = a.size();
    int total = pooled.size();
    double mean = n * b.size() / 2.0;
    double observed = Math.abs(u(a, b) - mean);
    int extreme = 0;
    int splits = 0;
    for (int mask = 0; mask < 1 << total; mask++) {
      if (Integer.bitCount(mask) != n) {
        continue;
      }
      List<Double> first = new ArrayList<>();
      List<Double> second = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        ((mask & 1 << i) != 0 ? first : second).add(pooled.get(i));
      }
      splits++;
      if (Math.abs(u(first, second) - mean) >= observed - 1e-9) {
        extreme++;
      }
    }
    return extreme / (double) splits;
  }

  /** U by its definition: pairs with a > b, ties counting one half. */
  private static double u(List<Double> a, List<Double> b) {
    double u = 0;
    for (double x : a) {
      for (double y : b) {
        u += x > y ? 1 : x == y ? 0.5 : 0;
      }
    }
    return u;
  }
}
