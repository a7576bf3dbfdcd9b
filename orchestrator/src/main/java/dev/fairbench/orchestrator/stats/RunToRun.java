package dev.fairbench.orchestrator.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How far cells move between two runs beyond what the runs inside each run show, and a test of one
 * cell's change that allows for it.
 *
 * <p>Inside one run every cell is measured in the same rounds, so its interval only knows the
 * scatter from visit to visit. Two runs hours apart differ by more: each cell (in practice each
 * entry, all its endpoints together) is shifted by an amount of its own that no calibration server
 * divides out. One run a side cannot show that shift for a cell, but the cells together can, as
 * long as most of them did not change: the spread of their log changes, less the part their own
 * intervals explain, is the spread of those shifts (the empirical null of Efron, 2004, with the
 * between-study variance of a random-effects meta-analysis). Both are taken robustly: the spread
 * of the changes as 1.4826 × their median absolute deviation from their median (again without the
 * cells beyond 3.5 such deviations, which changed), the part their intervals explain as the median
 * of their squared standard errors, so a minority of cells that did change moves neither much. A shift of every cell alike is not a spread and stays a change.
 */
public final class RunToRun {
  /** Fewer tested cells than this give no estimate: a median absolute deviation of a handful says little. */
  public static final int MIN_CELLS = 8;
  /** Fewer entries than this give no reading from the entries, only the cells'. */
  public static final int MIN_ENTRIES = 6;

  private static final double Z_975 = 1.959963984540054;
  private static final double MAD_TO_SD = 1.482602218505602;
  /**
   * The shifts between runs here have a heavier tail than a normal one (a few cells of an A/A pair
   * move 20–30% where the median cell moves 3%): the spread is also read from the 90th percentile of
   * the absolute deviations (1.645 standard deviations of a normal one), and the larger reading is
   * kept, so a heavy tail widens every interval instead of raising false alarms.
   */
  private static final double TAIL = 0.90;
  private static final double Z_TAIL = 1.6448536269514722;
  /** Robust standard deviations from the median beyond which a cell is taken for one that changed. */
  private static final double OUTSIDE = 3.5;

  private RunToRun() {}

  /**
   * The standard deviation of the cells' own shifts on the log scale (0.05 ≈ 5%), or empty with
   * fewer than {@link #MIN_CELLS} cells.
   *
   * @param logChanges     each cell's log(after ÷ before)
   * @param standardErrors each cell's standard error of that log change, in the same order
   */
  public static Optional<Double> spread(List<Double> logChanges, List<Double> standardErrors) {
    if (logChanges.size() != standardErrors.size()) {
      throw new IllegalArgumentException(logChanges.size() + " changes but " + standardErrors.size() + " standard errors");
    }
    if (logChanges.size() < MIN_CELLS) {
      return Optional.empty();
    }
    List<Double> variances = new ArrayList<>();
    standardErrors.forEach(s -> variances.add(s * s));
    return Optional.of(lessExplained(robustSpread(logChanges, MIN_CELLS), variances));
  }

  /** Where a spread between runs was read: the cells one by one, or the entries, each the mean of its cells. */
  public enum Basis {
    CELLS,
    ENTRIES
  }

  /** A spread between runs (log scale) and the reading it was kept from. */
  public record Reading(double spread, Basis basis) {}

