package dev.fairbench.orchestrator.report.html;

import dev.fairbench.orchestrator.report.Comparison;
import java.util.Locale;

/** The before/after comparison as one self-contained HTML file. */
public final class CompareHtml {
  private CompareHtml() {}

  public static String render(Comparison comparison, String beforeName, String afterName) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fairbench compare</title><style>")
        .append("body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1000px;padding:0 1rem;color:#1d2330}")
        .append("table{border-collapse:collapse;width:100%}th,td{border:1px solid #d8dce4;padding:.3rem .5rem;text-align:left}")
        .append("td.num{text-align:right;font-variant-numeric:tabular-nums}tr.REAL td.verdict{color:#fff;background:#15803d;font-weight:600}")
        .append("tr.NOISE td.verdict{color:#4a5264}tr.NA td.verdict{color:#6b7280;font-style:italic}.doubt{color:#b45309}")
        .append("</style></head><body><h1>Before / after</h1>")
        .append("<p>Before: <code>").append(Html.esc(beforeName)).append("</code><br>After: <code>").append(Html.esc(afterName)).append("</code></p>")
        .append("<p>REAL: the runs do not overlap and the delta exceeds twice the larger CV and the minimum change. NOISE: the difference could come from the runs' own spread. ")
        .append("<span class=\"doubt\">†</span> marks a cell with a doubt (client-bound, errors, noisy, few runs).</p>")
        .append("<table><thead><tr><th>entry</th><th>endpoint</th><th>before req/s</th><th>after req/s</th><th>delta</th><th>verdict</th><th>why</th></tr></thead><tbody>\n");
    for (Comparison.Row r : comparison.rows()) {
      h.append("<tr class=\"").append(r.verdict()).append("\"><td>").append(Html.esc(r.entry())).append("</td><td>").append(Html.esc(r.endpoint()))
          .append("</td><td class=\"num\">").append(r.before() == null ? "—" : String.format(Locale.ROOT, "%,.0f", r.before()))
          .append("</td><td class=\"num\">").append(r.after() == null ? "—" : String.format(Locale.ROOT, "%,.0f", r.after()))
          .append("</td><td class=\"num\">").append(r.deltaPercent() == null ? "—" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent()))
          .append("</td><td class=\"verdict\">").append(r.verdict())
          .append(r.doubtful() && r.verdict() != Comparison.Verdict.NA ? " <span class=\"doubt\">†</span>" : "")
          .append("</td><td>").append(Html.esc(r.why())).append("</td></tr>\n");
    }
    return h.append("</tbody></table></body></html>\n").toString();
  }
}
