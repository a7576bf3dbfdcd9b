package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CpuGauge;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ClientGauge;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.Invocation;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RoundEffects;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.stats.FalseDiscovery;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.MannWhitney;
import dev.fairbench.orchestrator.stats.MedianInterval;
import dev.fairbench.orchestrator.stats.RunToRun;
import dev.fairbench.orchestrator.stats.ShiftEstimate;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Before/after per cell (entry × variant × cell name, same kind): the change of the headline
 * figure with its 95% interval (Hodges–Lehmann on the log scale), a Mann–Whitney U test on the two
 * sets of runs, and Benjamini–Hochberg q-values over every tested cell, so that with dozens of
 * cells the share of false alarms among the "significant" ones stays at most the chosen rate.
 *
 * <p>A change is significant when its q-value is below {@code alpha} and it is at least the
 * minimum change; otherwise "~". A side with too few runs for the test to ever reach {@code alpha}
 * (3 a side: the smallest two-sided p is 0.1) says so instead of guessing. Every run is first
 * divided by its round's effect ({@link RoundEffects}: the rounds are blocks), as the run's own
 * medians are. With {@link Normalization#CALIBRATION} every run is also divided by the calibration
 * server's median over its run (same endpoint, or the geometric mean of its endpoints for one it
 * lacks), which is how two machines of one CPU model or two days are compared; between two runs that median's own
 * error enters every interval and test it divides ({@link CalibrationFloor}). Documents of two method
 * versions are refused.
 *
 * <p>Two runs (not two entries of one run) also differ by a shift of each cell's own that the runs
 * inside either run cannot show ({@link RunToRun}): its spread is estimated from every tested cell,
 * per kind of figure, read cell by cell and entry by entry, and added to each cell's interval and test
 * ({@link BetweenRuns}).
 */
