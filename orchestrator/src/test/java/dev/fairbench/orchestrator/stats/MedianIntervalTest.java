package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MedianIntervalTest {
  private static final double CONFIDENCE = 0.95;

  @Test
  void medianIntervalNeedsAtLeastSixRuns() {
    assertThat(MedianInterval.minimumRuns(CONFIDENCE)).isEqualTo(6);
    assertThat(MedianInterval.of(List.of(1.0, 2.0, 3.0, 4.0, 5.0), CONFIDENCE))
        .as("2 * (1/2)^5 = 0.0625 > 0.05").isEmpty();
    assertThat(MedianInterval.of(List.of(6.0, 1.0, 5.0, 2.0, 4.0, 3.0), CONFIDENCE))
        .as("with 6 runs the interval is the whole range").contains(new Interval(1, 6));
    assertThat(MedianInterval.minimumRuns(0.99)).as("2 * (1/2)^8 <= 0.01 < 2 * (1/2)^7").isEqualTo(8);
    assertThat(MedianInterval.minimumRuns(0.90)).isEqualTo(5);
  }

  @Test
  void orderStatisticsAndExactCoverageFromFiveToFifteenRuns() {
    // Computed independently: k is the largest with sum_{i<k} C(n,i) / 2^n <= 0.025.
    int[] expectedK = {0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4};
    double[] expectedCoverage = {Double.NaN, 1 - 2.0 / 64, 1 - 2.0 / 128, 1 - 2.0 / 256, 1 - 20.0 / 512,
        1 - 22.0 / 1024, 1 - 24.0 / 2048, 1 - 158.0 / 4096, 1 - 184.0 / 8192, 1 - 212.0 / 16384,
        1 - 1152.0 / 32768};
    StringBuilder table = new StringBuilder("n  k  bounds          coverage  outliers/side\n");
    for (int n = 5; n <= 15; n++) {
      int k = MedianInterval.orderStatistic(n, CONFIDENCE);
      assertThat(k).as("k for n = %d", n).isEqualTo(expectedK[n - 5]);
      if (k > 0) {
        double coverage = MedianInterval.coverage(n, k);
        assertThat(coverage).as("coverage for n = %d", n).isCloseTo(expectedCoverage[n - 5], within(1e-12));
        assertThat(coverage).isGreaterThanOrEqualTo(CONFIDENCE);
        assertThat(MedianInterval.coverage(n, k + 1)).as("k + 1 would fall short").isLessThan(CONFIDENCE);
        table.append(String.format("%-2d %-2d %-15s %.6f  %d%n", n, k, "x(" + k + ")..x(" + (n - k + 1) + ")",
            coverage, MedianInterval.outliersSurvivedPerSide(n, CONFIDENCE)));
      } else {
        table.append(String.format("%-2d %-2d none%n", n, k));
      }
    }
    System.out.print(table);
  }

  @Test
  void fromNineRunsOneOutlierOnEachSideIsSurvived() {
    // n = 8: P(B <= 1) = 9/256 = 0.035 > 0.025, so k = 1: the extremes are the bounds.
    assertThat(MedianInterval.outliersSurvivedPerSide(8, CONFIDENCE)).isZero();
    // n = 9: P(B <= 1) = 10/512 = 0.0195 <= 0.025 < P(B <= 2) = 46/512, so k = 2.
    assertThat(MedianInterval.outliersSurvivedPerSide(9, CONFIDENCE)).isEqualTo(1);
    assertThat(MedianInterval.outliersSurvivedPerSide(12, CONFIDENCE)).isEqualTo(2);
    assertThat(MedianInterval.outliersSurvivedPerSide(15, CONFIDENCE)).isEqualTo(3);
    assertThat(MedianInterval.outliersSurvivedPerSide(5, CONFIDENCE)).as("no interval at all").isZero();

    List<Double> runs = List.of(100.0, 101.0, 99.0, 102.0, 98.0, 100.5, 99.5, 1e9, 1e-9);
    assertThat(MedianInterval.of(runs, CONFIDENCE)).as("the two wild runs are not bounds").contains(new Interval(98, 102));
  }

  @Test
  void boundsAreOrderStatisticsOfTheSortedRuns() {
    List<Double> runs = List.of(12.0, 3.0, 7.0, 15.0, 1.0, 9.0, 4.0, 11.0, 8.0, 2.0, 6.0, 14.0, 5.0, 13.0, 10.0);
    assertThat(MedianInterval.of(runs, CONFIDENCE)).as("k = 4 of 15: x(4)..x(12)").contains(new Interval(4, 12));
  }

  @Test
  void coverageBySimulationReachesTheConfidenceWhateverTheDistribution() {
    Random random = new Random(20240607);
    // 85% of runs near 100, 15% slow ones far above: median where 0.85 (x - 100) / 10 = 0.5.
    DoubleSupplier contaminated = () -> random.nextDouble() < 0.85
        ? 100 + 10 * random.nextDouble()
        : 150 + 150 * random.nextDouble();
    assertCoverage("normal", random::nextGaussian, 0, random);
    assertCoverage("lognormal", () -> Math.exp(0.5 * random.nextGaussian()), 1, random);
    assertCoverage("one-sided contamination", contaminated, 100 + 5 / 0.85 * 1, random);
    // Tukey's contaminated normal: 10% of runs with ten times the spread, median still 0.
    assertCoverage("scale contamination", () -> random.nextGaussian() * (random.nextDouble() < 0.1 ? 10 : 1), 0, random);
  }

  /** The share of {@code trials} sets of n draws whose interval contains the true median. */
  private static double observedCoverage(DoubleSupplier draw, int n, int trials, double trueMedian,
      Function<List<Double>, Optional<Interval>> interval) {
    int covered = 0;
    for (int t = 0; t < trials; t++) {
      List<Double> runs = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        runs.add(draw.getAsDouble());
      }
      if (interval.apply(runs).orElseThrow().contains(trueMedian)) {
        covered++;
      }
    }
    return covered / (double) trials;
  }

  private static void assertCoverage(String name, DoubleSupplier draw, double trueMedian, Random random) {
    int trials = 20_000;
    for (int n : new int[] {6, 9, 12, 15}) {
      double observed = observedCoverage(draw, n, trials, trueMedian, runs -> MedianInterval.of(runs, CONFIDENCE));
      double exact = MedianInterval.coverage(n, MedianInterval.orderStatistic(n, CONFIDENCE));
      // Binomial standard error of the observed share is below 0.0015; allow about four of them.
      assertThat(observed).as("%s coverage with %d runs", name, n).isGreaterThanOrEqualTo(CONFIDENCE - 0.006);
      assertThat(observed).as("%s coverage with %d runs is the exact one", name, n).isCloseTo(exact, within(0.006));
    }
  }

  @Test
  void theInterpolatedIntervalLiesBetweenTheOrderStatisticPairAndTheNextOneIn() {
    for (int n = 6; n <= 15; n++) {
      List<Double> runs = new ArrayList<>();
      for (int i = n; i >= 1; i--) {
        runs.add((double) i * i); // unevenly spaced, given in reverse
      }
      int k = MedianInterval.orderStatistic(n, CONFIDENCE);
      Interval outer = MedianInterval.of(runs, CONFIDENCE).orElseThrow();
      Interval inner = new Interval((k + 1.0) * (k + 1), (double) (n - k) * (n - k));
      Interval interpolated = MedianInterval.interpolated(runs, CONFIDENCE).orElseThrow();
      assertThat(interpolated.low()).as("n = %d: lower bound between x(k) and x(k+1)", n)
          .isBetween(outer.low(), inner.low());
      assertThat(interpolated.high()).as("n = %d: upper bound between x(n-k) and x(n-k+1)", n)
          .isBetween(inner.high(), outer.high());
      assertThat(interpolated).as("n = %d: narrower than the order-statistic pair", n).isNotEqualTo(outer);
    }
    assertThat(MedianInterval.interpolated(List.of(1.0, 2.0, 3.0, 4.0, 5.0), CONFIDENCE))
        .as("no interval below six runs either").isEmpty();
  }

  @Test
  void elevenRunsGiveAnInterpolatedIntervalNotTheSecondLowestAndSecondHighest() {
    // n = 11: [x(2), x(10)] covers 1 - 2 * 12/2048 = 98.83%, [x(3), x(9)] 1 - 2 * 67/2048 = 93.46%;
    // I = (0.98828 - 0.95) / (0.98828 - 0.93457) = 0.71273, λ = 9 I / (2 + 7 I) = 0.91779.
    List<Double> runs = List.of(90.0, 95.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 105.0, 110.0);
    Interval interval = MedianInterval.interpolated(runs, CONFIDENCE).orElseThrow();
    double share = (1 - 24.0 / 2048 - CONFIDENCE) / (134.0 / 2048 - 24.0 / 2048);
    double weight = 9 * share / (2 + 7 * share);
    assertThat(weight).isCloseTo(0.91779, within(1e-5));
    assertThat(interval.low()).isCloseTo(95 + weight * 2, within(1e-9));
    assertThat(interval.high()).isCloseTo(105 - weight * 2, within(1e-9));
    assertThat(MedianInterval.of(runs, CONFIDENCE)).contains(new Interval(95, 105));
  }

  @Test
  void theInterpolatedIntervalSurvivesOneOutlierOnEachSideFromNineRuns() {
    List<Double> runs = List.of(100.0, 101.0, 99.0, 102.0, 98.0, 100.5, 99.5, 1e9, 1e-9);
    Interval interval = MedianInterval.interpolated(runs, CONFIDENCE).orElseThrow();
    assertThat(interval.low()).as("between x(2) and x(3)").isBetween(98.0, 99.0);
    assertThat(interval.high()).as("between x(7) and x(8)").isBetween(101.0, 102.0);
  }

  @Test
  void theInterpolatedIntervalCoversTheMedianAboutNinetyFivePercentOfTheTime() {
    Random random = new Random(20261207);
    DoubleSupplier contaminated = () -> random.nextDouble() < 0.85
        ? 100 + 10 * random.nextDouble()
        : 150 + 150 * random.nextDouble();
    // Slow visits as these machines give them: most runs near their cell's level, one in six 10-30% slower.
    DoubleSupplier slowVisits = () -> random.nextDouble() < 1.0 / 6
        ? 100 * (0.7 + 0.2 * random.nextDouble())
        : 100 * Math.exp(0.03 * random.nextGaussian());
    StringBuilder table = new StringBuilder("interpolated coverage by simulation, n = 6..15\n");
    interpolatedCoverage("normal", random::nextGaussian, 0, random, table);
    interpolatedCoverage("lognormal", () -> Math.exp(0.5 * random.nextGaussian()), 1, random, table);
    interpolatedCoverage("one-sided contamination", contaminated, 100 + 5 / 0.85, random, table);
    interpolatedCoverage("scale contamination", () -> random.nextGaussian() * (random.nextDouble() < 0.1 ? 10 : 1), 0,
        random, table);
    interpolatedCoverage("exponential", () -> -Math.log(1 - random.nextDouble()), Math.log(2), random, table);
    interpolatedCoverage("slow visits", slowVisits, slowVisitsMedian(), random, table);
    System.out.print(table);
  }

  /** The median of the slow-visits mixture, by bisection on its distribution function. */
  private static double slowVisitsMedian() {
    double low = 70;
    double high = 130;
    for (int i = 0; i < 100; i++) {
      double x = (low + high) / 2;
      double slow = Math.min(Math.max((x / 100 - 0.7) / 0.2, 0), 1);
      double usual = 0.5 * (1 + erf(Math.log(x / 100) / 0.03 / Math.sqrt(2)));
      if (slow / 6 + usual * 5 / 6 < 0.5) {
        low = x;
      } else {
        high = x;
      }
    }
    return (low + high) / 2;
  }

  /** Abramowitz and Stegun 7.1.26 (error below 1.5e-7): enough to place a median for a simulation. */
  private static double erf(double x) {
    double t = 1 / (1 + 0.3275911 * Math.abs(x));
    double y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
        * Math.exp(-x * x);
    return Math.signum(x) * y;
  }

  private static void interpolatedCoverage(String name, DoubleSupplier draw, double trueMedian, Random random,
      StringBuilder table) {
    int trials = 20_000;
    table.append(String.format("%-24s", name));
    for (int n = 6; n <= 15; n++) {
      double observed = observedCoverage(draw, n, trials, trueMedian,
          runs -> MedianInterval.interpolated(runs, CONFIDENCE));
      table.append(String.format(" %5.3f", observed));
      // Binomial standard error of the observed share is about 0.0015; the interpolation is exact only for a
      // double-exponential, so a point either side of 95% is the claim.
      assertThat(observed).as("%s: interpolated coverage with %d runs", name, n).isBetween(CONFIDENCE - 0.01, 0.975);
    }
    table.append('\n');
  }

  @Test
  void confidenceMustLieBetweenZeroAndOne() {
    assertThatThrownBy(() -> MedianInterval.of(List.of(1.0), 1.0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MedianInterval.minimumRuns(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MedianInterval.coverage(6, 4)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void halfWidthShareTakesTheWiderSide() {
    Interval interval = new Interval(90, 115);
    assertThat(interval.halfWidthShareOf(100)).isCloseTo(0.15, within(1e-12));
    assertThat(new Interval(-110, -95).halfWidthShareOf(-100)).isCloseTo(0.10, within(1e-12));
    assertThatThrownBy(() -> new Interval(2, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
