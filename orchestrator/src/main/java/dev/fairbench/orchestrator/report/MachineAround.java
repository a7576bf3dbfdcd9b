package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The machine's own speed around the visits of each run a comparison puts side by side ({@link MachineSpeed}, as
 * each run's fairness review gives it): whether the machine was in another state between the runs, which the
 * calibration server divides out only where it slowed everything alike. Evidence beside the verdicts; no figure is
 * corrected by it.
 *
 * @param before each run's speed on the before side, null for a run without the probes (older files, a remote engine)
 * @param after  the same on the after side
 */
public record MachineAround(List<MachineSpeed> before, List<MachineSpeed> after) {
  public MachineAround {
    before = Collections.unmodifiableList(new ArrayList<>(before));
    after = Collections.unmodifiableList(new ArrayList<>(after));
  }

  /** Empty when no run of either side has the probes' readings. */
  static Optional<MachineAround> of(List<ResultsDocument> before, List<ResultsDocument> after) {
    MachineAround around = new MachineAround(speeds(before), speeds(after));
    return around.any(s -> true) ? Optional.of(around) : Optional.empty();
  }

  private static List<MachineSpeed> speeds(List<ResultsDocument> side) {
    return side.stream().map(d -> MachineSpeed.of(d).orElse(null)).toList();
  }

  /** One sentence for the top of the comparison. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    parts.add("hashing on the server's CPUs " + figure(s -> s.server().median(), "%.0f", " MB/s"));
    parts.add("on the client's " + figure(s -> s.client().median(), "%.0f", " MB/s"));
    if (any(s -> s.wakeups() != null)) {
      parts.add("cross-CPU wake-ups " + figure(s -> s.wakeups() == null ? null : s.wakeups().readings().median(),
          "%,.0f", " round trips/s"));
    }
    if (any(s -> s.memory() != null)) {
      if (memoryProbesDiffer()) {
        parts.add("the memory's latency " + shown(before, MachineAround::memoryMedian, "%.0f")
            + " → " + shown(after, MachineAround::memoryMedian, "%.0f") + " ns a load (read on "
            + pagesOf(before) + " → " + pagesOf(after) + " pages: on 4 KiB pages each load also walks the page tables, so "
            + "the readings are not one probe's and no change is given)");
      } else {
        parts.add("the memory's latency " + figure(MachineAround::memoryMedian, "%.0f", " ns a load"));
      }
    }
    boolean several = before.size() > 1 || after.size() > 1;
    return "The machine around the visits (the probes that bracket every visit, each run's median, as its fairness "
        + "review gives them" + (several ? "; a side's change is between the medians of its runs" : "") + "): "
        + String.join(", ", parts) + ". No figure below is corrected by them: the calibration divides out a machine "
        + "that is slower at everything alike, and these say whether it was in another state between the runs.";
  }

  private static Double memoryMedian(MachineSpeed speed) {
    return speed.memory() == null ? null : speed.memory().median();
  }

  /** Whether the runs with a memory reading read it on different pages (a file that does not say counts as its own kind). */
  private boolean memoryProbesDiffer() {
    return Stream.concat(before.stream(), after.stream())
        .filter(s -> s != null && s.memory() != null).map(s -> Optional.ofNullable(s.memoryPages())).distinct().count() > 1;
  }

  private static String pagesOf(List<MachineSpeed> side) {
    return String.join(", ", side.stream().map(s -> s == null || s.memory() == null ? "—"
        : s.memoryPages() == null ? "unrecorded" : s.memoryPages().wireName()).toList());
  }

  private boolean any(Predicate<MachineSpeed> test) {
    return before.stream().anyMatch(s -> s != null && test.test(s))
        || after.stream().anyMatch(s -> s != null && test.test(s));
  }

  /** "433 → 431 MB/s (-0.5%)"; a run without the reading shows "—"; the change needs a reading on each side. */
  private String figure(Function<MachineSpeed, Double> reading, String format, String unit) {
    List<Double> was = readings(before, reading);
    List<Double> is = readings(after, reading);
    String change = was.isEmpty() || is.isEmpty() ? ""
        : String.format(Locale.ROOT, " (%+.1f%%)", (Statistics.median(is) / Statistics.median(was) - 1) * 100);
    return shown(before, reading, format) + " → " + shown(after, reading, format) + unit + change;
  }

  private static List<Double> readings(List<MachineSpeed> side, Function<MachineSpeed, Double> reading) {
    return side.stream().filter(Objects::nonNull).map(reading).filter(Objects::nonNull).toList();
  }

  private static String shown(List<MachineSpeed> side, Function<MachineSpeed, Double> reading, String format) {
    return String.join(", ", side.stream().map(s -> s == null ? null : reading.apply(s))
        .map(r -> r == null ? "—" : String.format(Locale.ROOT, format, r)).toList());
  }
}
