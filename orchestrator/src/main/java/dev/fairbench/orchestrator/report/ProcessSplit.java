package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.FalseDiscovery;
import dev.fairbench.orchestrator.stats.MannWhitney;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * With --forks, whether a cell's processes gave it different figures: the runs of each later process
 * against the first's, a Mann–Whitney test per cell and Benjamini–Hochberg q-values over every cell
 * tested. A cell whose processes are apart measured its process as much as its entry; its interval
 * holds both, and one run of it against another run would call the process a change.
 */
public final class ProcessSplit {
  /** Apart: at least this far, as in compare. */
  public static final double MINIMUM_CHANGE = 0.05;
  public static final double FALSE_DISCOVERY_RATE = 0.05;
  /** Runs each side needs before a test says anything (3 against 3 cannot reach p below 0.1). */
  public static final int FEWEST_RUNS = 3;

  private ProcessSplit() {}

  /**
   * One cell, one later process against the first.
   *
   * @param metric      "req/s", or "CPU-µs/req" for a cell at a fixed rate (its headline)
   * @param process     the later process, 2 for the second
   * @param change      its median over the first's, less 1
   */
  public record Row(String entry, String cell, String metric, int process, int firstRuns, int runs,
      double firstMedian, double median, double change, double p, double q) {
    public boolean apart() {
      return q < FALSE_DISCOVERY_RATE && Math.abs(change) >= MINIMUM_CHANGE;
    }
  }

  /** Every cell with runs enough from two processes or more; empty for a run of one process. */
  public static List<Row> of(ResultsDocument document) {
    List<Row> drafts = new ArrayList<>();
    for (EntryResult entry : document.entries()) {
      if (entry.processes() == null || entry.processes().size() < 2) {
        continue;
      }
      for (CellResult cell : entry.cells()) {
        List<List<Double>> byProcess = new ArrayList<>();
        for (int i = 0; i < entry.processes().size(); i++) {
          byProcess.add(new ArrayList<>());
        }
        for (RunRecord run : cell.countedRuns()) {
          double value = cell.kind() == CellKind.THROUGHPUT ? run.requestsPerSecond()
              : Statistics.cpuMicrosPerRequest(run.serverCpuSeconds(), run.requests());
          if (value > 0) {
            byProcess.get(processOf(entry.processes(), run.round()) - 1).add(value);
          }
        }
        List<Double> first = byProcess.getFirst();
        for (int process = 2; process <= byProcess.size(); process++) {
          List<Double> later = byProcess.get(process - 1);
          if (first.size() < FEWEST_RUNS || later.size() < FEWEST_RUNS) {
            continue;
          }
          double firstMedian = Statistics.median(first);
          double median = Statistics.median(later);
          drafts.add(new Row(entry.id(), cell.name(), cell.kind() == CellKind.THROUGHPUT ? "req/s" : "CPU-µs/req",
              process, first.size(), later.size(), firstMedian, median, median / firstMedian - 1,
              MannWhitney.test(first, later).pValue(), Double.NaN));
        }
      }
    }
    double[] q = FalseDiscovery.benjaminiHochbergQValues(drafts.stream().mapToDouble(Row::p).toArray());
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < drafts.size(); i++) {
      Row r = drafts.get(i);
      rows.add(new Row(r.entry(), r.cell(), r.metric(), r.process(), r.firstRuns(), r.runs(), r.firstMedian(), r.median(),
          r.change(), r.p(), q[i]));
    }
    return rows;
  }

  /** The 1-based index of the process that served {@code round}: the last to begin at or before it. */
  static int processOf(List<EntryResult.ProcessStart> processes, int round) {
    int index = 1;
    for (int i = 0; i < processes.size(); i++) {
      if (processes.get(i).firstRound() <= round) {
        index = i + 1;
      }
    }
    return index;
  }

  /** What the section says above its table, "**N of M apart.**" in Markdown's bold. */
  public static String summary(ResultsDocument document, List<Row> rows) {
    return String.format(Locale.ROOT, "Each server's rounds were measured by %d processes in turn (Method, above). "
            + "Per cell, the runs of each later process against the first's: a Mann–Whitney test, Benjamini–Hochberg "
            + "q-values over the %d cells with %d runs or more from each; apart when q < %.2f and the medians are %.0f%% "
            + "or more apart. **%d of %d apart.** Such a cell measured its process as much as its entry: its interval "
            + "holds both processes, and a run of it against another run would read the process as a change.",
        document.method().forks(), rows.size(), FEWEST_RUNS, FALSE_DISCOVERY_RATE, MINIMUM_CHANGE * 100,
        rows.stream().filter(Row::apart).count(), rows.size());
  }

  public static final List<String> HEADER = List.of("Entry", "Cell", "Metric", "Process 1 (runs)", "Process (runs)",
      "Change", "p", "q");

  /** The table's cells for one row that is apart. */
  public static List<String> cells(Row r) {
    return List.of(r.entry(), r.cell(), r.metric(), figure(r.firstMedian()) + " (" + r.firstRuns() + ")",
        r.process() + ": " + figure(r.median()) + " (" + r.runs() + ")",
        String.format(Locale.ROOT, "%+.1f%%", r.change() * 100), String.format(Locale.ROOT, "%.2g", r.p()),
        String.format(Locale.ROOT, "%.2g", r.q()));
  }

  /** The report's section: how many cells were tested, and those whose processes are apart; empty with one process. */
  public static String toMarkdown(ResultsDocument document) {
    List<Row> rows = of(document);
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("## Processes\n\n").append(summary(document, rows)).append("\n\n");
    List<Row> apart = rows.stream().filter(Row::apart).toList();
    if (!apart.isEmpty()) {
      md.append("| ").append(String.join(" | ", HEADER)).append(" |\n|---|---|---|---:|---:|---:|---:|---:|\n");
      for (Row r : apart) {
        md.append("| ").append(String.join(" | ", cells(r))).append(" |\n");
      }
      md.append("\n");
    }
    return md.toString();
  }

  private static String figure(double value) {
    return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
  }
}
