package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** The kernel's clock ticks per second (USER_HZ), the unit of the CPU times in /proc. */
public final class ClockTicks {
  private static final long PER_SECOND = detect();

  private ClockTicks() {}

  public static long perSecond() {
    return PER_SECOND;
  }

  private static long detect() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(getconf.getInputStream().readAllBytes()).trim();
      if (getconf.waitFor(5, TimeUnit.SECONDS) && getconf.exitValue() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | NumberFormatException e) {
      // fall through to Linux's fixed value
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100; // USER_HZ is 100 on every mainstream Linux architecture
  }
}
