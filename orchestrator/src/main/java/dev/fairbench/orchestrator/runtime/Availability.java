package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.discovery.EntryVariant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Whether a runtime can run a variant here; {@code reason} says why not. */
public record Availability(boolean available, String reason) {
  public static Availability ok() {
    return new Availability(true, "");
  }

  public static Availability unavailable(String reason) {
    return new Availability(false, reason);
  }

  /**
   * Runs the manifest's availability probe, if any, in the entry folder: a non-zero exit makes the
   * variant unavailable with the last line the probe printed. Its dependencies either can be had
   * or not, whichever runtime builds it, so both runtimes ask this.
   */
  public static Availability ofProbe(EntryVariant variant, Duration timeout) {
    if (variant.availabilityProbe().isEmpty()) {
      return ok();
    }
    try {
      Path out = Files.createTempFile("fairbench-probe", ".log");
      try {
        Commands.Outcome outcome = Commands.run(variant.availabilityProbe(), variant.dir(), Map.of(), timeout, out);
        if (!outcome.succeeded()) {
          String last = Commands.tail(out, 1);
          return unavailable(last.isEmpty() ? outcome.describe(variant.availabilityProbe(), timeout) : last);
        }
      } finally {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      return unavailable("availability probe could not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unavailable("availability probe interrupted");
    }
    return ok();
  }

  @Override
  public String toString() {
    return available ? "available" : "unavailable: " + reason;
  }
}
