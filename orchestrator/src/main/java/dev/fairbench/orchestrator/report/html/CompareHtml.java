package dev.fairbench.orchestrator.report.html;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.report.Comparison;
import java.util.Locale;

/** The before/after comparison as one self-contained HTML file. */
public final class CompareHtml {
  private CompareHtml() {}

  public static String render(Comparison comparison, String beforeName, String afterName) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fairbench compare</title><style>")
        .append("body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330}")
        .append("table{border-collapse:collapse;width:100%}th,td{border:1px solid #d8dce4;padding:.3rem .5rem;text-align:left}")
        .append("td.num{text-align:right;font-variant-numeric:tabular-nums}tr.SIGNIFICANT td.verdict{color:#fff;background:#15803d;font-weight:600}")
        .append("tr.NOT_SIGNIFICANT td.verdict{color:#4a5264}tr.NA td.verdict,tr.TOO_FEW_RUNS td.verdict{color:#6b7280;font-style:italic}")
        .append(".doubt{color:#b45309}.envdiff{background:#fffbeb;padding:.5rem 1rem;border-radius:6px}")
        .append("</style></head><body><h1>Before / after</h1>")
        .append("<p>Before: <code>").append(Html.esc(beforeName)).append("</code><br>After: <code>").append(Html.esc(afterName)).append("</code></p>");
    if (comparison.environmentDifferences().isEmpty()) {
      h.append(comparison.withinOneRun() ? "<p>Two entries of one run, measured in the same rounds.</p>"
          : "<p>Both runs were made in the same environment.</p>");
    } else {
      h.append("<div class=\"envdiff\"><p><strong>The environments differ</strong>")
          .append(comparison.normalization() == Comparison.Normalization.CALIBRATION
              ? " — figures are normalised by each run's calibration server."
              : " — and the figures are absolute: a verdict may reflect the environment. Use --normalize calibration.")
          .append("</p><ul>");
      comparison.environmentDifferences().forEach(d -> h.append("<li>").append(Html.esc(d)).append("</li>"));
      h.append("</ul>");
      if (comparison.warnsAcrossCpuModels()) {
        h.append("<p><strong>The CPU models differ.</strong> ").append(Html.esc(Comparison.CPU_MODELS_CAVEAT)).append("</p>");
      }
      h.append("</div>");
    }
    if (comparison.machine() != null) {
      h.append("<p>").append(Html.esc(comparison.machine().describe())).append("</p>");
    }
    h.append("<p>").append(Html.esc(String.format(Locale.ROOT,
            (comparison.betweenRuns() != null && comparison.betweenRuns().repeated()
                ? comparison.betweenRuns().runsBefore() + " runs before, " + comparison.betweenRuns().runsAfter()
                    + " after: per cell each run's median, the change of their geometric means, a normal test with each "
                    + "run's own interval and the spread between runs (never less strict than Mann–Whitney U on all the "
                    + "runs of a side)"
                : "Mann–Whitney U per cell") + ", %s; significant when q < %.2g "
                + "and a change of at least %.0f%%, otherwise ~. Normalisation: %s. %d of %d cells significant.%s",
            comparison.falseDiscoveryClause(), comparison.alpha(), comparison.minChange() * 100,
            comparison.normalisationClause(), comparison.significant(), comparison.rows().size(),
            comparison.controlSentence().isEmpty() ? "" : " " + comparison.controlSentence())))
        .append(" <span class=\"doubt\">†</span> marks a cell not trustworthy on a side.</p>")
        .append(comparison.betweenRuns() == null ? "" : "<p>" + Html.esc(comparison.betweenRunsSentence()) + "</p>")
        .append("<table><thead><tr><th>entry</th><th>cell</th><th>metric</th><th>before</th><th>after</th><th>change [95% CI]</th>")
        .append("<th>p</th><th>q</th><th>verdict</th><th>why</th></tr></thead><tbody>\n");
    for (Comparison.Row r : comparison.rows()) {
      h.append("<tr class=\"").append(r.verdict().name()).append("\"><td>").append(Html.esc(r.entry()))
          .append(r.calibration() ? " (calibration)" : "").append("</td><td>").append(Html.esc(r.cell()))
          .append(r.kind() == CellKind.RATE ? " (rate)" : "").append("</td><td>").append(Html.esc(r.metric()))
          .append("</td><td class=\"num\">").append(Html.esc(Comparison.number(r.before())))
          .append("</td><td class=\"num\">").append(Html.esc(Comparison.number(r.after())))
          .append("</td><td class=\"num\">").append(Html.esc(Comparison.change(r)))
          .append("</td><td class=\"num\">").append(r.pValue() == null ? "—" : String.format(Locale.ROOT, "%.3g", r.pValue()))
          .append("</td><td class=\"num\">").append(r.qValue() == null ? "—" : String.format(Locale.ROOT, "%.3g", r.qValue()))
          .append("</td><td class=\"verdict\">").append(Html.esc(r.verdict().label()))
          .append(r.doubtful() && r.verdict() != Comparison.Verdict.NA ? " <span class=\"doubt\">†</span>" : "")
          .append("</td><td>").append(Html.esc(r.why())).append("</td></tr>\n");
    }
    h.append("</tbody></table>\n");
    if (!comparison.startup().isEmpty()) {
      h.append("<h2>").append(Html.esc(dev.fairbench.orchestrator.report.StartupTable.TITLE)).append("</h2>")
          .append("<p>Absolute figures of each run (not normalised; no test: a few starts a side), lower is better.</p>")
          .append("<table class=\"startup\"><thead><tr><th>entry</th><th>figure</th><th>before</th><th>after</th><th>change</th>")
          .append("</tr></thead><tbody>\n");
      for (Comparison.StartupRow r : comparison.startup()) {
        h.append("<tr><td>").append(Html.esc(r.entry())).append("</td><td>").append(Html.esc(r.metric() + " (" + r.unit() + ")"))
            .append("</td><td class=\"num\">").append(Html.esc(Comparison.number(r.before())))
            .append("</td><td class=\"num\">").append(Html.esc(Comparison.number(r.after())))
            .append("</td><td class=\"num\">")
            .append(r.deltaPercent() == null ? "—" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent()))
            .append("</td></tr>\n");
      }
      h.append("</tbody></table>\n");
    }
    return h.append("</body></html>\n").toString();
  }
}
