package dev.fairbench.orchestrator.results;

import java.util.List;
import java.util.Map;

/**
 * What an entry costs to launch and to keep: start times, memory and size.
 *
 * @param runtime       native or docker
 * @param pollMillis    the pause between two tries of an endpoint: the resolution of every start time
 * @param warm          per endpoint (plaintext, json, user, validate) and "all" (every endpoint answered
 *                      correctly), the warm starts: fresh process or container each time, after the
 *                      build, page cache warm
 * @param cold          the same for starts after the page cache was dropped; empty when not measured
 * @param coldNote      why there is no cold start ("unavailable: not root"), empty otherwise
 * @param memory        null when not measured
 * @param size          null when not measured
 * @param note          what went wrong (a start that failed, an endpoint that never answered); empty otherwise
 */
public record StartupFigures(String runtime, long pollMillis, Map<String, StartTime> warm, Map<String, StartTime> cold,
    String coldNote, MemoryFigures memory, SizeFigures size, String note) {
  /** The key of the time until every endpoint has answered correctly. */
  public static final String ALL = "all";

  public StartupFigures {
    warm = warm == null ? Map.of() : new java.util.LinkedHashMap<>(warm);
    cold = cold == null ? Map.of() : new java.util.LinkedHashMap<>(cold);
    coldNote = coldNote == null ? "" : coldNote;
    note = note == null ? "" : note;
  }

  /** The same figures with the memory taken elsewhere (e.g. the pipeline's server under load). */
  public StartupFigures withMemory(MemoryFigures newMemory) {
    return new StartupFigures(runtime, pollMillis, warm, cold, coldNote, newMemory, size, note);
  }

  /**
   * From the launch of the start command (or the container's creation) to the first correct answer.
   *
   * @param millis every start measured, in order
   */
  public record StartTime(int n, double medianMillis, double minMillis, double maxMillis, List<Double> millis) {
    public StartTime {
      millis = millis == null ? List.of() : List.copyOf(millis);
    }

    public static StartTime of(List<Double> millis) {
      List<Double> sorted = millis.stream().sorted().toList();
      int n = sorted.size();
      double median = n == 0 ? -1 : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
      return new StartTime(n, median, n == 0 ? -1 : sorted.getFirst(), n == 0 ? -1 : sorted.getLast(), millis);
    }
  }
}
