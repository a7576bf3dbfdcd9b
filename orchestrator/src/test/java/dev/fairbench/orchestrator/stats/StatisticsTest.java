package dev.fairbench.orchestrator.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatisticsTest {
  @Test
  void medianOfOddAndEvenCounts() {
    assertThat(Statistics.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
    assertThat(Statistics.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
    assertThat(Statistics.median(List.of(7.0))).isEqualTo(7.0);
  }

  @Test
  void minAndMax() {
    assertThat(Statistics.min(List.of(3.0, 1.0, 2.0))).isEqualTo(1.0);
    assertThat(Statistics.max(List.of(3.0, 1.0, 2.0))).isEqualTo(3.0);
  }

  @Test
  void coefficientOfVariationUsesTheSampleStandardDeviation() {
    // mean 20, sample sd sqrt(((10)^2 + 0 + (10)^2) / 2) = 10
    assertThat(Statistics.coefficientOfVariation(List.of(10.0, 20.0, 30.0))).isCloseTo(0.5, within(1e-12));
    assertThat(Statistics.coefficientOfVariation(List.of(5.0, 5.0))).isZero();
    assertThat(Statistics.coefficientOfVariation(List.of(5.0))).isZero();
  }

  @Test
  void noValuesIsAnError() {
    assertThatThrownBy(() -> Statistics.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Statistics.coefficientOfVariation(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void microsecondsPerRequest() {
    assertThat(Statistics.microsPerRequest(50_000)).isEqualTo(20.0);
    assertThat(Statistics.microsPerRequest(0)).isNaN();
    assertThat(Statistics.cpuMicrosPerRequest(1.5, 100_000)).isCloseTo(15.0, within(1e-9));
    assertThat(Statistics.cpuMicrosPerRequest(1.5, 0)).isNaN();
  }

  @Test
  void clientBoundAt90PercentOfACorePerWrkThread() {
    assertThat(Statistics.clientBound(0.91, 1, 60_000, 0)).isTrue();
    assertThat(Statistics.clientBound(0.89, 1, 60_000, 0)).isFalse();
    assertThat(Statistics.clientBound(1.5, 2, 60_000, 0)).as("two threads need 1.8 cores").isFalse();
    assertThat(Statistics.clientBound(1.85, 2, 60_000, 0)).isTrue();
  }

  @Test
  void clientBoundNearACalibratedCeiling() {
    assertThat(Statistics.clientBound(0.5, 1, 59_000, 65_000)).as("within 10% of the ceiling").isTrue();
    assertThat(Statistics.clientBound(0.5, 1, 58_000, 65_000)).isFalse();
  }

  @Test
  void invalidAboveOneErrorPerThousandRequests() {
    assertThat(Statistics.invalid(10_000, 10, 0)).isFalse();
    assertThat(Statistics.invalid(10_000, 6, 5)).isTrue();
    assertThat(Statistics.invalid(10_000, 0, 11)).isTrue();
    assertThat(Statistics.invalid(0, 0, 0)).as("no request at all").isTrue();
  }
}
