package dev.fairbench.orchestrator.pipeline;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Waiting out one of the machine's slow spells before a thaw: reading the wake-ups at an interval until
 * one reads at or above the threshold, or the wait's limit passes (docs/ORCHESTRATOR.md, "Waiting out a
 * spell").
 */
final class SpellWait {
  /** Sleeps between two readings. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /**
   * @param seconds   how long it waited
   * @param outlasted the limit passed with every reading slow
   */
  record Outcome(double seconds, boolean outlasted) {}

  private final DoubleSupplier reading;
  private final long pollMillis;
  private final Sleeper sleeper;
  private final LongSupplier nanoTime;

  SpellWait(DoubleSupplier reading, long pollMillis, Sleeper sleeper, LongSupplier nanoTime) {
    this.reading = reading;
    this.pollMillis = pollMillis;
    this.sleeper = sleeper;
    this.nanoTime = nanoTime;
  }

  /** Reads after each interval until a reading reaches {@code threshold}, {@code limit} passes, or {@code stop}. */
  Outcome await(double threshold, Duration limit, BooleanSupplier stop) throws InterruptedException {
    long started = nanoTime.getAsLong();
    long deadline = started + limit.toNanos();
    while (nanoTime.getAsLong() < deadline && !stop.getAsBoolean()) {
      sleeper.sleep(pollMillis);
      if (reading.getAsDouble() >= threshold) {
        return new Outcome(seconds(started), false);
      }
    }
    return new Outcome(seconds(started), !stop.getAsBoolean());
  }

  private double seconds(long started) {
    return (nanoTime.getAsLong() - started) / 1e9;
  }
}
