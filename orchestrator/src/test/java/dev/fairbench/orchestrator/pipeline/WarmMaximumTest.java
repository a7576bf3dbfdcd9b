package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.load.LoadException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WarmMaximumTest {
  private static WarmMaximum.Run runs(Double... rates) {
    Iterator<Double> next = List.of(rates).iterator();
    return next::next;
  }

  @Test
  void aServerStillWarmingIsMeasuredUntilTwoRunsInARowAgree() throws Exception {
    // a JVM just after the suite: 8k, then 60k, 101k, 104k
    WarmMaximum.Settled max = WarmMaximum.settle(8_000, runs(60_000.0, 101_000.0, 104_000.0, 1.0));
    assertThat(max).isEqualTo(new WarmMaximum.Settled(List.of(8_000.0, 60_000.0, 101_000.0, 104_000.0), true));
  }

  @Test
  void aServerWarmFromTheStartCostsOneExtraRun() throws Exception {
    AtomicInteger made = new AtomicInteger();
    WarmMaximum.Settled max = WarmMaximum.settle(20_000, () -> {
      made.incrementAndGet();
      return 19_500;
    });
    assertThat(max).isEqualTo(new WarmMaximum.Settled(List.of(20_000.0, 19_500.0), true));
    assertThat(made).hasValue(1);
  }

  @Test
  void twoRunsMoreThanFivePercentApartDoNotAgree() throws Exception {
    assertThat(WarmMaximum.settle(100_000, runs(94_000.0, 94_500.0)).runs()).isEqualTo(3);
  }

  @Test
  void aMaximumThatNeverSettlesIsTheLastRunsAndSaysSo() throws Exception {
    WarmMaximum.Settled max = WarmMaximum.settle(1_000, runs(2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0, 7_000.0));
    assertThat(max).isEqualTo(new WarmMaximum.Settled(List.of(1_000.0, 2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0), false));
    assertThat(max.requestsPerSecond()).isEqualTo(6_000);
    assertThat(max.runs()).isEqualTo(WarmMaximum.MAX_RUNS);
  }

  @Test
  void aThroughputCellsWarmUpGoesOnWhileEachRunIsMoreThanFivePercentFaster() throws Exception {
    // Express on Bun on 2026-12-06: 40k, then 50k, 56k, 59.9k (+7%), 60k
    WarmMaximum.Settled warm = WarmMaximum.warm(40_000, runs(50_000.0, 56_000.0, 59_900.0, 60_000.0, 1.0));
    assertThat(warm).isEqualTo(new WarmMaximum.Settled(List.of(40_000.0, 50_000.0, 56_000.0, 59_900.0, 60_000.0), true));
  }

  @Test
  void aSlowerRunEndsAThroughputCellsWarmUpInsteadOfProlongingIt() throws Exception {
    // a busy machine: the second run 7% slower than the first is no sign of a server still warming
    assertThat(WarmMaximum.warm(193_000, runs(180_000.0, 1.0))).isEqualTo(new WarmMaximum.Settled(List.of(193_000.0, 180_000.0), true));
    assertThat(WarmMaximum.warm(100_000, runs(105_000.0, 1.0)).runs()).isEqualTo(2);
  }

  @Test
  void aServerStillRisingAtTheSixthRunIsSaidToBe() throws Exception {
    WarmMaximum.Settled warm = WarmMaximum.warm(1_000, runs(2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0, 7_000.0));
    assertThat(warm).isEqualTo(new WarmMaximum.Settled(List.of(1_000.0, 2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0), false));
  }

  @Test
  void aFailedRunIsTheWarmUpsFailure() {
    assertThatThrownBy(() -> WarmMaximum.settle(1_000, () -> {
      throw new LoadException("wrk exited 1");
    })).isInstanceOf(LoadException.class).hasMessage("wrk exited 1");
  }
}