  /**
   * The spread read twice, from the cells ({@link #spread(List, List)}) and from the entries, the larger
   * kept. An entry shifts between runs with all its endpoints alike (one process of one runtime), so its
   * cells are not independent readings of the shift. Read cell by cell, a few entries that moved with every
   * cell are taken, where the cells' own intervals are wide, for those cells' own errors; an entry's mean
   * over its four cells keeps the whole shift and a quarter of the errors' variance, so the same entries
   * stand out. The entry reading is the same robust spread of each entry's mean log change over its cells,
   * from at least {@link #MIN_ENTRIES} entries, less the median of what their cells' own intervals explain
   * of that mean (their mean squared standard error ÷ their number of cells): the spread of the entries'
   * shifts plus a share of the cells' scatter within an entry.
   *
   * @param entries each cell's entry (entry:variant: one server process), in the same order as the changes
   * @return empty with fewer than {@link #MIN_CELLS} cells
   */
  public static Optional<Reading> spread(List<Double> logChanges, List<Double> standardErrors, List<String> entries) {
    if (entries.size() != logChanges.size()) {
      throw new IllegalArgumentException(logChanges.size() + " changes but " + entries.size() + " entries");
    }
    Optional<Double> ofCells = spread(logChanges, standardErrors);
    if (ofCells.isEmpty()) {
      return Optional.empty();
    }
    Map<String, List<Integer>> cellsOf = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      cellsOf.computeIfAbsent(entries.get(i), e -> new ArrayList<>()).add(i);
    }
    if (cellsOf.size() < MIN_ENTRIES) {
      return Optional.of(new Reading(ofCells.get(), Basis.CELLS));
    }
    List<Double> means = new ArrayList<>();
    List<Double> explained = new ArrayList<>();
    for (List<Integer> cells : cellsOf.values()) {
      means.add(cells.stream().mapToDouble(logChanges::get).average().orElseThrow());
      explained.add(cells.stream().mapToDouble(i -> standardErrors.get(i) * standardErrors.get(i)).average().orElseThrow()
          / cells.size());
    }
    double ofEntries = lessExplained(robustSpread(means, MIN_ENTRIES), explained);
    return Optional.of(ofEntries > ofCells.get() ? new Reading(ofEntries, Basis.ENTRIES)
        : new Reading(ofCells.get(), Basis.CELLS));
  }

  /**
   * The robust standard deviation of {@code values} about their median, once more without the values
   * beyond {@link #OUTSIDE} of them (those that really changed, which inflate the first reading) when at
   * least {@code minimum} are left.
   */
  private static double robustSpread(List<Double> values, int minimum) {
    double centre = Statistics.median(values);
    double first = robustSd(values, centre);
    List<Double> kept = values.stream().filter(r -> Math.abs(r - centre) <= OUTSIDE * first).toList();
    if (kept.size() >= minimum && kept.size() < values.size()) {
      return robustSd(kept, Statistics.median(kept));
    }
    return first;
  }

  /** The spread left of {@code total} once the median of the {@code variances} is taken out of it. */
  private static double lessExplained(double total, List<Double> variances) {
    return Math.sqrt(Math.max(0, total * total - Statistics.median(variances)));
  }

  /**
   * The same spread from the runs repeated on a side instead of from the changes, which needs no
   * assumption that most cells did not change: each run's log median of a cell against the mean of
   * that side's runs of it (scaled by √(k/(k−1)) to a single run's deviation), with each run's
   * shift of every cell alike taken out (the median of its deviations), less the median squared
   * standard error of the runs. Robust as {@link #spread}: 1.4826 × the median absolute deviation,
   * once more without the deviations beyond 3.5 of them.
   *
   * @param sides each side's runs: per run, per cell, its log median and that median's standard
   *              error ({@code NaN} where the run lacks the cell); a side of one run adds nothing
   * @return empty when fewer than {@link #MIN_CELLS} cells were measured in two runs of a side
   */
  public static Optional<Double> spreadFromRepeats(List<Repeats> sides) {
    List<Double> deviations = new ArrayList<>();
    List<Double> variances = new ArrayList<>();
    int repeatedCells = 0;
    for (Repeats side : sides) {
      int runs = side.logMedians().length;
      if (runs < 2) {
        continue;
      }
      int cells = side.logMedians()[0].length;
      double[][] raw = new double[runs][cells];
      double[] scale = new double[cells];
      for (int c = 0; c < cells; c++) {
        int k = 0;
        double sum = 0;
        for (int r = 0; r < runs; r++) {
          if (Double.isFinite(side.logMedians()[r][c])) {
            k++;
            sum += side.logMedians()[r][c];
          }
        }
        for (int r = 0; r < runs; r++) {
          raw[r][c] = k < 2 || !Double.isFinite(side.logMedians()[r][c]) ? Double.NaN : side.logMedians()[r][c] - sum / k;
        }
        scale[c] = k < 2 ? Double.NaN : Math.sqrt(k / (k - 1.0));
        repeatedCells += k < 2 ? 0 : 1;
      }
      for (int r = 0; r < runs; r++) {
        List<Double> ofRun = new ArrayList<>();
        for (double d : raw[r]) {
          if (Double.isFinite(d)) {
            ofRun.add(d);
          }
        }
        if (ofRun.isEmpty()) {
          continue;
        }
        double wholeRun = Statistics.median(ofRun);
        for (int c = 0; c < cells; c++) {
          if (Double.isFinite(raw[r][c])) {
            deviations.add((raw[r][c] - wholeRun) * scale[c]);
            double error = side.standardErrors()[r][c];
            variances.add(error * error);
          }
        }
      }
    }
    if (repeatedCells < MIN_CELLS) {
      return Optional.empty();
    }
    double first = robustSd(deviations, 0);
    double total = first;
    List<Double> kept = deviations.stream().filter(d -> Math.abs(d) <= OUTSIDE * first).toList();
    if (kept.size() < deviations.size() && !kept.isEmpty()) {
      total = robustSd(kept, 0);
    }
    return Optional.of(lessExplained(total, variances));
  }

  /**
   * One side's runs of the same cells: {@code logMedians[run][cell]} and the standard error of each
   * ({@code NaN} where a run lacks the cell).
   */
  public record Repeats(double[][] logMedians, double[][] standardErrors) {}

  private static double robustSd(List<Double> values, double centre) {
    List<Double> deviations = new ArrayList<>();
    values.forEach(r -> deviations.add(Math.abs(r - centre)));
    double median = MAD_TO_SD * Statistics.median(deviations);
    double tail = quantile(deviations, TAIL) / Z_TAIL;
    return Math.max(median, tail);
  }

  private static double quantile(List<Double> values, double p) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double position = p * (sorted.length - 1);
    int below = (int) Math.floor(position);
    int above = Math.min(sorted.length - 1, below + 1);
    return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
  }

  /**
   * The standard error of the log of a figure whose 95% interval is {@code interval}: a ratio, or a median in
   * its own units (only high ÷ low counts).
   */
  public static double standardError(Interval interval) {
    return (Math.log(interval.high()) - Math.log(interval.low())) / (2 * Z_975);
  }

  /**
   * Two-sided p-value of a cell's log change against no change, its standard error and the spread
   * between runs added in quadrature (normal approximation).
   */
  public static double pValue(double logChange, double standardError, double spread) {
    double z = logChange / Math.sqrt(standardError * standardError + spread * spread);
    return Math.min(1, 2 * Normal.upperTail(Math.abs(z)));
  }

  /** A ratio's 95% interval with the spread between runs added to each side in quadrature. */
  public static Interval widen(double ratio, Interval interval, double spread) {
    double extra = Z_975 * spread;
    double below = Math.log(ratio) - Math.log(interval.low());
    double above = Math.log(interval.high()) - Math.log(ratio);
    return new Interval(ratio * Math.exp(-Math.hypot(Math.max(0, below), extra)),
        ratio * Math.exp(Math.hypot(Math.max(0, above), extra)));
  }
}
