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
    assertThat(max).isEqualTo(new WarmMaximum.Settled(104_000, 4, true));
  }

  @Test
  void aServerWarmFromTheStartCostsOneExtraRun() throws Exception {
    AtomicInteger made = new AtomicInteger();
    WarmMaximum.Settled max = WarmMaximum.settle(20_000, () -> {
      made.incrementAndGet();
      return 19_500;
    });
    assertThat(max).isEqualTo(new WarmMaximum.Settled(19_500, 2, true));
    assertThat(made).hasValue(1);
  }

  @Test
  void twoRunsMoreThanFivePercentApartDoNotAgree() throws Exception {
    assertThat(WarmMaximum.settle(100_000, runs(94_000.0, 94_500.0)).runs()).isEqualTo(3);
  }

  @Test
  void aMaximumThatNeverSettlesIsTheLastRunsAndSaysSo() throws Exception {
    WarmMaximum.Settled max = WarmMaximum.settle(1_000, runs(2_000.0, 3_000.0, 4_000.0, 5_000.0, 6_000.0, 7_000.0));
    assertThat(max).isEqualTo(new WarmMaximum.Settled(6_000, WarmMaximum.MAX_RUNS, false));
  }

  @Test
  void aFailedRunIsTheWarmUpsFailure() {
    assertThatThrownBy(() -> WarmMaximum.settle(1_000, () -> {
      throw new LoadException("wrk exited 1");
    })).isInstanceOf(LoadException.class).hasMessage("wrk exited 1");
  }
}
