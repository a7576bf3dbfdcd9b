package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ClientGauge;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.stats.MannWhitney;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * With --forks, whether a cell's processes gave it different figures: the runs of each later process
 * against the first's, each throughput run divided by its round's effect. Apart when every run of one
 * lies beyond every run of the other and the medians are 5% or more apart. Not a q-value over the
 * cells: with 4 and 5 runs the least p of a rank test is 2/126, and over 86 cells no q could come
 * under 0.05, so the section could never say a thing; complete separation by 5% is the sharper
 * reading, and its chance without any difference is said beside it. A cell whose processes are apart
 * measured its process as much as its entry; its interval holds both, and one run of it against
 * another run would call the process a change.
 */
public final class ProcessSplit {
  /** Apart: at least this far, as in compare. */
  public static final double MINIMUM_CHANGE = 0.05;
  /** Runs each side needs before a test says anything (3 against 3 cannot reach p below 0.1). */
  public static final int FEWEST_RUNS = 3;

  private ProcessSplit() {}

  /**
   * One cell, one later process against the first.
   *
   * @param metric      "req/s", or "CPU-µs/req" for a cell at a fixed rate (its headline)
   * @param process     the later process, 2 for the second
   * @param change      its median over the first's, less 1
   * @param p           the two-sided Mann–Whitney p-value of the two sets of runs
   * @param separated   every run of one beyond every run of the other
   */
  public record Row(String entry, String cell, String metric, int process, int firstRuns, int runs,
      double firstMedian, double median, double change, double p, boolean separated) {
    public boolean apart() {
      return separated && Math.abs(change) >= MINIMUM_CHANGE;
    }
  }

  /** Every cell with runs enough from two processes or more; empty for a run of one process. */
  public static List<Row> of(ResultsDocument document) {
    java.util.Map<Integer, Double> factor = new java.util.HashMap<>();
    document.rounds().forEach(r -> factor.put(r.index(), r.factor()));
    ClientGauge gauge = ClientGauge.of(document);
    List<Row> rows = new ArrayList<>();
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
          double value = cell.kind() == CellKind.THROUGHPUT
              ? run.requestsPerSecond() / Math.exp(factor.getOrDefault(run.round(), 0.0))
              : gauge.cpuPerRequest(cell, run);
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
          boolean separated = Collections.max(first) < Collections.min(later)
              || Collections.min(first) > Collections.max(later);
          rows.add(new Row(entry.id(), cell.name(), cell.kind() == CellKind.THROUGHPUT ? "req/s" : "CPU-µs/req",
              process, first.size(), later.size(), firstMedian, median, median / firstMedian - 1,
              MannWhitney.test(first, later).pValue(), separated));
        }
      }
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
            + "Per cell with %d runs or more from each, the runs of each later process against the first's, a "
            + "throughput run divided by its round's effect: apart when every run of one lies beyond every run of the "
            + "other and their medians are %.0f%% or more apart. Were the processes alike, n runs against m would "
            + "fall apart so in 2 of C(n+m, n) orders (4 against 5: 1.6%%; 3 against 3: 10%%), and by %.0f%% more "
            + "rarely still: with these cells' runs, chance alone would part about %s of the %d. **%d of %d cells "
            + "apart.** Such a cell measured its process as much as its entry: its interval holds both processes, and "
            + "a run of it against another run would read the process as a change. Every server's processes begin at "
            + "the same rounds, so a shift they all share at a turn is read as those rounds' effect and is not here: "
            + "in a run of one runtime's servers alone, that can be most of one.",
        document.method().forks(), FEWEST_RUNS, MINIMUM_CHANGE * 100, MINIMUM_CHANGE * 100,
        chanceFigure(expectedByChance(rows)), rows.size(), rows.stream().filter(Row::apart).count(), rows.size());
  }

  /**
   * How many of the rows would be separated were every process alike: each n runs against m fall
   * apart in 2 of C(n+m, n) orders. An upper bound on the rows apart by chance, which also need 5%.
   */
  public static double expectedByChance(List<Row> rows) {
    double sum = 0;
    for (Row r : rows) {
      sum += MannWhitney.smallestPossiblePValue(r.firstRuns(), r.runs());
    }
    return sum;
  }

  private static String chanceFigure(double expected) {
    String format = expected >= 0.95 ? "%.0f" : expected >= 0.095 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, format, expected);
  }

  public static final List<String> HEADER = List.of("Entry", "Cell", "Metric", "Process 1 (runs)", "Process (runs)",
      "Change", "Mann–Whitney p");

  /** The table's cells for one row that is apart. */
  public static List<String> cells(Row r) {
    return List.of(r.entry(), r.cell(), r.metric(), figure(r.firstMedian()) + " (" + r.firstRuns() + ")",
        r.process() + ": " + figure(r.median()) + " (" + r.runs() + ")",
        String.format(Locale.ROOT, "%+.1f%%", r.change() * 100), String.format(Locale.ROOT, "%.2g", r.p()));
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
      md.append("| ").append(String.join(" | ", HEADER)).append(" |\n|---|---|---|---:|---:|---:|---:|\n");
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
