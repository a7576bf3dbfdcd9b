package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.LadderRate;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ClientGauge;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.ShiftEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Seed 002's ladder from a run's ladder cells: per baseline (a runtime's bare server) and endpoint,
 * the baseline's CPU-µs/request at the shared rate — the runtime's floor — then each framework
 * standing on it with its overhead over that floor, in CPU-µs/request and as a ratio, each with a
 * 95% interval (Hodges–Lehmann with Moses' interval over the two sets of runs). An overhead can be
 * negative: a framework that does less than the bare server's hand-written strictness.
 */
public final class Ladder {
  private Ladder() {}

  /**
   * @param overhead         framework − baseline CPU-µs/request; null on the baseline's own row
   * @param overheadInterval baseline median × (ratio interval − 1)
   * @param ratio            framework ÷ baseline CPU-µs/request
   */
  public record Row(String baseline, String endpoint, String id, boolean isBaseline, double rate, double cpu,
      Interval cpuInterval, Double overhead, Interval overheadInterval, Double ratio, Interval ratioInterval,
      boolean trustworthy) {}

  public static List<Row> of(ResultsDocument document) {
    ClientGauge gauge = ClientGauge.of(document);
    List<Row> rows = new ArrayList<>();
    for (EntryResult base : document.entries()) {
      if (!base.baseline()) {
        continue;
      }
      for (CellResult floor : base.cells()) {
        // A floor with no CPU per request (no run made a request) has nothing to subtract from.
        if (floor.kind() != CellKind.LADDER || !floor.measured() || !Double.isFinite(floor.stats().cpuMicrosPerRequest())) {
          continue;
        }
        List<Double> floorRuns = cpu(floor, gauge);
        rows.add(new Row(base.id(), floor.endpoint(), base.id(), true, floor.stats().rate().targetRate(),
            floor.stats().cpuMicrosPerRequest(), floor.stats().cpuInterval(), null, null, null, null,
            Quality.trustworthy(floor)));
        for (EntryResult framework : document.entries()) {
          if (!framework.standsOn().equals(base.id())) {
            continue;
          }
          Optional<CellResult> cell = framework.cells().stream()
              .filter(c -> c.kind() == CellKind.LADDER && c.endpoint().equals(floor.endpoint()) && c.measured()
                  && Double.isFinite(c.stats().cpuMicrosPerRequest()))
              .findFirst();
          if (cell.isEmpty()) {
            continue;
          }
          double cpu = cell.get().stats().cpuMicrosPerRequest();
          double base0 = floor.stats().cpuMicrosPerRequest();
          Optional<ShiftEstimate.Change> change = floorRuns.isEmpty() || cpu(cell.get(), gauge).isEmpty() ? Optional.empty()
              : ShiftEstimate.ratioOfMedians(floorRuns, cpu(cell.get(), gauge), 0.95);
          Double ratio = change.map(ShiftEstimate.Change::ratio).orElse(cpu / base0);
          Interval ratioInterval = change.map(ShiftEstimate.Change::ratioInterval).orElse(null);
          Interval overheadInterval = ratioInterval == null ? null
              : new Interval(base0 * (ratioInterval.low() - 1), base0 * (ratioInterval.high() - 1));
          rows.add(new Row(base.id(), floor.endpoint(), framework.id(), false, cell.get().stats().rate().targetRate(),
              cpu, cell.get().stats().cpuInterval(), cpu - base0, overheadInterval, ratio, ratioInterval,
              Quality.trustworthy(cell.get()) && Quality.trustworthy(floor)));
        }
      }
    }
    return rows;
  }

  /** How the common rate was chosen, as the reports say it. */
  public static String rateRule(LadderRate rule) {
    return rule == LadderRate.ROUND
        ? "a share of the slowest rung's maximum rounded down to a round rate (1, 1.5, 2, 3, 5 or 7 × a power of ten, "
            + "so that other runs' ladders mostly ran at the same rate and compare as one measure)"
        : "a share of the slowest rung's maximum";
  }

  /** The runs' CPU-µs/request, each divided by its client's gauge when the run has one. */
  private static List<Double> cpu(CellResult cell, ClientGauge gauge) {
    return cell.countedRuns().stream().map(r -> gauge.cpuPerRequest(cell, r))
        .filter(v -> v > 0 && Double.isFinite(v)).toList();
  }

  /**
   * @param rule how the run chose the common rate (null: the share itself, as in runs made before the rule
   *             was recorded)
   */
  public static String toMarkdown(List<Row> rows, LadderRate rule) {
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("## The ladder: runtime floor and framework overhead\n\n");
    md.append("Each baseline (the runtime's bare server, doing the same contract by hand) and every framework on it "
        + "ran the same ladder cells: the same fixed rate, " + rateRule(rule) + ", in the same rounds, "
        + "so their server CPU per request can be subtracted. The overhead is the framework's CPU-µs/request over its "
        + "baseline's, with a 95% interval (Hodges–Lehmann, Moses); it can be negative.\n\n");
    md.append("| floor (baseline) | endpoint | rung | rate req/s | CPU-µs/req [95% CI] | overhead CPU-µs/req [95% CI] "
        + "| ratio [95% CI] | trustworthy |\n|---|---|---|---:|---:|---:|---:|---|\n");
    for (Row r : rows) {
      md.append("| ").append(MarkdownText.cell(r.baseline())).append(" | ").append(r.endpoint()).append(" | ")
          .append(r.isBaseline() ? "**floor**" : MarkdownText.cell(r.id())).append(" | ")
          .append(String.format(Locale.ROOT, "%,.0f", r.rate())).append(" | ")
          .append(String.format(Locale.ROOT, "%.2f %s", r.cpu(), interval(r.cpuInterval(), "%.2f"))).append(" | ")
          .append(r.overhead() == null ? "—" : String.format(Locale.ROOT, "%+.2f %s", r.overhead(),
              interval(r.overheadInterval(), "%+.2f"))).append(" | ")
          .append(r.ratio() == null ? "—" : String.format(Locale.ROOT, "%.2f× %s", r.ratio(),
              interval(r.ratioInterval(), "%.2f"))).append(" | ")
          .append(r.trustworthy() ? "yes" : "no").append(" |\n");
    }
    return md.append('\n').toString();
  }

  public static String interval(Interval interval, String format) {
    return interval == null ? "[no CI]" : "[" + String.format(Locale.ROOT, format, interval.low()) + ", "
        + String.format(Locale.ROOT, format, interval.high()) + "]";
  }
}
