package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.ProbePages;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * The machine's speed around the visits ({@code disturbance.speed}) summed up for the reports: how far
 * the machine itself moved while the cells were measured, which steal time does not show.
 *
 * @param visits  number of visits with a reading
 * @param wakeups the cross-CPU wake-ups around them ({@code disturbance.wakeups}); null in runs without them
 * @param memory  the memory's latency around them, ns per load ({@code disturbance.speed.memoryBefore} and
 *                {@code memoryAfter}); null in runs without it
 * @param memoryPages the pages the memory probe read on ({@code method.memoryProbePages}); null where the file does
 *                not say (runs before 2026-12-07 19:57 UTC: 4 KiB pages on this project's machines)
 */
public record MachineSpeed(int visits, Side server, Side client, Wakeups wakeups, Side memory, ProbePages memoryPages) {
  /**
   * Round trips per second over every valid reading, and how many visits read slow.
   *
   * @param slowVisits   visits with a reading below the run's wake-up threshold × its usual rate
   * @param waitedVisits visits that waited before their thaw for a slow spell to pass
   * @param waitedSeconds how long they waited, together
   */
  public record Wakeups(Side readings, int slowVisits, int waitedVisits, double waitedSeconds) {
    String describe() {
      return String.format(Locale.ROOT, "%,.0f round trips/s (%,.0f–%,.0f, CV %.0f%%)", readings.median, readings.min,
          readings.max, readings.cv * 100);
    }
  }

  /** MB/s of the probe on one side: median, range and coefficient of variation of every reading. */
  public record Side(double median, double min, double max, double cv) {
    static Optional<Side> of(List<Double> readings) {
      return readings.isEmpty() ? Optional.empty() : Optional.of(new Side(Statistics.median(readings),
          Statistics.min(readings), Statistics.max(readings), Statistics.coefficientOfVariation(readings)));
    }

    String describe() {
      return String.format(Locale.ROOT, "%.0f MB/s (%.0f–%.0f, CV %.0f%%)", median, min, max, cv * 100);
    }

    String brief() {
      return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", median, min, max);
    }
  }

  /** Over every visit of the run; empty when no visit has a reading (older files, a remote engine). */
  public static Optional<MachineSpeed> of(ResultsDocument document) {
    return of(document, round -> true);
  }

  /** Over the visits of one round. */
  public static Optional<MachineSpeed> ofRound(ResultsDocument document, int round) {
    return of(document, r -> r == round);
  }

  private static Optional<MachineSpeed> of(ResultsDocument document, IntPredicate rounds) {
    List<Double> server = new ArrayList<>();
    List<Double> client = new ArrayList<>();
    List<Double> wakeups = new ArrayList<>();
    List<Double> memory = new ArrayList<>();
    int slow = 0;
    int waited = 0;
    double waitedSeconds = 0;
    int visits = 0;
    for (EntryResult entry : document.entries()) {
      for (CellResult cell : entry.cells()) {
        for (RunRecord run : cell.runs()) {
          RunRecord.Speed speed = run.disturbance() == null ? null : run.disturbance().speed();
          if (speed == null || !rounds.test(run.round())) {
            continue;
          }
          visits++;
          addValid(server, speed.serverBefore(), speed.serverAfter());
          addValid(client, speed.clientBefore(), speed.clientAfter());
          if (speed.readsMemory()) {
            addValid(memory, speed.memoryBefore(), speed.memoryAfter());
          }
          RunRecord.Wakeups w = run.disturbance().wakeups();
          if (w != null) {
            addValid(wakeups, w.before(), w.after());
            slow += w.slow() ? 1 : 0;
            if (w.waited()) {
              waited++;
              waitedSeconds += w.waitedSeconds();
            }
          }
        }
      }
    }
    Optional<Side> s = Side.of(server);
    Optional<Side> c = Side.of(client);
    int slowVisits = slow;
    int waitedVisits = waited;
    double waitedTotal = waitedSeconds;
    Wakeups w = Side.of(wakeups).map(side -> new Wakeups(side, slowVisits, waitedVisits, waitedTotal)).orElse(null);
    return s.isEmpty() || c.isEmpty() ? Optional.empty()
        : Optional.of(new MachineSpeed(visits, s.get(), c.get(), w, Side.of(memory).orElse(null),
            document.method() == null ? null : document.method().memoryProbePages()));
  }

  private static void addValid(List<Double> into, double... readings) {
    for (double r : readings) {
      if (r > 0) {
        into.add(r);
      }
    }
  }

  /** For a table cell: "server 334 (208–395); client 305 (158–398)". */
  public String brief() {
    return "server " + server.brief() + "; client " + client.brief();
  }

  /** For the fairness review's method paragraph. */
  public String describe() {
    return "The machine's own speed around the " + visits + " visits (SHA-256 over 16 MiB while every server was "
        + "frozen, before each thaw and after each freeze): on the server's CPUs " + server.describe()
        + ", on the client's " + client.describe() + ". Steal time does not show such changes (a virtual CPU "
        + "whose physical core is shared, or clocked down): the wider this range, the more of every cell's "
        + "spread is the machine's, not the entry's." + (wakeups == null ? "" : " Cross-CPU wake-ups at the same "
        + "moments (round trips through pipes to an echo on the server's CPUs): " + wakeups.describe() + "; "
        + wakeups.slowVisits() + " of the visits read below the run's threshold share of its usual rate, in one "
        + "of the machine's slow spells, and were repeated or counted as disturbed." + (wakeups.waitedVisits() == 0 ? ""
        : String.format(Locale.ROOT, " %d visit%s waited before %s thaw for a spell to pass, %.0f s in all.",
            wakeups.waitedVisits(), wakeups.waitedVisits() == 1 ? "" : "s", wakeups.waitedVisits() == 1 ? "its" : "their",
            wakeups.waitedSeconds())))
        + (memory == null ? "" : String.format(Locale.ROOT, " The memory's latency at the same moments (dependent loads "
            + "through 64 MiB%s on the client's CPUs; a neighbour's use of the memory system lengthens it without slowing "
            + "the hashing): %.0f ns a load (%.0f–%.0f, CV %.0f%%).", memoryPages == null ? "" : " on " + memoryPages.wireName()
            + " pages", memory.median, memory.min, memory.max, memory.cv * 100));
  }
}
