package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Before/after per cell (entry × variant × endpoint): median req/s, delta, and whether the change
 * is beyond the runs' own spread.
 *
 * <p>A change is called REAL only when both hold: the two sets of runs do not overlap (the slowest
 * run of the faster side beats the fastest run of the slower side), and the delta is larger than
 * the noise floor: twice the larger coefficient of variation of the two sides, and at least the
 * minimum change (5% by default). The minimum exists because two sessions of the same code differ
 * more than the runs within one session do: measured here, 2–3% between identical sessions whose
 * runs each spread under 1.5% (docs/REPORTS.md). Anything else is NOISE. Cells measured on one
 * side only, or not measured, are N/A.
 */
public record Comparison(List<Row> rows) {
  /** The smallest change one pair of sessions can call real, unless told otherwise. */
  public static final double DEFAULT_MIN_CHANGE = 0.05;

  public enum Verdict { REAL, NOISE, NA }

  public record Row(
      String entry,
      String endpoint,
      Double before,
      Double after,
      Double deltaPercent,
      Verdict verdict,
      String why,
      boolean doubtful) {}

  public static Comparison of(ResultsDocument before, ResultsDocument after) {
    return of(before, after, DEFAULT_MIN_CHANGE);
  }

  /** @param minChange the smallest |delta| (a fraction, 0.05 = 5%) that may be called real */
  public static Comparison of(ResultsDocument before, ResultsDocument after, double minChange) {
    Map<String, Map<String, CellResult>> b = index(before);
    Map<String, Map<String, CellResult>> a = index(after);
    List<String> entries = new ArrayList<>(b.keySet());
    a.keySet().stream().filter(k -> !b.containsKey(k)).forEach(entries::add);
    List<Row> rows = new ArrayList<>();
    for (String entry : entries) {
      Map<String, CellResult> bc = b.getOrDefault(entry, Map.of());
      Map<String, CellResult> ac = a.getOrDefault(entry, Map.of());
      List<String> endpoints = new ArrayList<>(bc.keySet());
      ac.keySet().stream().filter(k -> !bc.containsKey(k)).forEach(endpoints::add);
      for (String endpoint : endpoints) {
        rows.add(row(entry, endpoint, Optional.ofNullable(bc.get(endpoint)), Optional.ofNullable(ac.get(endpoint)),
            before, after, minChange));
      }
    }
    return new Comparison(rows);
  }

  static Row row(String entry, String endpoint, Optional<CellResult> before, Optional<CellResult> after,
      ResultsDocument beforeDoc, ResultsDocument afterDoc, double minChange) {
    CellStats bs = before.filter(c -> CellResult.MEASURED.equals(c.status())).map(CellResult::stats).orElse(null);
    CellStats as = after.filter(c -> CellResult.MEASURED.equals(c.status())).map(CellResult::stats).orElse(null);
    if (bs == null || as == null) {
      String why = bs == null && as == null ? "measured on neither side" : bs == null ? "not measured before" : "not measured after";
      return new Row(entry, endpoint, bs == null ? null : bs.medianRequestsPerSecond(),
          as == null ? null : as.medianRequestsPerSecond(), null, Verdict.NA, why, true);
    }
    boolean doubtful = !Doubts.of(before.get(), beforeDoc.environment()).isEmpty()
        || !Doubts.of(after.get(), afterDoc.environment()).isEmpty();
    return judge(entry, endpoint, bs, as, doubtful, minChange);
  }

  /** The verdict from the two sides' statistics alone. */
  static Row judge(String entry, String endpoint, CellStats before, CellStats after, boolean doubtful, double minChange) {
    double delta = (after.medianRequestsPerSecond() - before.medianRequestsPerSecond()) / before.medianRequestsPerSecond();
    boolean overlap = after.minRequestsPerSecond() <= before.maxRequestsPerSecond()
        && before.minRequestsPerSecond() <= after.maxRequestsPerSecond();
    double floor = Math.max(minChange, 2 * Math.max(before.cv(), after.cv()));
    Verdict verdict;
    String why;
    if (overlap) {
      verdict = Verdict.NOISE;
      why = "the runs overlap";
    } else if (Math.abs(delta) <= floor) {
      verdict = Verdict.NOISE;
      why = String.format(Locale.ROOT, "|delta| is within the noise floor of %.1f%% (2 × CV, at least %.0f%%)",
          floor * 100, minChange * 100);
    } else {
      verdict = Verdict.REAL;
      why = String.format(Locale.ROOT, "no overlap, and |delta| exceeds the noise floor of %.1f%%", floor * 100);
    }
    return new Row(entry, endpoint, before.medianRequestsPerSecond(), after.medianRequestsPerSecond(),
        delta * 100, verdict, why, doubtful);
  }

  private static Map<String, Map<String, CellResult>> index(ResultsDocument doc) {
    Map<String, Map<String, CellResult>> index = new LinkedHashMap<>();
    for (EntryResult entry : doc.entries()) {
      Map<String, CellResult> cells = index.computeIfAbsent(entry.id(), k -> new LinkedHashMap<>());
      entry.cells().forEach(c -> cells.put(c.endpoint(), c));
    }
    return index;
  }

  public String toMarkdown() {
    StringBuilder md = new StringBuilder("# Before / after\n\n")
        .append("REAL: the runs do not overlap and the delta exceeds twice the larger CV and the minimum change. ")
        .append("NOISE: the difference could come from the runs' own spread. A † marks a cell with a doubt ")
        .append("(client-bound, errors, noisy, few runs; see the fairness review).\n\n")
        .append("| entry | endpoint | before req/s | after req/s | delta | verdict | why |\n")
        .append("|---|---|---:|---:|---:|---|---|\n");
    for (Row r : rows) {
      md.append("| ").append(r.entry()).append(" | ").append(r.endpoint()).append(" | ")
          .append(r.before() == null ? "—" : String.format(Locale.ROOT, "%,.0f", r.before())).append(" | ")
          .append(r.after() == null ? "—" : String.format(Locale.ROOT, "%,.0f", r.after())).append(" | ")
          .append(r.deltaPercent() == null ? "—" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent())).append(" | ")
          .append(r.verdict()).append(r.doubtful() && r.verdict() != Verdict.NA ? " †" : "").append(" | ")
          .append(r.why()).append(" |\n");
    }
    return md.toString();
  }
}
