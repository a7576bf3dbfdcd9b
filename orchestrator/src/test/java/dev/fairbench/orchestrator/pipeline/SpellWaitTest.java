package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SpellWaitTest {
  /** A clock that moves only when the wait sleeps, and readings served in order (the last one repeated). */
  private static final class Script {
    final AtomicLong nanos = new AtomicLong();
    final ArrayDeque<Double> readings;
    int read;

    Script(Double... readings) {
      this.readings = new ArrayDeque<>(List.of(readings));
    }

    SpellWait spellWait() {
      return new SpellWait(() -> {
        read++;
        return readings.size() > 1 ? readings.poll() : readings.peek();
      }, 500, millis -> nanos.addAndGet(millis * 1_000_000), nanos::get);
    }
  }

  @Test
  void aSpellThatPassesEndsTheWaitAtTheFirstUsualReading() throws InterruptedException {
    Script script = new Script(20_000.0, 21_000.0, 29_000.0, 10_000.0);
    SpellWait.Outcome outcome = script.spellWait().await(24_000, Duration.ofSeconds(30), () -> false);
    assertThat(outcome.outlasted()).isFalse();
    assertThat(outcome.seconds()).isCloseTo(1.5, within(1e-9));
    assertThat(script.read).isEqualTo(3);
  }

  @Test
  void aSpellThatOutlastsTheLimitEndsTheWaitThereAndSaysSo() throws InterruptedException {
    Script script = new Script(20_000.0);
    SpellWait.Outcome outcome = script.spellWait().await(24_000, Duration.ofSeconds(30), () -> false);
    assertThat(outcome.outlasted()).isTrue();
    assertThat(outcome.seconds()).isCloseTo(30, within(1e-9));
    assertThat(script.read).isEqualTo(60);
  }

  @Test
  void aReadingThatFailedIsNotUsual() throws InterruptedException {
    Script script = new Script(-1.0, -1.0, 25_000.0);
    assertThat(script.spellWait().await(24_000, Duration.ofSeconds(30), () -> false).seconds()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void stoppingTheRunEndsTheWaitWithoutCallingItOutlasted() throws InterruptedException {
    Script script = new Script(20_000.0);
    SpellWait.Outcome outcome = script.spellWait().await(24_000, Duration.ofSeconds(30), () -> script.read >= 4);
    assertThat(outcome.outlasted()).isFalse();
    assertThat(outcome.seconds()).isCloseTo(2, within(1e-9));
  }
}