public record Comparison(List<String> environmentDifferences, Normalization normalization, double alpha,
    double minChange, List<Row> rows, List<StartupRow> startup, boolean withinOneRun, BetweenRuns betweenRuns,
    MachineAround machine) {

  public static final double DEFAULT_MIN_CHANGE = 0.05;
  public static final double DEFAULT_ALPHA = 0.05;

  public enum Normalization {
    NONE("none"),
    CALIBRATION("calibration");

    private final String wireName;

    Normalization(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    public static Normalization parse(String value) {
      for (Normalization n : values()) {
        if (n.wireName.equals(value)) {
          return n;
        }
      }
      throw new IllegalArgumentException("unknown normalization \"" + value + "\"; known: none, calibration");
    }
  }

  public enum Verdict {
    SIGNIFICANT("significant"),
    NOT_SIGNIFICANT("~"),
    TOO_FEW_RUNS("too few runs"),
    NA("n/a");

    private final String label;

    Verdict(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * @param metric      "req/s" or "CPU-µs/req" (client-bound on either side), or a ratio to the calibration
   * @param before      median of the metric before
   * @param ratio       after ÷ before (Hodges–Lehmann), null when not computable
   * @param interval    its 95% interval, null with too few runs
   * @param pValue      Mann–Whitney, two-sided; null when not tested
   * @param qValue      Benjamini–Hochberg over every tested cell; null when not tested
   * @param doubtful    a side is not trustworthy (see the fairness review of that run)
   * @param underTest   a tested cell of the change under test: its entry's sources differ between the sides (or its
   *                    ladder's baseline's, or the calibration's it is divided by); the others should not have moved
   */
  public record Row(String entry, String cell, CellKind kind, String metric, Double before, Double after, Double ratio,
      Interval interval, Double pValue, Double qValue, Verdict verdict, String why, boolean doubtful,
      boolean calibration, boolean underTest) {
    public Double deltaPercent() {
      return ratio == null ? null : (ratio - 1) * 100;
    }
  }

  /**
   * How far the cells moved between the two runs beyond their runs' own scatter, per kind of figure,
   * and how many cells would have been called significant on that scatter alone.
   *
   * @param changedSources the entries whose sources differ between the sides (the runs' invocation blocks): their
   *                       cells are the change under test, so the spread is estimated without them (and without
   *                       the ladder cells of frameworks on a changed baseline), unless too few cells are left
   */
  public record BetweenRuns(List<Spread> spreads, long significantWithout, int runsBefore, int runsAfter,
      List<String> changedSources) {
    public BetweenRuns {
      changedSources = changedSources == null ? List.of() : List.copyOf(changedSources);
    }

    public BetweenRuns(List<Spread> spreads, long significantWithout) {
      this(spreads, significantWithout, 1, 1, List.of());
    }

    /** More than one results file on a side: each cell is a mean of its runs' medians. */
    public boolean repeated() {
      return runsBefore > 1 || runsAfter > 1;
    }
  }

  /**
   * @param figures what the cells measure ("throughput and rate cells", "ladder overheads")
   * @param cells   how many tested cells it applies to
   * @param leftOut how many of them the estimate left out: cells of entries whose sources differ between the sides
   * @param spread  standard deviation of their own shifts on the log scale (0.05 ≈ 5%); null with too
   *                few cells to estimate it, when their verdicts assume no such shift
   * @param basis   whether the changes' reading kept came from the cells or the entries ({@link RunToRun#spread(List,
   *                List, List)}); null without one
   */
  public record Spread(String figures, int cells, Double spread, Source source, int leftOut, RunToRun.Basis basis) {}

  /** What a spread between runs was estimated from. */
  public enum Source {
    /** The cells' changes between the one run a side (most cells are taken not to have changed). */
    CHANGES,
    /** The runs repeated on a side, or the changes when they show more (the larger of the two). */
    REPEATS
  }

  /** Two documents that must not be compared. */
  public static final class IncomparableException extends RuntimeException {
    public IncomparableException(String message) {
      super(message);
    }
  }

  public static Comparison of(ResultsDocument before, ResultsDocument after) {
    return of(before, after, DEFAULT_MIN_CHANGE, DEFAULT_ALPHA, Normalization.NONE);
  }

  /**
   * Two entries of one run, {@code before} against {@code after} (say, an entry and a changed copy of
   * it measured side by side): their cells of the same name, each row named "BEFORE → AFTER". Both were
   * measured in the same rounds on the same machine, so none of the shifts between runs hours apart
   * (docs/ORCHESTRATOR.md, "A/A pairs") enters the comparison: only the spread within the run.
   */
  public static Comparison withinRun(ResultsDocument document, String before, String after, double minChange,
      double alpha, Normalization normalization) {
    if (before.equals(after)) {
      throw new IncomparableException("--entries names " + before + " twice; give two different entries of the run");
    }
    List<String> ids = document.entries().stream().map(EntryResult::id).toList();
    for (String id : List.of(before, after)) {
      if (!ids.contains(id)) {
        throw new IncomparableException("no entry " + id + " in the results (entries: " + String.join(", ", ids) + ")");
      }
    }
    String shown = before + " → " + after;
    Comparison c = of(renamed(document, before, after, shown), renamed(document, after, before, shown), minChange, alpha,
        normalization, shown::equals, false);
    return new Comparison(c.environmentDifferences(), c.normalization(), c.alpha(), c.minChange(), c.rows(), c.startup(),
        true, null, null);
  }

  /** The document with {@code keep} shown as {@code shown} and {@code drop} left out. */
  private static ResultsDocument renamed(ResultsDocument document, String keep, String drop, String shown) {
    List<EntryResult> entries = document.entries().stream().filter(e -> !e.id().equals(drop))
        .map(e -> e.id().equals(keep) ? e.withId(shown) : e).toList();
    return new ResultsDocument(document.schemaVersion(), document.methodVersion(), document.environment(),
        document.method(), document.rounds(), document.calibration(), document.breaks(), entries);
  }

  public static Comparison of(ResultsDocument before, ResultsDocument after, double minChange, double alpha,
      Normalization normalization) {
    return of(before, after, minChange, alpha, normalization, entry -> true, true);
  }

  /** "BEFORE file 2" or "AFTER file 1": the {@code i}th of the files, before ones first. */
  private static String side(int i, int beforeCount) {
    return i < beforeCount ? "BEFORE file " + (i + 1) : "AFTER file " + (i - beforeCount + 1);
  }

  /**
   * Several runs a side (results files of the same code made hours apart, say): per cell, each run's
   * median, the change of their geometric means after ÷ before, and a normal test whose variance is
   * each run's own (the standard error from the interval of its median) plus the spread between
   * runs, estimated from the runs repeated on a side ({@link RunToRun#spreadFromRepeats}), divided
   * by the runs a side; never less strict than a Mann–Whitney U test on all the runs of a side
   * together. One run a side is {@link #of(ResultsDocument, ResultsDocument, double, double, Normalization)}.
   */
  public static Comparison of(List<ResultsDocument> before, List<ResultsDocument> after, double minChange, double alpha,
      Normalization normalization) {
    if (before.isEmpty() || after.isEmpty()) {
      throw new IllegalArgumentException("a comparison needs at least one results file a side");
    }
    if (before.size() == 1 && after.size() == 1) {
      return of(before.get(0), after.get(0), minChange, alpha, normalization);
    }
    List<ResultsDocument> all = new ArrayList<>(before);
    all.addAll(after);
    for (int i = 0; i < all.size(); i++) {
      ResultsDocument d = all.get(i);
      String which = side(i, before.size());
      if (!Objects.equals(d.methodVersion(), all.get(0).methodVersion())) {
        throw new IncomparableException("the files were made by different methods (" + name(all.get(0).methodVersion())
            + " in BEFORE file 1, " + name(d.methodVersion()) + " in " + which + "): their figures are not comparable; re-measure");
      }
      if (normalization == Normalization.CALIBRATION && d.calibration() == null) {
        throw new IncomparableException("--normalize calibration needs a calibration server in every run; " + which
            + " has none");
      }
    }
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        if (all.get(i).equals(all.get(j))) {
          throw new IncomparableException(side(i, before.size()) + " and " + side(j, before.size())
              + " hold the same run: a run given twice would pass for two runs that agree; give each run once");
        }
      }
    }
    List<String> differences = new ArrayList<>(differences(before.get(0), after.get(0)));
    for (int i = 1; i < before.size(); i++) {
      final int run = i + 1;
      differences(before.get(0), before.get(i)).forEach(d -> differences.add("before, run " + run + " against run 1: " + d));
    }
    for (int i = 1; i < after.size(); i++) {
      final int run = i + 1;
      differences(after.get(0), after.get(i)).forEach(d -> differences.add("after, run " + run + " against run 1: " + d));
    }
    boolean acrossEnvironments = !differences.isEmpty() && normalization == Normalization.NONE;
    boolean acrossTopologies = all.stream().map(Comparison::layout).distinct().count() > 1
        && normalization == Normalization.NONE;
    List<String> keys = new ArrayList<>();
    List<Map<String, CellResult>> indexes = all.stream().map(Comparison::index).toList();
    indexes.forEach(index -> index.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add));
    Map<ResultsDocument, RoundEffects> effects = new java.util.IdentityHashMap<>();
    all.forEach(d -> effects.put(d, RoundEffects.of(d)));
    List<Repeated> cells = new ArrayList<>();
    for (String key : keys) {
      cells.add(repeated(key, indexes.subList(0, before.size()), before, indexes.subList(before.size(), all.size()), after,
          effects, normalization));
    }
    List<Spread> spreads = new ArrayList<>();
    java.util.SortedSet<String> changed = changedSources(before, after);
    BiPredicate<String, CellKind> affected = affectedBy(changed, all, normalization);
    double[] spreadOf = new double[cells.size()];
    for (boolean ladder : new boolean[] {false, true}) {
      List<Integer> tested = new ArrayList<>();
      for (int i = 0; i < cells.size(); i++) {
        if (cells.get(i).draft() == null && (cells.get(i).kind() == CellKind.LADDER) == ladder) {
          tested.add(i);
        }
      }
      if (tested.isEmpty()) {
        continue;
      }
      Optional<Double> fromRepeats = RunToRun.spreadFromRepeats(List.of(
          repeats(tested.stream().map(i -> cells.get(i).before()).toList(), before.size()),
          repeats(tested.stream().map(i -> cells.get(i).after()).toList(), after.size())));
      // The repeats of a side only show how that side's runs differ; a run on the other side may
      // differ more (another hour, another neighbour). The changes show that, as long as most cells
      // did not change: the larger of the two readings is kept.
      List<Integer> unchanged = estimatedFrom(tested, i -> affected.test(cells.get(i).entry(), cells.get(i).kind()));
      Optional<RunToRun.Reading> changes = RunToRun.spread(
          unchanged.stream().map(i -> cells.get(i).finish(0).change()).map(c -> Math.log(c.ratio())).toList(),
          unchanged.stream().map(i -> RunToRun.standardError(cells.get(i).finish(0).change().ratioInterval())).toList(),
          unchanged.stream().map(i -> cells.get(i).entry()).toList());
      Optional<Double> fromChanges = changes.map(r -> r.spread() / Math.sqrt(1.0 / before.size() + 1.0 / after.size()));
      Optional<Double> spread = fromRepeats.isEmpty() ? fromChanges
          : Optional.of(Math.max(fromRepeats.get(), fromChanges.orElse(0.0)));
      spreads.add(new Spread(ladder ? "ladder overheads" : "throughput and rate cells", tested.size(), spread.orElse(null),
          Source.REPEATS, tested.size() - unchanged.size(), changes.map(RunToRun.Reading::basis).orElse(null)));
      tested.forEach(i -> spreadOf[i] = spread.orElse(0.0));
    }
    List<Draft> without = new ArrayList<>();
    List<Draft> drafts = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      without.add(cells.get(i).finish(0));
      drafts.add(cells.get(i).finish(spreadOf[i]));
    }
    java.util.function.Predicate<Draft> underTest = d -> affected.test(d.entry(), d.kind());
    long significantWithout = rows(without, underTest, alpha, minChange, acrossEnvironments, acrossTopologies).stream()
        .filter(r -> r.verdict() == Verdict.SIGNIFICANT).count();
    return new Comparison(differences, normalization, alpha, minChange,
        rows(drafts, underTest, alpha, minChange, acrossEnvironments, acrossTopologies), startupRows(before.get(0), after.get(0)),
        false, new BetweenRuns(spreads, significantWithout, before.size(), after.size(),
            List.copyOf(changed)), MachineAround.of(before, after).orElse(null));
  }

  /** One run's median of a cell (log) and its standard error; null where the run lacks the cell. */
  private record RunMedian(double log, double standardError, List<Double> values) {}

  /**
   * A cell over several runs a side: either a finished draft (not testable: {@code draft} says why)
   * or each run's median, to be finished once the spread between runs is known.
   */
  private record Repeated(String entry, String cell, CellKind kind, String metric, List<RunMedian> before,
      List<RunMedian> after, boolean doubtful, boolean calibration, Draft draft, String note) {
    Repeated(String entry, String cell, CellKind kind, String metric, List<RunMedian> before, List<RunMedian> after,
        boolean doubtful, boolean calibration, Draft draft) {
      this(entry, cell, kind, metric, before, after, doubtful, calibration, draft, "");
    }

    Draft finish(double spread) {
      if (draft != null) {
        return draft;
      }
      double[] b = side(before, spread);
      double[] a = side(after, spread);
      double log = a[0] - b[0];
      double se = Math.sqrt(a[1] + b[1]);
      List<Double> pooledBefore = new ArrayList<>();
      List<Double> pooledAfter = new ArrayList<>();
      before.stream().filter(Objects::nonNull).forEach(m -> pooledBefore.addAll(m.values()));
      after.stream().filter(Objects::nonNull).forEach(m -> pooledAfter.addAll(m.values()));
      double p = Math.max(MannWhitney.test(pooledBefore, pooledAfter).pValue(),
          RunToRun.pValue(log, se, 0));
      double z = 1.959963984540054 * se;
      return new Draft(entry, cell, kind, metric, Math.exp(b[0]), Math.exp(a[0]),
          new ShiftEstimate.Change(Math.exp(log), new Interval(Math.exp(log - z), Math.exp(log + z))), p, false, null,
          doubtful, calibration, note);
    }

    /** The mean log median of a side's runs and its variance with {@code spread} between runs. */
    private static double[] side(List<RunMedian> runs, double spread) {
      List<RunMedian> present = runs.stream().filter(Objects::nonNull).toList();
      double mean = present.stream().mapToDouble(RunMedian::log).average().orElseThrow();
      double variance = present.stream().mapToDouble(m -> m.standardError() * m.standardError() + spread * spread).sum()
          / ((double) present.size() * present.size());
      return new double[] {mean, variance};
    }
  }

  private static RunToRun.Repeats repeats(List<List<RunMedian>> cells, int runs) {
    double[][] logs = new double[runs][cells.size()];
    double[][] errors = new double[runs][cells.size()];
    for (int c = 0; c < cells.size(); c++) {
      for (int r = 0; r < runs; r++) {
        RunMedian m = cells.get(c).get(r);
        logs[r][c] = m == null ? Double.NaN : m.log();
        errors[r][c] = m == null ? Double.NaN : m.standardError();
      }
    }
    return new RunToRun.Repeats(logs, errors);
  }

  private static Repeated repeated(String key, List<Map<String, CellResult>> beforeIndexes, List<ResultsDocument> before,
      List<Map<String, CellResult>> afterIndexes, List<ResultsDocument> after, Map<ResultsDocument, RoundEffects> effects,
      Normalization normalization) {
    String[] parts = key.split("\u0000");
    String entry = parts[0];
    String cellName = parts[1];
    CellKind kind = CellKind.parse(parts[2]);
    boolean calibration = parts[3].equals("c");
    List<CellResult> b = beforeIndexes.stream().map(i -> i.get(key)).toList();
    List<CellResult> a = afterIndexes.stream().map(i -> i.get(key)).toList();
    boolean measuredBefore = b.stream().anyMatch(c -> c != null && c.measured());
    boolean measuredAfter = a.stream().anyMatch(c -> c != null && c.measured());
    java.util.function.Function<String, Repeated> notTested = why -> new Repeated(entry, cellName, kind, "", null, null,
        true, calibration, new Draft(entry, cellName, kind, "", null, null, null, null, false, why, true, calibration));
    if (!measuredBefore || !measuredAfter) {
      return notTested.apply(!measuredBefore && !measuredAfter ? "measured in no run"
          : !measuredBefore ? "not measured before" : "not measured after");
    }
    List<CellResult> every = new ArrayList<>(b);
    every.addAll(a);
    boolean doubtful = every.stream().anyMatch(c -> c != null && c.measured() && !Quality.trustworthy(c));
    String metric;
    java.util.function.BiFunction<CellResult, ResultsDocument, List<Double>> values;
    java.util.function.ToDoubleFunction<ResultsDocument> floorError = document -> 0;
    if (kind == CellKind.LADDER) {
      metric = "CPU-µs/req ÷ baseline";
      Optional<String> baseline = java.util.stream.Stream.concat(before.stream(), after.stream())
          .flatMap(d -> d.entries().stream()).filter(e -> e.id().equals(entry) && !e.standsOn().isEmpty())
          .map(EntryResult::standsOn).findFirst();
      if (baseline.isEmpty()) {
        return new Repeated(entry, cellName, kind, metric, null, null, false, calibration, new Draft(entry, cellName, kind,
            metric, null, null, null, null, false,
            "the ladder's baseline: the floor its frameworks are divided by (its own change shows in its throughput cells)",
            false, calibration));
      }
      values = (cell, document) -> overheads(cell, document, baseline.get(), effects.get(document).gauge());
    } else {
      boolean cpu = kind.constantRate() || every.stream().anyMatch(c -> c != null && c.flags().contains(Flag.CLIENT_BOUND));
      Function<RunRecord, Double> figure = cpu
          ? r -> Statistics.cpuMicrosPerRequest(r.serverCpuSeconds(), r.requests())
          : RunRecord::requestsPerSecond;
      metric = cpu ? "CPU-µs/req" : "req/s";
      if (normalization == Normalization.CALIBRATION) {
        if (calibration) {
          return new Repeated(entry, cellName, kind, metric, null, null, false, true, new Draft(entry, cellName, kind,
              metric, null, null, null, null, false, "the calibration server itself: normalised, it is 1 on both sides",
              false, true));
        }
        metric += " ÷ calibration";
      }
      values = (cell, document) -> values(cell, document, effects.get(document), figure, cpu, normalization);
      if (normalization == Normalization.CALIBRATION) {
        String endpoint = every.stream().filter(Objects::nonNull).findFirst().orElseThrow().endpoint();
        floorError = document -> calibrationFloor(document, effects.get(document), endpoint, figure, cpu)
            .map(CalibrationFloor::standardError).orElse(0.0);
      }
    }
    List<RunMedian> beforeRuns = withFloorError(runMedians(b, before, values), before, floorError);
    List<RunMedian> afterRuns = withFloorError(runMedians(a, after, values), after, floorError);
    if (beforeRuns.stream().allMatch(Objects::isNull) || afterRuns.stream().allMatch(Objects::isNull)) {
      final String shown = metric;
      return new Repeated(entry, cellName, kind, shown, null, null, doubtful, calibration, new Draft(entry, cellName, kind,
          shown, null, null, null, null, false, "no run of a side has the " + MedianInterval.minimumRuns(0.95)
              + " runs an interval of its median needs" + (kind == CellKind.LADDER ? " (with its baseline in the same rounds)"
              : normalization == Normalization.CALIBRATION ? " (with the calibration in the same rounds)" : ""),
          doubtful, calibration));
    }
    return new Repeated(entry, cellName, kind, metric, beforeRuns, afterRuns, doubtful, calibration, null,
        rateNote(kind, b, a));
  }

  /** Each run's median with the standard error of the calibration floor it was divided by added in quadrature. */
  private static List<RunMedian> withFloorError(List<RunMedian> runs, List<ResultsDocument> documents,
      java.util.function.ToDoubleFunction<ResultsDocument> floorError) {
    List<RunMedian> out = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      RunMedian m = runs.get(i);
      out.add(m == null ? null
          : new RunMedian(m.log(), Math.hypot(m.standardError(), floorError.applyAsDouble(documents.get(i))), m.values()));
    }
    return out;
  }

  /** Per results file, the cell's median and its standard error; null where it is absent or too short for an interval. */
  private static List<RunMedian> runMedians(List<CellResult> cells, List<ResultsDocument> documents,
      java.util.function.BiFunction<CellResult, ResultsDocument, List<Double>> values) {
    List<RunMedian> out = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      CellResult cell = cells.get(i);
      List<Double> v = cell == null || !cell.measured() ? List.of() : values.apply(cell, documents.get(i));
      Optional<Interval> interval = MedianInterval.of(v, 0.95);
      out.add(interval.isEmpty() || !(interval.get().low() > 0) ? null
          : new RunMedian(Math.log(Statistics.median(v)), RunToRun.standardError(interval.get()), v));
    }
    return out;
  }

  private static Comparison of(ResultsDocument before, ResultsDocument after, double minChange, double alpha,
      Normalization normalization, java.util.function.Predicate<String> judged, boolean twoRuns) {
    if (!Objects.equals(before.methodVersion(), after.methodVersion())) {
      throw new IncomparableException("the two files were made by different methods (" + name(before.methodVersion())
          + " and " + name(after.methodVersion()) + "): their figures are not comparable; re-measure one side");
    }
    if (normalization == Normalization.CALIBRATION && (before.calibration() == null || after.calibration() == null)) {
      throw new IncomparableException("--normalize calibration needs a calibration server in both runs; "
          + (before.calibration() == null ? "BEFORE" : "AFTER") + " has none");
    }
    List<String> differences = differences(before, after);
    boolean topologyDiffers = !Objects.equals(layout(before), layout(after));
    Map<String, CellResult> b = index(before);
    Map<String, CellResult> a = index(after);
    List<String> keys = new ArrayList<>(b.keySet());
    a.keySet().stream().filter(k -> !b.containsKey(k)).forEach(keys::add);
    RoundEffects beforeEffects = RoundEffects.of(before);
    RoundEffects afterEffects = RoundEffects.of(after);
    List<Draft> drafts = new ArrayList<>();
    for (String key : keys) {
      if (judged.test(key.split("\u0000")[0])) {
        drafts.add(draft(key, b.get(key), a.get(key), before, after, beforeEffects, afterEffects, normalization, twoRuns));
      }
    }
    boolean acrossEnvironments = !differences.isEmpty() && normalization == Normalization.NONE;
    boolean acrossTopologies = topologyDiffers && normalization == Normalization.NONE;
    BetweenRuns betweenRuns = null;
    java.util.function.Predicate<Draft> underTest = d -> false;
    if (twoRuns) {
      java.util.SortedSet<String> changed = changedSources(List.of(before), List.of(after));
      BiPredicate<String, CellKind> affected = affectedBy(changed, List.of(before, after), normalization);
      underTest = d -> affected.test(d.entry(), d.kind());
      long significantWithout = rows(drafts, underTest, alpha, minChange, acrossEnvironments, acrossTopologies).stream()
          .filter(r -> r.verdict() == Verdict.SIGNIFICANT).count();
      List<Spread> spreads = new ArrayList<>();
      drafts = allowingForRunToRun(drafts, spreads, affected);
      betweenRuns = new BetweenRuns(spreads, significantWithout, 1, 1, List.copyOf(changed));
    }
    List<Row> rows = rows(drafts, underTest, alpha, minChange, acrossEnvironments, acrossTopologies);
    List<StartupRow> startup = startupRows(before, after).stream().filter(r -> judged.test(r.entry())).toList();
    return new Comparison(differences, normalization, alpha, minChange, rows, startup, false, betweenRuns,
        MachineAround.of(List.of(before), List.of(after)).orElse(null));
  }

  /**
   * The rows with their q-values, Benjamini–Hochberg over every tested cell, each marked {@code underTest} when its
   * entry's sources differ between the sides. The cells under test are not a family of their own: tried on the
   * committed A/A pairs with one entry's sources marked changed, that called a change that was not there in 18 of
   * 170 entries against 7 of 170 (docs/REPORTS.md, CommittedPairsTest).
   */
  private static List<Row> rows(List<Draft> drafts, java.util.function.Predicate<Draft> underTest, double alpha,
      double minChange, boolean acrossEnvironments, boolean acrossTopologies) {
    double[] p = drafts.stream().filter(d -> d.p != null).mapToDouble(d -> d.p).toArray();
    double[] q = FalseDiscovery.benjaminiHochbergQValues(p);
    List<Row> rows = new ArrayList<>();
    int next = 0;
    for (Draft d : drafts) {
      Double qValue = d.p == null ? null : q[next++];
      rows.add(d.finish(qValue, d.p != null && underTest.test(d), alpha, minChange, acrossEnvironments,
          acrossTopologies));
    }
    return rows;
  }

  /**
   * The entries whose sources (the folder hashes in the runs' invocation blocks) differ between a run
   * before and a run after: their code (the folder leaving out its Markdown docs) where both runs record
   * it, all their files otherwise; empty when a run has no invocation block or does not record the entry.
   */
  static java.util.SortedSet<String> changedSources(List<ResultsDocument> before, List<ResultsDocument> after) {
    java.util.SortedSet<String> changed = new java.util.TreeSet<>();
    for (ResultsDocument b : before) {
      for (ResultsDocument a : after) {
        if (b.invocation() == null || a.invocation() == null) {
          continue;
        }
        Invocation then = b.invocation();
        Invocation now = a.invocation();
        then.sources().forEach((id, hash) -> {
          boolean byCode = then.code().containsKey(id) && now.code().containsKey(id);
          String was = byCode ? then.code().get(id) : hash;
          String is = byCode ? now.code().get(id) : now.sources().get(id);
          if (is != null && !is.equals(was)) {
            changed.add(id);
          }
        });
      }
    }
    return changed;
  }

  /**
   * Whether a cell's figure depends on a changed source: its entry's, for a ladder cell its baseline's too,
   * and for a figure divided by the calibration server the calibration server's.
   */
  private static BiPredicate<String, CellKind> affectedBy(Set<String> changed,
      List<ResultsDocument> documents, Normalization normalization) {
    if (changed.isEmpty()) {
      return (entry, kind) -> false;
    }
    Map<String, String> standsOn = new java.util.HashMap<>();
    Set<String> calibration = new java.util.HashSet<>();
    for (ResultsDocument d : documents) {
      d.entries().forEach(e -> {
        if (!e.standsOn().isEmpty()) {
          standsOn.put(e.id(), e.standsOn());
        }
        if (e.calibration()) {
          calibration.add(e.id());
        }
      });
    }
    boolean everyRatio = normalization == Normalization.CALIBRATION && calibration.stream().anyMatch(changed::contains);
    return (entry, kind) -> changed.contains(entry)
        || (kind == CellKind.LADDER ? standsOn.containsKey(entry) && changed.contains(standsOn.get(entry)) : everyRatio);
  }

  /**
   * The tested cells the spread between runs is estimated from: those no changed source touches, since the
   * change under test is not the noise; all of them when fewer than {@link RunToRun#MIN_CELLS} would be left.
   */
  private static List<Integer> estimatedFrom(List<Integer> tested, java.util.function.IntPredicate affected) {
    List<Integer> unchanged = tested.stream().filter(i -> !affected.test(i)).toList();
    return unchanged.size() >= RunToRun.MIN_CELLS ? unchanged : tested;
  }

  /**
   * The drafts with the run-to-run spread of their kind of figure in their intervals and tests: one
   * spread for the ladder overheads (a ratio inside each run), one for every other cell. Appends
   * what was estimated to {@code spreads}.
   */
  private static List<Draft> allowingForRunToRun(List<Draft> drafts, List<Spread> spreads,
      BiPredicate<String, CellKind> affected) {
    List<Draft> adjusted = new ArrayList<>(drafts);
    for (boolean ladder : new boolean[] {false, true}) {
      List<Integer> tested = new ArrayList<>();
      for (int i = 0; i < drafts.size(); i++) {
        if (drafts.get(i).testable() && (drafts.get(i).kind() == CellKind.LADDER) == ladder) {
          tested.add(i);
        }
      }
      if (tested.isEmpty()) {
        continue;
      }
      List<Integer> unchanged = estimatedFrom(tested, i -> affected.test(drafts.get(i).entry(), drafts.get(i).kind()));
      List<Double> logChanges = unchanged.stream().map(i -> Math.log(drafts.get(i).change().ratio())).toList();
      List<Double> errors = unchanged.stream().map(i -> RunToRun.standardError(drafts.get(i).change().ratioInterval())).toList();
      Optional<RunToRun.Reading> reading = RunToRun.spread(logChanges, errors,
          unchanged.stream().map(i -> drafts.get(i).entry()).toList());
      Optional<Double> spread = reading.map(RunToRun.Reading::spread);
      spreads.add(new Spread(ladder ? "ladder overheads" : "throughput and rate cells", tested.size(), spread.orElse(null),
          Source.CHANGES, tested.size() - unchanged.size(), reading.map(RunToRun.Reading::basis).orElse(null)));
      if (spread.isPresent() && spread.get() > 0) {
        tested.forEach(i -> adjusted.set(i, drafts.get(i).allowingFor(spread.get())));
      }
    }
    return adjusted;
  }

  /**
   * One start, memory or size figure of an entry in both runs (absolute: a start time or a memory
   * figure is not divided by the calibration server). No test: a handful of starts a side.
   *
   * @param before null when the entry has no such figure before
   */
  public record StartupRow(String entry, String metric, String unit, Double before, Double after) {
    public Double deltaPercent() {
      return before == null || after == null || before == 0 ? null : (after / before - 1) * 100;
    }
  }

  static List<StartupRow> startupRows(ResultsDocument before, ResultsDocument after) {
    Map<String, StartupFigures> b = startupIndex(before);
    Map<String, StartupFigures> a = startupIndex(after);
    List<String> ids = new ArrayList<>(b.keySet());
    a.keySet().stream().filter(k -> !b.containsKey(k)).forEach(ids::add);
    List<StartupRow> rows = new ArrayList<>();
    for (String id : ids) {
      StartupFigures x = b.get(id);
      StartupFigures y = a.get(id);
      rows.add(new StartupRow(id, "cold start", "ms", coldAll(x), coldAll(y)));
      rows.add(new StartupRow(id, "warm start p50", "ms", warmAll(x), warmAll(y)));
      rows.add(new StartupRow(id, "idle memory", "MiB", mib(x == null || x.memory() == null ? -1 : x.memory().idleBytes()),
          mib(y == null || y.memory() == null ? -1 : y.memory().idleBytes())));
      rows.add(new StartupRow(id, "peak memory", "MiB", mib(x == null || x.memory() == null ? -1 : x.memory().peakBytes()),
          mib(y == null || y.memory() == null ? -1 : y.memory().peakBytes())));
      rows.add(new StartupRow(id, "image / build size", "MiB", mib(x == null || x.size() == null ? -1 : x.size().shownBytes()),
          mib(y == null || y.size() == null ? -1 : y.size().shownBytes())));
    }
    rows.removeIf(r -> r.before() == null && r.after() == null);
    return rows;
  }

  private static Map<String, StartupFigures> startupIndex(ResultsDocument document) {
    Map<String, StartupFigures> out = new java.util.LinkedHashMap<>();
    document.entries().stream().filter(e -> e.startup() != null).forEach(e -> out.put(e.id(), e.startup()));
    return out;
  }

  private static Double warmAll(StartupFigures f) {
    var t = f == null ? null : f.warm().get(StartupFigures.ALL);
    return t == null || t.n() == 0 ? null : t.medianMillis();
  }

  private static Double coldAll(StartupFigures f) {
    var t = f == null ? null : f.cold().get(StartupFigures.ALL);
    return t == null || t.n() == 0 ? null : t.medianMillis();
  }

  private static Double mib(long bytes) {
    return bytes < 0 ? null : bytes / 1048576.0;
  }

  private static String name(String methodVersion) {
    return methodVersion == null || methodVersion.isEmpty() ? "the sequential method of schema 1" : methodVersion;
  }

  /** A row before the q-values are known. */
  private record Draft(String entry, String cell, CellKind kind, String metric, Double before, Double after,
      ShiftEstimate.Change change, Double p, boolean tooFew, String naWhy, boolean doubtful, boolean calibration,
      String note) {
    Draft(String entry, String cell, CellKind kind, String metric, Double before, Double after, ShiftEstimate.Change change,
        Double p, boolean tooFew, String naWhy, boolean doubtful, boolean calibration) {
      this(entry, cell, kind, metric, before, after, change, p, tooFew, naWhy, doubtful, calibration, "");
    }

    /** The same draft with a note for its verdict's why (see {@link #rateNote}). */
    Draft noting(String text) {
      return new Draft(entry, cell, kind, metric, before, after, change, p, tooFew, naWhy, doubtful, calibration, text);
    }

    boolean testable() {
      return naWhy == null && !tooFew && p != null && change != null && change.ratioInterval() != null;
    }

    /** This cell with a run-to-run shift of standard deviation {@code spread} (log scale) in its interval and test. */
    Draft allowingFor(double spread) {
      double ratio = change.ratio();
      double pBetween = RunToRun.pValue(Math.log(ratio), RunToRun.standardError(change.ratioInterval()), spread);
      return new Draft(entry, cell, kind, metric, before, after,
          new ShiftEstimate.Change(ratio, RunToRun.widen(ratio, change.ratioInterval(), spread)), Math.max(p, pBetween),
          tooFew, naWhy, doubtful, calibration, note);
    }

    Row finish(Double q, boolean underTest, double alpha, double minChange, boolean acrossEnvironments,
        boolean acrossTopologies) {
      Double ratio = change == null ? null : change.ratio();
      Interval interval = change == null ? null : change.ratioInterval();
      String caveat = (acrossEnvironments ? " (environments differ: see the top)" : "") + note;
      if (naWhy != null) {
        return new Row(entry, cell, kind, metric, before, after, ratio, interval, null, null, Verdict.NA, naWhy, doubtful,
            calibration, underTest);
      }
      if (tooFew) {
        return new Row(entry, cell, kind, metric, before, after, ratio, interval, p, q, Verdict.TOO_FEW_RUNS,
            "too few runs on a side: the test cannot reach p < " + alpha + " whatever the figures" + caveat, doubtful,
            calibration, underTest);
      }
      boolean big = ratio != null && Math.abs(ratio - 1) >= minChange;
      if (acrossTopologies) {
        // One host against two: the network path and the client's machine changed, not only the code.
        return new Row(entry, cell, kind, metric, before, after, ratio, interval, p, q, Verdict.NOT_SIGNIFICANT,
            "not judged across two topologies without --normalize calibration", doubtful, calibration, underTest);
      }
      boolean significant = q != null && q < alpha && big;
      String why = significant
          ? String.format(Locale.ROOT, "q = %.3g < %.2g and the change ≥ %.0f%%", q, alpha, minChange * 100)
          : q != null && q < alpha
              ? String.format(Locale.ROOT, "q = %.3g < %.2g but the change is below the %.0f%% minimum", q, alpha, minChange * 100)
              : String.format(Locale.ROOT, "q = %.3g: not significant", q);
      return new Row(entry, cell, kind, metric, before, after, ratio, interval, p, q,
          significant ? Verdict.SIGNIFICANT : Verdict.NOT_SIGNIFICANT, why + caveat, doubtful, calibration, underTest);
    }
  }

  /**
   * @param twoRuns the sides are two runs, each divided by its own calibration floor: the floors' standard
   *                errors enter the cell's interval and test (two entries of one run share one floor, which cancels)
   */
  private static Draft draft(String key, CellResult before, CellResult after, ResultsDocument beforeDoc,
      ResultsDocument afterDoc, RoundEffects beforeEffects, RoundEffects afterEffects, Normalization normalization,
      boolean twoRuns) {
    String[] parts = key.split("\u0000");
    String entry = parts[0];
    String cellName = parts[1];
    CellKind kind = CellKind.parse(parts[2]);
    boolean calibration = parts[3].equals("c");
    boolean measuredBefore = before != null && before.measured();
    boolean measuredAfter = after != null && after.measured();
    if (!measuredBefore || !measuredAfter) {
      String why = !measuredBefore && !measuredAfter ? "measured on neither side"
          : !measuredBefore ? "not measured before" : "not measured after";
      return new Draft(entry, cellName, kind, "", measuredBefore ? before.stats().medianRequestsPerSecond() : null,
          measuredAfter ? after.stats().medianRequestsPerSecond() : null, null, null, false, why, true, calibration);
    }
    if (kind == CellKind.LADDER) {
      return ladderDraft(entry, cellName, before, after, beforeDoc, afterDoc, beforeEffects.gauge(), afterEffects.gauge(),
          calibration);
    }
    boolean cpu = kind.constantRate() || before.flags().contains(Flag.CLIENT_BOUND) || after.flags().contains(Flag.CLIENT_BOUND);
    Function<RunRecord, Double> metric = cpu
        ? r -> Statistics.cpuMicrosPerRequest(r.serverCpuSeconds(), r.requests())
        : RunRecord::requestsPerSecond;
    String metricName = cpu ? "CPU-µs/req" : "req/s";
    if (normalization == Normalization.CALIBRATION) {
      if (calibration) {
        return new Draft(entry, cellName, kind, metricName, null, null, null, null, false,
            "the calibration server itself: normalised, it is 1 on both sides", false, true);
      }
      metricName += " ÷ calibration";
    }
    List<Double> b = values(before, beforeDoc, beforeEffects, metric, cpu, normalization);
    List<Double> a = values(after, afterDoc, afterEffects, metric, cpu, normalization);
    boolean doubtful = !Quality.trustworthy(before) || !Quality.trustworthy(after);
    if (b.isEmpty() || a.isEmpty()) {
      return new Draft(entry, cellName, kind, metricName, null, null, null, null, false,
          normalization == Normalization.CALIBRATION
                  && !values(before, beforeDoc, beforeEffects, metric, cpu, Normalization.NONE).isEmpty()
                  && !values(after, afterDoc, afterEffects, metric, cpu, Normalization.NONE).isEmpty()
              ? "no run could be normalised (the calibration server has no measured run)"
              : "no counted run of a side has a " + metricName.replace(" ÷ calibration", "") + " above zero",
          doubtful, calibration);
    }
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(b, a, 0.95).orElse(null);
    if (change == null) {
      double ratio = Statistics.median(a) / Statistics.median(b);
      change = new ShiftEstimate.Change(ratio, null);
    }
    double p = MannWhitney.test(b, a).pValue();
    boolean tooFew = MannWhitney.smallestPossiblePValue(b.size(), a.size()) >= DEFAULT_ALPHA;
    Draft draft = new Draft(entry, cellName, kind, metricName, Statistics.median(b), Statistics.median(a), change,
        tooFew ? null : p, tooFew, null, doubtful, calibration).noting(rateNote(kind, List.of(before), List.of(after)));
    if (twoRuns && normalization == Normalization.CALIBRATION && draft.testable()) {
      double floors = Math.hypot(
          calibrationFloor(beforeDoc, beforeEffects, before.endpoint(), metric, cpu).orElseThrow().standardError(),
          calibrationFloor(afterDoc, afterEffects, after.endpoint(), metric, cpu).orElseThrow().standardError());
      draft = draft.allowingFor(floors);
    }
    return draft;
  }

  /** Rates a constant-rate cell ran at on the two sides that differ by at least this share are pointed out. */
  static final double RATE_NOTE_SHARE = 0.05;

  /**
   * For a rate or ladder cell whose sides ran at rates that differ by {@link #RATE_NOTE_SHARE} or more, a note
   * for its verdict: a request's CPU cost depends on the rate it is served at, so the figures are not the same
   * measure. A share rate (--rate 50%) and the ladder's rate (a share of its slowest rung's maximum, rounded
   * down to a round rate since 2026-12-05 14:00 UTC) are taken from each run's own warm-up, and follow the
   * machine and every rung. Empty otherwise.
   */
  static String rateNote(CellKind kind, List<CellResult> before, List<CellResult> after) {
    if (!kind.constantRate()) {
      return "";
    }
    java.util.DoubleSummaryStatistics b = targetRates(before);
    java.util.DoubleSummaryStatistics a = targetRates(after);
    if (b.getCount() == 0 || a.getCount() == 0) {
      return "";
    }
    double low = Math.min(b.getMin(), a.getMin());
    double high = Math.max(b.getMax(), a.getMax());
    if (high < low * (1 + RATE_NOTE_SHARE)) {
      return "";
    }
    return String.format(Locale.ROOT, "; %s ran at %s req/s before and %s after: a request's CPU cost depends on its "
            + "rate", kind == CellKind.LADDER ? "the ladder" : "the cell", rates(b), rates(a));
  }

  private static java.util.DoubleSummaryStatistics targetRates(List<CellResult> cells) {
    return cells.stream().filter(c -> c != null && c.measured() && c.stats() != null && c.stats().rate() != null)
        .mapToDouble(c -> c.stats().rate().targetRate()).filter(r -> r > 0 && Double.isFinite(r)).summaryStatistics();
  }

  private static String rates(java.util.DoubleSummaryStatistics side) {
    return side.getMax() - side.getMin() < 0.5 ? String.format(Locale.ROOT, "%,.0f", side.getMin())
        : String.format(Locale.ROOT, "%,.0f–%,.0f", side.getMin(), side.getMax());
  }

  /**
   * A ladder cell is compared by its own figure, the overhead over its baseline: CPU-µs/request ÷ the
   * baseline's at the same rate in the same round. Its absolute CPU-µs/request is not comparable
   * between runs: the shared rate is a share of the slowest rung's maximum measured in each run (rounded
   * down, so mostly but not always the same), and the cost of a request depends on the rate. Within a run the ratio needs no normalising; the
   * baseline's own ladder cell is the denominator, not a figure of its own.
   */
  private static Draft ladderDraft(String entry, String cellName, CellResult before, CellResult after,
      ResultsDocument beforeDoc, ResultsDocument afterDoc, ClientGauge beforeGauge, ClientGauge afterGauge,
      boolean calibration) {
    String metric = "CPU-µs/req ÷ baseline";
    Optional<EntryResult> framework = beforeDoc.entries().stream().filter(e -> e.id().equals(entry)).findFirst();
    if (framework.isEmpty() || framework.get().standsOn().isEmpty()) {
      return new Draft(entry, cellName, CellKind.LADDER, metric, null, null, null, null, false,
          "the ladder's baseline: the floor its frameworks are divided by (its own change shows in its throughput cells)",
          false, calibration);
    }
    String baseline = framework.get().standsOn();
    List<Double> b = overheads(before, beforeDoc, baseline, beforeGauge);
    List<Double> a = overheads(after, afterDoc, baseline, afterGauge);
    boolean doubtful = !Quality.trustworthy(before) || !Quality.trustworthy(after);
    if (b.isEmpty() || a.isEmpty()) {
      return new Draft(entry, cellName, CellKind.LADDER, metric, null, null, null, null, false,
          "no round has both this rung and its baseline " + baseline + " on a side", doubtful, calibration);
    }
    ShiftEstimate.Change change = ShiftEstimate.ratioOfMedians(b, a, 0.95)
        .orElse(new ShiftEstimate.Change(Statistics.median(a) / Statistics.median(b), null));
    boolean tooFew = MannWhitney.smallestPossiblePValue(b.size(), a.size()) >= DEFAULT_ALPHA;
    return new Draft(entry, cellName, CellKind.LADDER, metric, Statistics.median(b), Statistics.median(a), change,
        tooFew ? null : MannWhitney.test(b, a).pValue(), tooFew, null, doubtful, calibration)
        .noting(rateNote(CellKind.LADDER, List.of(before), List.of(after)));
  }

  /**
   * Per round: the rung's CPU-µs/request ÷ its baseline's ladder cell of the same endpoint in that round, each
   * divided by its own client's gauge when the run has one.
   */
  private static List<Double> overheads(CellResult rung, ResultsDocument document, String baseline, ClientGauge gauge) {
    Optional<CellResult> floor = document.entries().stream().filter(e -> e.id().equals(baseline))
        .flatMap(e -> e.cells().stream()).filter(c -> c.kind() == CellKind.LADDER && c.endpoint().equals(rung.endpoint()))
        .findFirst();
    List<Double> values = new ArrayList<>();
    if (floor.isEmpty()) {
      return values;
    }
    for (RunRecord run : rung.countedRuns()) {
      double value = gauge.cpuPerRequest(rung, run);
      Optional<Double> base = floor.get().countedRuns().stream().filter(r -> r.round() == run.round())
          .map(r -> gauge.cpuPerRequest(floor.get(), r))
          .filter(v -> v > 0 && Double.isFinite(v)).findFirst();
      if (value > 0 && Double.isFinite(value) && base.isPresent()) {
        values.add(value / base.get());
      }
    }
    return values;
  }

  /**
   * The counted runs' values, each divided by its round's effect — the rounds are blocks, and what
   * slowed a whole round is taken out, as in the run's own medians and intervals — and, when
   * normalising, by the calibration server's median of the same endpoint over the run, taken alike.
   * (Dividing each run by the calibration's one run of its round instead adds that run's own
   * scatter: on the runs of 2026-12-02 it left a cell's runs spread by 17–19%, against 10–12% with
   * the round effects.) Empty when normalising and the calibration has no measured run.
   */
  private static List<Double> values(CellResult cell, ResultsDocument document, RoundEffects effects,
      Function<RunRecord, Double> metric, boolean cpu, Normalization normalization) {
    double floor = 1;
    if (normalization == Normalization.CALIBRATION) {
      Optional<Double> calibration = calibrationOf(document, effects, cell.endpoint(), metric, cpu);
      if (calibration.isEmpty()) {
        return List.of();
      }
      floor = calibration.get();
    }
    List<Double> values = new ArrayList<>();
    for (RunRecord run : cell.countedRuns()) {
      double value = cpu ? effects.cpuPerRequest(cell, run) : metric.apply(run) / effects.rps(run.round());
      if (value > 0 && Double.isFinite(value)) {
        values.add(value / floor);
      }
    }
    return values;
  }

  /**
   * The calibration server's median over the run, its runs divided by their rounds' effects: of
   * {@code endpoint}, or the geometric mean of its endpoints' medians for one it lacks (/validate).
   */
  static Optional<Double> calibrationOf(ResultsDocument document, RoundEffects effects, String endpoint,
      Function<RunRecord, Double> metric, boolean cpu) {
    return calibrationFloor(document, effects, endpoint, metric, cpu).map(CalibrationFloor::value);
  }

  /**
   * What a normalised cell is divided by, and the standard error of its log: a median over a run is an
   * estimate too (on a noisy hour nginx's /user median was 12% below its /json one, the same work), and
   * every cell of that endpoint of that run carries its error.
   *
   * @param standardError from the median's distribution-free 95% interval (for a geometric mean of several
   *                      medians, theirs combined); 0 for a median too short for an interval
   */
  record CalibrationFloor(double value, double standardError) {}

  /** {@link #calibrationOf} with the standard error of the floor's log. */
  static Optional<CalibrationFloor> calibrationFloor(ResultsDocument document, RoundEffects effects, String endpoint,
      Function<RunRecord, Double> metric, boolean cpu) {
    Optional<EntryResult> calibration = document.entries().stream().filter(EntryResult::calibration).findFirst();
    if (calibration.isEmpty()) {
      return Optional.empty();
    }
    List<CalibrationFloor> medians = new ArrayList<>();
    for (CellResult cell : calibration.get().cells()) {
      if (cell.kind() != CellKind.THROUGHPUT) {
        continue;
      }
      List<Double> adjusted = values(cell, document, effects, metric, cpu, Normalization.NONE);
      if (adjusted.isEmpty()) {
        continue;
      }
      Optional<Interval> interval = MedianInterval.of(adjusted, 0.95);
      double error = interval.isEmpty() || !(interval.get().low() > 0) ? 0 : RunToRun.standardError(interval.get());
      CalibrationFloor floor = new CalibrationFloor(Statistics.median(adjusted), error);
      if (cell.endpoint().equals(endpoint)) {
        return Optional.of(floor);
      }
      medians.add(floor);
    }
    if (medians.isEmpty()) {
      return Optional.empty();
    }
    double meanLog = medians.stream().mapToDouble(f -> Math.log(f.value())).average().orElseThrow();
    double error = Math.sqrt(medians.stream().mapToDouble(f -> f.standardError() * f.standardError()).sum())
        / medians.size();
    return Optional.of(new CalibrationFloor(Math.exp(meanLog), error));
  }

  /**
   * What a comparison across CPU models must say: measured with the same code on an Intel and an AMD host of
   * this kind (results/method-check/2026-12-05-2117 and 2026-12-07-0606), not a guess.
   */
  public static final String CPU_MODELS_CAVEAT = "A ratio to the calibration server does not carry from one CPU model to "
      + "another: nginx works mostly in the kernel and at the load client's wall, an interpreter in user space, and the "
      + "two gain differently from one CPU to the other (between an Intel and an AMD host of this kind, with the same "
      + "code, the entries' ratios to nginx moved by −2% to +60%, docs/REPORTS.md). The allowance for the spread between "
      + "the runs (below, when there are cells enough to estimate it) takes that in, so a change smaller than it cannot "
      + "be told from the machines here: compare runs of one CPU model.";

  private static final String CPU_MODEL = "CPU model";

  /** Whether the two sides were measured on different CPU models, which no calibration divides out. */
  public boolean acrossCpuModels() {
    return environmentDifferences.stream().anyMatch(d -> d.startsWith(CPU_MODEL + ": "));
  }

  /** Whether the top must carry {@link #CPU_MODELS_CAVEAT}: normalised figures from two CPU models. */
  public boolean warnsAcrossCpuModels() {
    return normalization == Normalization.CALIBRATION && acrossCpuModels();
  }

  /** Every difference between the two environments a reviewer must know before reading a verdict. */
  static List<String> differences(ResultsDocument before, ResultsDocument after) {
    Environment b = before.environment();
    Environment a = after.environment();
    List<String> out = new ArrayList<>();
    if (b == null || a == null) {
      out.add("an environment block is missing");
      return out;
    }
    differ(out, CPU_MODEL, b.cpuModel(), a.cpuModel());
    differ(out, "cores", b.cores(), a.cores());
    differ(out, "kernel", b.kernel(), a.kernel());
    differ(out, "cgroup", b.cgroupVersion(), a.cgroupVersion());
    differ(out, "runtime", b.runtime(), a.runtime());
    differ(out, "limits enforced by", b.limitsMode(), a.limitsMode());
    differ(out, "limits", b.limits() == null ? "unknown" : b.limits().describe(),
        a.limits() == null ? "unknown" : a.limits().describe());
    differ(out, "load generator", b.loadGenerator(), a.loadGenerator());
    differ(out, "load settings", b.load() == null ? "unknown" : b.load().describe(),
        a.load() == null ? "unknown" : a.load().describe());
    differ(out, "method", methodShape(before), methodShape(after));
    differ(out, "host", b.hostname(), a.hostname());
    differ(out, "topology", b.topology() == null ? "unknown" : b.topology().signature(),
        a.topology() == null ? "unknown" : a.topology().signature());
    differ(out, "container security and cgroup settings", b.engine() == null ? "none (not containers)" : b.engine().describe(),
        a.engine() == null ? "none (not containers)" : a.engine().describe());
    differ(out, "commit", b.gitCommit() + (b.gitDirty() ? " (dirty)" : ""), a.gitCommit() + (a.gitDirty() ? " (dirty)" : ""));
    return out;
  }

  /** one-host or two-hosts; what a change of code cannot explain when it differs. */
  private static String layout(ResultsDocument d) {
    return d.environment() == null || d.environment().topology() == null ? "one-host" : d.environment().topology().layout();
  }

  private static String methodShape(ResultsDocument d) {
    ResultsDocument.Method m = d.method();
    return m == null ? "none" : String.format(Locale.ROOT, "%s, %d rounds%s, re-warm %.1f s, pipeline %d, keep-alive %s%s",
        m.kind().wireName(), m.rounds(), m.extraRounds() == 0 ? "" : " and up to " + m.extraRounds() + " extra",
        m.rewarmSeconds(), m.pipeline(), m.keepAlive(),
        m.wakeupThreshold() == null ? "" : String.format(Locale.ROOT, ", slow wake-ups below %.0f%% repeated",
            m.wakeupThreshold() * 100)
            + (m.spellWaitSeconds() == null ? "" : String.format(Locale.ROOT, ", up to %.0f s waited for a slow spell",
                m.spellWaitSeconds()))
            + (m.ladderDurationSeconds() == null ? "" : String.format(Locale.ROOT, ", ladder runs %.0f s",
                m.ladderDurationSeconds()))
            + (m.ladderRate() == null ? "" : ", ladder rate " + m.ladderRate().wireName()))
        + (m.forks() == null || m.forks() == 1 ? "" : ", " + m.forks() + " processes per server")
        + (m.baselineEndpoints() == null ? "" : ", laddered baselines on " + String.join(",", m.baselineEndpoints()))
        + (m.ladderRatesFrom() == null ? "" : ", ladder rates held from " + m.ladderRatesFrom())
        + (m.cpuGauge() == null || m.cpuGauge() == CpuGauge.NONE ? ""
            : ", constant-rate CPU read against the " + m.cpuGauge().wireName() + "'s")
        + (m.medianInterval() == null ? "" : ", cells' intervals from " + m.medianInterval().wireName());
  }

  private static void differ(List<String> out, String what, Object before, Object after) {
    if (!Objects.equals(before, after)) {
      out.add(what + ": " + before + " → " + after);
    }
  }

  private static Map<String, CellResult> index(ResultsDocument doc) {
    Map<String, CellResult> index = new LinkedHashMap<>();
    for (EntryResult entry : doc.entries()) {
      for (CellResult cell : entry.cells()) {
        index.put(String.join("\u0000", entry.id(), cell.name(), cell.kind().wireName(), entry.calibration() ? "c" : "e"),
            cell);
      }
    }
    return index;
  }

  public long significant() {
    return rows.stream().filter(r -> r.verdict() == Verdict.SIGNIFICANT).count();
  }

  /** "Benjamini–Hochberg q-values over the N tested cells (false discovery rate 5%)". */
  public String falseDiscoveryClause() {
    return String.format(Locale.ROOT, "Benjamini–Hochberg q-values over the %d tested cells (false discovery rate %.0f%%)",
        rows.stream().filter(r -> r.pValue() != null).count(), alpha * 100);
  }

  /**
   * When some tested cells are the change under test (their entry's sources differ between the sides) and some are
   * not, how many of those that should not have moved were called significant: each is a sign that the sides differ
   * by more than the spread between runs allows for. Empty otherwise.
   */
  public String controlSentence() {
    long tested = rows.stream().filter(r -> r.pValue() != null).count();
    long underTest = rows.stream().filter(r -> r.pValue() != null && r.underTest()).count();
    if (underTest == 0 || underTest == tested) {
      return "";
    }
    long others = tested - underTest;
    long moved = rows.stream().filter(r -> !r.underTest() && r.verdict() == Verdict.SIGNIFICANT).count();
    return moved == 0
        ? String.format(Locale.ROOT, "None of the %d tested cells whose sources did not change was called significant.",
            others)
        : String.format(Locale.ROOT, "%d of the %d tested cells whose sources did not change %s called significant: the "
            + "sides differ by more than the spread between runs allows for, so the change under test may carry some of "
            + "that too.", moved, others, moved == 1 ? "was" : "were");
  }

  /** What "Normalisation:" says: the kind, and for the calibration whose error its intervals carry. */
  public String normalisationClause() {
    if (normalization != Normalization.CALIBRATION) {
      return normalization.wireName() + " (absolute figures)";
    }
    return normalization.wireName() + (withinOneRun
        ? " (both entries divided by the same calibration of their run, so its error cancels)"
        : " (each run's cells divided by its calibration server's median over that run, as docs/REPORTS.md says; that "
            + "median's own error is in every interval and test)");
  }

  public String toMarkdown() {
    StringBuilder md = new StringBuilder("# Before / after\n\n");
    if (environmentDifferences.isEmpty()) {
      md.append(withinOneRun
          ? "Two entries of one run, measured in the same rounds: each row is BEFORE → AFTER.\n\n"
          : "Both runs were made in the same environment (machine, kernel, runtime, limits, load, method).\n\n");
    } else {
      md.append(normalization == Normalization.CALIBRATION
          ? "**The environments differ** (below); figures are normalised by each run's calibration server, which divides "
              + "out a machine or a day that is faster or slower at everything alike:\n\n"
          : "**The environments differ, and the figures are absolute**: a verdict may reflect the environment, not the "
              + "change. Compare with `--normalize calibration` across machines or days.\n\n");
      environmentDifferences.forEach(d -> md.append("- ").append(MarkdownText.line(d)).append('\n'));
      md.append('\n');
      if (warnsAcrossCpuModels()) {
        md.append("**The CPU models differ.** ").append(CPU_MODELS_CAVEAT).append("\n\n");
      }
    }
    if (machine != null) {
      md.append(machine.describe()).append("\n\n");
    }
    if (betweenRuns != null && betweenRuns.repeated()) {
      md.append(String.format(Locale.ROOT, "%d runs before, %d after. Per cell: each run's median; the change is the ratio "
              + "of their geometric means, after ÷ before, with its 95%% interval from each run's own (the interval of its "
              + "median) and the spread between runs below; the p-value is a normal test on the same, never smaller than a "
              + "Mann–Whitney U test on all the runs of a side together; %s. Significant: q < %.2g and a change of at "
              + "least %.0f%%; otherwise ~. Normalisation: %s. The before and after columns are the geometric means of the "
              + "runs' medians; a † marks a cell not trustworthy in a run.%n%n",
          betweenRuns.runsBefore(), betweenRuns.runsAfter(), falseDiscoveryClause(), alpha, minChange * 100,
          normalisationClause()));
    } else {
      md.append(String.format(Locale.ROOT, "Per cell: the change after ÷ before (Hodges–Lehmann, with its 95%% interval), a "
              + "Mann–Whitney U test on the two sets of runs, and %s. Significant: q < %.2g and a change of at least "
              + "%.0f%%; otherwise ~. Normalisation: %s. A † marks a cell not trustworthy on a side.%n%n",
          falseDiscoveryClause(), alpha, minChange * 100, normalisationClause()));
    }
    if (betweenRuns != null) {
      md.append(betweenRunsSentence()).append("\n\n");
    }
    md.append(String.format(Locale.ROOT, "**%d of %d cells significant.**%s%n%n", significant(), rows.size(),
        controlSentence().isEmpty() ? "" : " " + controlSentence()));
    md.append("| entry | cell | metric | before | after | change [95% CI] | p | q | verdict | why |\n")
        .append("|---|---|---|---:|---:|---:|---:|---:|---|---|\n");
    for (Row r : rows) {
      md.append("| ").append(MarkdownText.cell(r.entry())).append(r.calibration() ? " (calibration)" : "").append(" | ")
          .append(MarkdownText.cell(r.cell())).append(r.kind() == CellKind.RATE ? " (rate)" : "").append(" | ")
          .append(MarkdownText.cell(r.metric())).append(" | ")
          .append(number(r.before())).append(" | ").append(number(r.after())).append(" | ")
          .append(change(r)).append(" | ")
          .append(r.pValue() == null ? "—" : String.format(Locale.ROOT, "%.3g", r.pValue())).append(" | ")
          .append(r.qValue() == null ? "—" : String.format(Locale.ROOT, "%.3g", r.qValue())).append(" | ")
          .append(r.verdict().label()).append(r.doubtful() && r.verdict() != Verdict.NA ? " †" : "").append(" | ")
          .append(MarkdownText.cell(r.why())).append(" |\n");
    }
    if (!startup.isEmpty()) {
      md.append("\n## ").append(StartupTable.TITLE).append("\n\n")
          .append(betweenRuns != null && betweenRuns.repeated()
              ? "Absolute figures of the first run of each side (not normalised; no test: a few starts a side), lower is better.\n\n"
              : "Absolute figures of each run (not normalised; no test: a few starts a side), lower is better.\n\n")
          .append("| entry | figure | before | after | change |\n|---|---|---:|---:|---:|\n");
      for (StartupRow r : startup) {
        md.append("| ").append(MarkdownText.cell(r.entry())).append(" | ").append(r.metric()).append(" (").append(r.unit()).append(") | ")
            .append(number(r.before())).append(" | ").append(number(r.after())).append(" | ")
            .append(r.deltaPercent() == null ? "—" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent())).append(" |\n");
      }
    }
    return md.toString();
  }

  /**
   * What the spread between the two runs is and what it did to the verdicts; for two runs only (two
   * entries of one run were measured in the same rounds).
   */
  /** ", but for the N cells of X (their sources differ: …)" when the estimate left cells out; empty otherwise. */
  private String leftOutClause() {
    int leftOut = betweenRuns.spreads().stream().mapToInt(Spread::leftOut).sum();
    if (leftOut == 0) {
      return "";
    }
    List<String> entries = betweenRuns.changedSources();
    return String.format(Locale.ROOT, ", but for the %d cell%s of %s, whose sources differ between the runs: %s the change "
            + "under test, not the noise", leftOut, leftOut == 1 ? "" : "s", String.join(", ", entries),
        leftOut == 1 ? "it is" : "they are");
  }

  public String betweenRunsSentence() {
    if (betweenRuns == null) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (Spread s : betweenRuns.spreads()) {
      if (s.spread() == null) {
        unknown.add(String.format(Locale.ROOT, "the %d %s (fewer than %d%s: their verdicts assume no such shift)", s.cells(),
            s.figures(), RunToRun.MIN_CELLS, s.source() == Source.REPEATS ? " measured in two runs of a side" : ""));
      } else {
        parts.add(String.format(Locale.ROOT, "±%.1f%% over the %d %s%s", (Math.exp(s.spread()) - 1) * 100, s.cells(),
            s.figures(), s.basis() == RunToRun.Basis.ENTRIES ? " (the entries' reading)" : ""));
      }
    }
    boolean fromRepeats = betweenRuns.spreads().stream().anyMatch(s -> s.source() == Source.REPEATS);
    StringBuilder out = new StringBuilder("Between two runs every cell also moves by a shift of its own that the runs "
        + "inside one run cannot show (docs/REPORTS.md, \"Two runs are not one machine\"); its spread is estimated from "
        + (fromRepeats
            ? "how far each run's median of a cell lies from the mean of its side's runs (a shift of a whole run taken out) "
                + "and from the changes of all the cells (read cell by cell and entry by entry: an entry's endpoints "
                + "move together), each less what their own intervals explain, the larger kept"
            : "the changes of all the cells, read cell by cell and entry by entry (an entry's endpoints move together, "
                + "so also as each entry's mean change), less what their own intervals explain, the larger reading kept")
        + leftOutClause());
    out.append(parts.isEmpty() ? "" : ": " + String.join(", ", parts) + " (one standard deviation)");
    out.append(unknown.isEmpty() ? "" : "; not estimated for " + String.join(" and ", unknown));
    out.append(String.format(Locale.ROOT, ". Every interval, p and q below includes it%s; on the scatter inside each run "
        + "alone, %d cell%s would have been called significant. A change to one entry is measured best with both "
        + "versions in one run (`--entries`).", fromRepeats ? ", divided among the runs of each side" : "",
        betweenRuns.significantWithout(), betweenRuns.significantWithout() == 1 ? "" : "s"));
    return out.toString();
  }

  /** A figure as the tables print it: thousands separated from 100 on, three significant digits below. */
  public static String number(Double value) {
    if (value == null) {
      return "—";
    }
    return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.3g", value);
  }

  /** "+4.2% [+1.0%, +7.5%]", or "[no CI]" without an interval. */
  public static String change(Row r) {
    if (r.ratio() == null) {
      return "—";
    }
    String main = String.format(Locale.ROOT, "%+.1f%%", (r.ratio() - 1) * 100);
    return r.interval() == null ? main + " [no CI]" : main + String.format(Locale.ROOT, " [%+.1f%%, %+.1f%%]",
        (r.interval().low() - 1) * 100, (r.interval().high() - 1) * 100);
  }
}
