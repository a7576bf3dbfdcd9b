package dev.fairbench.orchestrator.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * What runs killed with SIGKILL left behind (their watchdog normally removes it within a second;
 * this covers a watchdog killed too, and says what the watchdogs did).
 */
public final class Leftovers {
  private Leftovers() {}

  /**
   * The native side: cgroups of orchestrators that are gone (thawed, their processes killed,
   * removed), servers without a cgroup whose orchestrator and watchdog are gone, processes of servers
   * that left their cgroups and process trees (found by their marker), and the reports of
   * watchdogs that cleaned up after a killed orchestrator. One line per process, cgroup or
   * container; empty when nothing was left.
   */
  public static List<String> sweepNative(LimitsBackend backend) {
    List<String> lines = new ArrayList<>(Watchdog.collectReports());
    lines.addAll(Watchdog.sweepMarked());
    lines.addAll(backend.sweepLeftovers());
    lines.addAll(Watchdog.sweepUnwatched());
    return lines;
  }

  /** Prints the lines on stderr, under a heading; nothing when there are none. */
  static void announce(List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    System.err.println("fairbench: removed what killed runs left:");
    lines.forEach(line -> System.err.println("  " + line));
  }
}
