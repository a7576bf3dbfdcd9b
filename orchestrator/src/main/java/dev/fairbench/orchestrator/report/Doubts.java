package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every reason a reviewer should doubt one cell's figures. A cell with no doubt is trustworthy;
 * the reports print the reasons next to the numbers, never instead of them.
 */
public final class Doubts {
  /** One reason to doubt a cell: a short kind (used as a mark) and the sentence a reviewer reads. */
  public record Doubt(String kind, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** Spread across runs above which a cell is called noisy. */
  public static final double NOISY_CV = 0.05;
  /** A server whose peak RSS is above this share of its memory limit may have been squeezed. */
  public static final double NEAR_MEMORY_LIMIT = 0.9;
  /** Fewer measured runs than this leave the spread unknown. */
  public static final int MIN_RUNS = 3;

  private Doubts() {}

  public static List<Doubt> of(CellResult cell, Environment environment) {
    List<Doubt> doubts = new ArrayList<>();
    if (!CellResult.MEASURED.equals(cell.status()) || cell.stats() == null) {
      doubts.add(new Doubt("not-measured", "not measured: " + (cell.reason() == null || cell.reason().isBlank() ? cell.status() : cell.reason())));
      return doubts;
    }
    CellStats stats = cell.stats();
    if (stats.clientBound()) {
      doubts.add(new Doubt("client-bound", String.format(Locale.ROOT,
          "client-bound: wrk used %.0f%% of a core, so req/s shows the load generator's limit, not the server's; compare CPU-µs/request instead",
          stats.clientCpuUtilisation() * 100)));
    }
    if (stats.invalid()) {
      long errors = cell.runs().stream().mapToLong(r -> r.non2xx() + r.socketErrors().total()).sum();
      long requests = cell.runs().stream().mapToLong(r -> r.requests()).sum();
      doubts.add(new Doubt("invalid", String.format(Locale.ROOT, "invalid: %,d errors (non-2xx or socket) in %,d requests, over 0.1%%", errors, requests)));
    }
    if (stats.cv() > NOISY_CV) {
      doubts.add(new Doubt("noisy", String.format(Locale.ROOT, "noisy: the runs spread %.1f%% (CV) around the median, over %.0f%%",
          stats.cv() * 100, NOISY_CV * 100)));
    }
    if (cell.runs().size() < MIN_RUNS) {
      doubts.add(new Doubt("few-runs", "only " + cell.runs().size() + " measured run(s): the spread is not known"));
    }
    WorkerObservation workers = cell.workers();
    if (workers != null && !workers.matches()) {
      doubts.add(new Doubt("workers", String.format(Locale.ROOT, "workers: %d requested, %d %s seen busy under load",
          workers.requested(), workers.observed(), "processes".equals(workers.model()) ? "processes" : "threads")));
    }
    long memoryLimit = environment == null || environment.limits() == null ? 0 : environment.limits().memoryBytes();
    if (memoryLimit > 0 && stats.peakRssBytes() > NEAR_MEMORY_LIMIT * memoryLimit) {
      doubts.add(new Doubt("memory", String.format(Locale.ROOT, "memory: peak RSS %d MiB is within 10%% of the %d MiB limit",
          stats.peakRssBytes() >> 20, memoryLimit >> 20)));
    }
    return doubts;
  }

  public static boolean trustworthy(CellResult cell, Environment environment) {
    return of(cell, environment).isEmpty();
  }
}
