package dev.fairbench.orchestrator.report.html;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.ExtraRoundsDone;
import dev.fairbench.orchestrator.report.MachineSpeed;
import dev.fairbench.orchestrator.report.Ladder;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.report.StartupTable;
import dev.fairbench.orchestrator.report.ProcessSplit;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One self-contained HTML file (inline CSS and SVG, no script, no network) with the charts, the
 * marks that say which cells can be trusted, the conformance verdicts, the fairness review and the
 * environment a run was made in.
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static String render(ResultsDocument results, FairnessReview review) {
    Environment env = results.environment();
    StringBuilder h = new StringBuilder(64 * 1024);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>fairbench report").append(env == null ? "" : " — " + Html.esc(env.timestamp())).append("</title>")
        .append("<style>").append(CSS).append("</style></head><body>\n");
    h.append("<h1>fairbench report</h1>\n");
    if (env != null) {
      h.append("<p class=\"lede\">Measured ").append(Html.esc(env.timestamp())).append(" on ")
          .append(Html.esc(env.cpuModel())).append(" (").append(env.cores()).append(" cores). ")
          .append(Html.esc(FairnessReviewText.limits(env))).append("</p>\n");
    }
    h.append("<p class=\"legend\">How to read: bars are the median over the shuffled rounds; whiskers are its ")
        .append(results.intervalKind() == MedianIntervalKind.INTERPOLATED
            ? "95% confidence interval from order statistics, interpolated between neighbouring ranks to cover 95% "
            : "distribution-free 95% confidence interval ")
        .append("(none with fewer than 6 runs). ")
        .append("A cell is <span class=\"badge trusted\">trustworthy</span> when that interval is within ±5% and it is not invalid, ")
        .append("saturated, workers-mismatched, non-conformant or answering otherwise under load; its marks say why not: ")
        .append("<span class=\"badge client-bound\">client-bound</span> (the load generator was the limit: judged on CPU-µs/request), ")
        .append("<span class=\"badge invalid\">invalid</span> (over 0.1% errors), <span class=\"badge wide-interval\">wide-interval</span>, ")
        .append("<span class=\"badge few-runs\">few-runs</span>, ")
        .append("<span class=\"badge unavailable\">unavailable</span> (not measured, with the reason). ")
        .append("<span class=\"badge calibration\">calibration</span> rows are nginx, the floor and the client's ceiling, never ranked.</p>\n");
    h.append("<p class=\"trustline\">").append(Html.esc(dev.fairbench.orchestrator.report.MarkdownReport.trustLine(results)
        .replace("**", ""))).append("</p>\n");

    trustTable(h, results, env);
    List<String> endpoints = endpoints(results);
    for (String endpoint : endpoints) {
      h.append("<section class=\"endpoint\" data-endpoint=\"").append(Html.esc(endpoint)).append("\"><h2>")
          .append(Html.esc(endpoint)).append("</h2>\n");
      h.append(chart(results, endpoint, "rps", "Requests per second", "req/s", true, s -> s.medianRequestsPerSecond(), true));
      h.append(chart(results, endpoint, "cpu", "Server CPU per request", "CPU-µs/request", false, CellStats::cpuMicrosPerRequest, true));
      h.append(chart(results, endpoint, "p50", "Latency p50", "µs", false, s -> micros(s.p50Micros()), false));
      h.append(chart(results, endpoint, "p99", "Latency p99", "µs", false, s -> micros(s.p99Micros()), false));
      h.append(chart(results, endpoint, "rss", "Peak RSS", "MiB", false, s -> s.peakRssBytes() / 1048576.0, false));
      h.append("</section>\n");
    }
    rates(h, results);
    ladder(h, results);
    startup(h, results);
    processes(h, results);
    rounds(h, results);
    conformance(h, results);
    fairness(h, review);
    environment(h, env, results);
    h.append("</body></html>\n");
    return h.toString();
  }

  private interface Metric {
    double of(CellStats stats);
  }

  /** NaN for a latency the load client did not measure (a pipelined wrk run): the bar says so. */
  static final String NO_LATENCY = "not measured: a pipelined cell (wrk's figures for pipelined requests are "
      + "not a request's latency), or runs that got no answer";

  private static double micros(Long value) {
    return value == null ? Double.NaN : value;
  }

  private static String chart(ResultsDocument results, String endpoint, String kind, String title, String unit,
      boolean higherIsBetter, Metric metric, boolean withWhiskers) {
    BarChart chart = new BarChart("chart-" + kind + "-" + slug(endpoint), title, unit, higherIsBetter);
    for (EntryResult entry : results.entries()) {
      Optional<CellResult> cell = entry.cells().stream()
          .filter(c -> c.kind() == CellKind.THROUGHPUT && c.endpoint().equals(endpoint)).findFirst();
      if (entry.calibration() && cell.isEmpty()) {
        continue; // the calibration server has no /validate
      }
      String label = entry.calibration() ? entry.id() + " (calibration)" : entry.baseline() ? entry.id() + " (baseline)" : entry.id();
      if (cell.isEmpty() || !cell.get().measured()) {
        String reason = cell.map(CellResult::reason).filter(r -> !r.isBlank())
            .orElse(entry.reason().isBlank() ? entry.status().wireName() : entry.reason());
        chart.add(new BarChart.Bar(label, null, null, null, List.of(BarChart.Mark.UNAVAILABLE),
            entry.status().wireName() + ": " + reason));
        continue;
      }
      CellStats s = cell.get().stats();
      List<BarChart.Mark> marks = new ArrayList<>();
      List<Flag> flags = cell.get().flags();
      if (entry.calibration()) marks.add(BarChart.Mark.CALIBRATION);
      if (flags.contains(Flag.CLIENT_BOUND)) marks.add(BarChart.Mark.CLIENT_BOUND);
      if (flags.contains(Flag.INVALID)) marks.add(BarChart.Mark.INVALID);
      if (flags.contains(Flag.ANSWERS_DIFFER)) marks.add(BarChart.Mark.ANSWERS_DIFFER);
      if (flags.contains(Flag.WIDE_INTERVAL) || flags.contains(Flag.FEW_RUNS)) marks.add(BarChart.Mark.NOISY);
      double value = metric.of(s);
      Interval whiskers = withWhiskers ? ("cpu".equals(kind) ? s.cpuInterval() : s.requestsPerSecondInterval()) : null;
      String missing = kind.startsWith("p") ? NO_LATENCY : "not computable";
      chart.add(new BarChart.Bar(label, Double.isFinite(value) ? value : null,
          whiskers == null ? null : whiskers.low(), whiskers == null ? null : whiskers.high(), marks,
          Double.isFinite(value) ? null : missing));
    }
    return "<figure class=\"chart-box " + kind + "\">" + chart.toSvg() + "</figure>\n";
  }

  private static void trustTable(StringBuilder h, ResultsDocument results, Environment env) {
    List<String> endpoints = endpoints(results);
    h.append("<section id=\"trust\"><h2>Which cells can be trusted</h2><table class=\"trust\"><thead><tr><th>entry</th>");
    endpoints.forEach(e -> h.append("<th>").append(Html.esc(e)).append("</th>"));
    h.append("</tr></thead><tbody>\n");
    for (EntryResult entry : results.entries()) {
      h.append("<tr class=\"").append(entry.calibration() ? "calibration" : "entry").append("\"").append("><th>").append(Html.esc(entry.id()))
          .append(entry.calibration() ? " <span class=\"badge calibration\">calibration</span>" : "").append("</th>");
      for (String endpoint : endpoints) {
        Optional<CellResult> cell = entry.cells().stream()
            .filter(c -> c.kind() == CellKind.THROUGHPUT && c.endpoint().equals(endpoint)).findFirst();
        if (cell.isEmpty() && entry.calibration()) {
          h.append("<td class=\"cell na\">not applicable</td>");
          continue;
        }
        if (cell.isEmpty()) {
          String why = entry.status().wireName() + (entry.reason() == null || entry.reason().isBlank() ? "" : ": " + entry.reason());
          h.append("<td class=\"cell unavailable\" title=\"").append(Html.esc(why)).append("\"><span class=\"badge unavailable\">")
              .append(Html.esc(entry.status().wireName())).append("</span><div class=\"why\">").append(Html.esc(why)).append("</div></td>");
          continue;
        }
        List<Quality.Doubt> doubts = Quality.doubts(cell.get(), env);
        boolean trusted = Quality.trustworthy(cell.get());
        if (trusted && doubts.isEmpty()) {
          h.append("<td class=\"cell trusted\"><span class=\"badge trusted\">trustworthy</span> ")
              .append(Html.esc(BarChart.format(cell.get().stats().medianRequestsPerSecond()))).append(" req/s</td>");
        } else {
          Set<String> classes = new LinkedHashSet<>();
          for (Quality.Doubt doubt : doubts) classes.add(doubt.flag() == null ? "not-measured" : doubt.flag().wireName());
          h.append("<td class=\"cell ").append(trusted ? "trusted" : "doubtful").append(' ')
              .append(Html.esc(String.join(" ", classes))).append("\">");
          if (trusted) {
            h.append("<span class=\"badge trusted\">trustworthy on ").append(Html.esc(Quality.headline(cell.get())))
                .append("</span> ");
          }
          classes.forEach(c -> h.append("<span class=\"badge ").append(Html.esc(c)).append("\">").append(Html.esc(c)).append("</span> "));
          if (cell.get().stats() != null) {
            h.append(Html.esc(BarChart.format(cell.get().stats().medianRequestsPerSecond()))).append(" req/s");
          }
          h.append("<ul class=\"why\">");
          doubts.forEach(d -> h.append("<li>").append(Html.esc(d.text())).append("</li>"));
          h.append("</ul></td>");
        }
      }
      h.append("</tr>\n");
    }
    h.append("</tbody></table></section>\n");
  }

  private static void conformance(StringBuilder h, ResultsDocument results) {
    h.append("<section id=\"conformance\"><h2>Conformance</h2><table><thead><tr><th>entry</th><th>verdict</th><th>clauses</th><th>WARN and FAIL</th></tr></thead><tbody>\n");
    for (EntryResult entry : results.entries()) {
      var c = entry.conformance();
      h.append("<tr class=\"conformance-row\" data-entry=\"").append(Html.esc(entry.id())).append("\"><th>").append(Html.esc(entry.id())).append("</th>");
      if (c == null) {
        h.append("<td><span class=\"badge unavailable\">not run</span></td><td></td><td>")
            .append(Html.esc(entry.status().wireName() + (entry.reason() == null ? "" : ": " + entry.reason()))).append("</td></tr>\n");
        continue;
      }
      h.append("<td><span class=\"badge verdict-").append(Html.esc(c.verdict().name().toLowerCase(Locale.ROOT))).append("\">")
          .append(Html.esc(c.verdict().name())).append("</span></td><td>").append(c.pass()).append(" PASS, ").append(c.warn())
          .append(" WARN, ").append(c.fail()).append(" FAIL")
          .append(c.reused() == null ? "" : "<br><span class=\"reused\">reused from " + Html.esc(c.reused().describe()) + "</span>")
          .append("</td><td><ul>");
      if (c.warned() != null) c.warned().forEach(w -> h.append("<li class=\"warn\">WARN ").append(Html.esc(w)).append("</li>"));
      if (c.failed() != null) c.failed().forEach(f -> h.append("<li class=\"fail\">FAIL ").append(Html.esc(f)).append("</li>"));
      h.append("</ul></td></tr>\n");
    }
    h.append("</tbody></table></section>\n");
  }

  private static void fairness(StringBuilder h, FairnessReview review) {
    h.append("<section id=\"fairness\"><h2>Fairness review</h2>\n");
    for (FairnessReview.EntryReview e : review.entries()) {
      h.append("<article class=\"review\" data-entry=\"").append(Html.esc(e.id())).append("\"><h3>").append(Html.esc(e.id()))
          .append(" — ").append(Html.esc(e.framework())).append("</h3><dl>");
      dd(h, "Status", e.status() + (e.reason().isBlank() ? "" : " — " + e.reason()));
      dd(h, "Versions", String.join(", ", e.versions().entrySet().stream().map(v -> v.getKey() + " " + v.getValue()).toList()));
      if (review.environment() != null && review.environment().mixedRuntimes()) {
        dd(h, "Runtime", e.runtime());
      }
      dd(h, "Limits applied", e.limitsApplied());
      dd(h, "Limits read back", e.limitsReadBack());
      String badge = e.workersCheck().badge();
      h.append("<dt>Workers observed</dt><dd class=\"").append(badge == null ? "ok" : "mismatch").append("\">")
          .append(Html.esc(e.workersObserved())).append(badge == null ? "" : " <span class=\"badge invalid\">" + badge + "</span>").append("</dd>");
      list(h, "Production mode", e.production(), "the manifest states nothing");
      if (!e.serverLog().isEmpty()) {
        h.append("<dt>Server log during the measured runs</dt><dd class=\"").append(e.logsPerRequest() ? "mismatch" : "ok")
            .append("\">").append(Html.esc(e.serverLog().replace("**", "")))
            .append(e.logsPerRequest() ? " <span class=\"badge invalid\">writes per request</span>" : "").append("</dd>");
      }
      list(h, "Departures from idiom", e.departures(), "none stated");
      dd(h, "Conformance", e.conformance());
      if (!e.acceptedFailures().isEmpty()) {
        dd(h, "Measured although FAILing", String.join(", ", e.acceptedFailures())
            + " (run --accept-fail): every cell is marked non-conformant");
      }
      dd(h, "Between visits", e.freeze());
      dd(h, "Ladder", e.ladder().replace("**", ""));
      if (!e.warmup().isEmpty()) {
        dd(h, "Warm-up", e.warmup().replace("**", ""));
      }
      list(h, "Conformance WARN/FAIL", e.warnings(), "none");
      list(h, "Run quality", e.runQuality(), "no doubt: every cell is trustworthy");
      h.append("</dl></article>\n");
    }
    h.append("</section>\n");
  }

  private static void rates(StringBuilder h, ResultsDocument results) {
    List<String[]> rows = new ArrayList<>();
    // A soak's column: the RSS slope, shown once some rate cell has a window long enough to judge.
    boolean slopes = results.entries().stream().flatMap(e -> e.cells().stream())
        .anyMatch(c -> c.kind() == CellKind.RATE && Quality.hasRssSlope(c));
    for (EntryResult entry : results.entries()) {
      for (CellResult cell : entry.cells()) {
        if (cell.kind() != CellKind.RATE) {
          continue;
        }
        CellStats s = cell.stats();
        List<String> row;
        if (s == null || s.rate() == null) {
          row = new ArrayList<>(List.of(entry.id(), cell.name(), cell.status().wireName() + ": " + cell.reason(), "", "", "",
              "", "", "", ""));
          if (slopes) {
            row.add(row.size() - 1, "");
          }
          rows.add(row.toArray(String[]::new));
          continue;
        }
        CellStats.RateStats r = s.rate();
        row = new ArrayList<>(List.of(entry.id(), cell.name(),
            String.format(Locale.ROOT, "%,.0f / %,.0f", s.medianRequestsPerSecond(), r.targetRate()),
            String.format(Locale.ROOT, "%,d", r.ok()), String.format(Locale.ROOT, "%,d", r.otherStatuses()),
            String.format(Locale.ROOT, "%,d", r.clientErrors()),
            dev.fairbench.orchestrator.report.MarkdownReport.unsent(r),
            String.format(Locale.ROOT, "%.3f%%", r.successRate() * 100),
            dev.fairbench.orchestrator.report.MarkdownReport.latencies(s)));
        if (slopes) {
          row.add(dev.fairbench.orchestrator.report.MarkdownReport.rssSlope(cell));
        }
        row.add(String.join(", ", cell.flags().stream().map(Flag::wireName).toList()));
        rows.add(row.toArray(String[]::new));
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    h.append("<section id=\"rate\"><h2>Constant rate</h2><p>Every scheduled request counts; unsent ones are requests the ")
        .append("client could not send in time; those due in a run's last 10 ms, lost at oha's deadline by a server that ")
        .append("keeps up too, are shown apart and left out of success. Latency is corrected for coordinated omission.")
        .append(slopes ? " RSS slope: the server's memory once a second, Theil–Sen slope after the first third of each "
            + "run (median over runs), with its window; shown for runs long enough to judge (a soak)." : "")
        .append("</p><table><thead><tr>");
    List<String> header = new ArrayList<>(List.of("entry", "cell", "achieved / target req/s", "2xx", "other statuses",
        "client errors", "unsent", "success", "p50 / p99 / p99.9 µs", "flags"));
    if (slopes) {
      header.add(header.size() - 1, "RSS slope MiB/min (window)");
    }
    for (String c : header) {
      h.append("<th>").append(Html.esc(c)).append("</th>");
    }
    h.append("</tr></thead><tbody>\n");
    for (String[] row : rows) {
      h.append("<tr class=\"rate-row\">");
      for (String c : row) {
        h.append("<td>").append(Html.esc(c)).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</tbody></table></section>\n");
  }

  /** The ladder table and, per baseline and endpoint, a chart of runtime floor + framework overhead. */
  private static void ladder(StringBuilder h, ResultsDocument results) {
    List<Ladder.Row> rows = Ladder.of(results);
    if (rows.isEmpty()) {
      return;
    }
    h.append("<section id=\"ladder\"><h2>The ladder: runtime floor and framework overhead</h2><p>")
        .append(Html.esc("Each baseline and the frameworks on it at the same fixed rate"
            + (results.method() != null && results.method().ladderRate() == dev.fairbench.orchestrator.core.LadderRate.ROUND
                ? " (" + Ladder.rateRule(results.method().ladderRate()) + ")" : "")
            + ", in the same rounds: the grey "
            + "bar is the baseline's CPU-µs/request (the runtime's floor), the coloured part the framework's overhead "
            + "over it, with its 95% interval; an overhead below zero is drawn to the left of the floor, in red."))
        .append("</p>\n");
    java.util.Map<String, List<Ladder.Row>> groups = new java.util.LinkedHashMap<>();
    rows.forEach(r -> groups.computeIfAbsent(r.baseline() + " " + r.endpoint(), k -> new ArrayList<>()).add(r));
    for (var group : groups.entrySet()) {
      List<Ladder.Row> g = group.getValue();
      double floor = g.getFirst().cpu();
      double max = g.stream().mapToDouble(r -> Math.max(r.cpu(),
          r.overheadInterval() == null ? 0 : floor + r.overheadInterval().high())).max().orElse(floor) * 1.1;
      int width = 460;
      int row = 26;
      int labelWidth = 230;
      int height = row * g.size() + 30;
      h.append(String.format(Locale.ROOT, "<figure class=\"chart-box ladder\"><svg class=\"chart ladder\" id=\"ladder-%s\" "
              + "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">",
          slug(group.getKey()), labelWidth + width + 200, height));
      h.append("<text class=\"chart-title\" x=\"0\" y=\"14\">").append(Html.esc(g.getFirst().baseline() + " — "
          + g.getFirst().endpoint() + ", CPU-µs/request at " + BarChart.format(g.getFirst().rate()) + " req/s"))
          .append("</text>");
      for (int i = 0; i < g.size(); i++) {
        Ladder.Row r = g.get(i);
        int y = 24 + i * row;
        double scale = width / max;
        h.append("<g class=\"rung").append(r.isBaseline() ? " floor" : "").append("\" data-label=\"")
            .append(Html.esc(r.id())).append("\">");
        h.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\">%s</text>", y + 16, Html.esc(r.isBaseline()
            ? r.id() + " (floor)" : r.id())));
        h.append(String.format(Locale.ROOT, "<rect class=\"floor\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"#9ca3af\"/>",
            labelWidth, y + 2, Math.min(floor, r.cpu()) * scale));
        if (!r.isBaseline()) {
          boolean negative = r.overhead() < 0;
          double from = Math.min(floor, r.cpu()) * scale;
          double length = Math.abs(r.overhead()) * scale;
          h.append(String.format(Locale.ROOT, "<rect class=\"overhead%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>",
              negative ? " negative" : "", labelWidth + from, y + 2, length, negative ? "#dc2626" : "#3b6fd8"));
          if (r.overheadInterval() != null) {
            double lo = labelWidth + (floor + r.overheadInterval().low()) * scale;
            double hi = labelWidth + (floor + r.overheadInterval().high()) * scale;
            h.append(String.format(Locale.ROOT, "<path class=\"whisker\" d=\"M%.1f %d H%.1f M%.1f %d V%d M%.1f %d V%d\"/>",
                lo, y + 11, hi, lo, y + 6, y + 16, hi, y + 6, y + 16));
          }
        }
        h.append(String.format(Locale.ROOT, "<text class=\"value\" x=\"%d\" y=\"%d\">%s</text></g>", labelWidth + width + 6, y + 16,
            Html.esc(r.isBaseline() ? String.format(Locale.ROOT, "%.2f", r.cpu())
                : String.format(Locale.ROOT, "%.2f (%+.2f, %.2f×)", r.cpu(), r.overhead(), r.ratio()))));
      }
      h.append("</svg></figure>\n");
    }
    h.append("<table class=\"ladder\"><thead><tr><th>floor</th><th>endpoint</th><th>rung</th><th>CPU-µs/req</th>")
        .append("<th>overhead [95% CI]</th><th>ratio [95% CI]</th></tr></thead><tbody>\n");
    for (Ladder.Row r : rows) {
      h.append("<tr class=\"ladder-row\"><td>").append(Html.esc(r.baseline())).append("</td><td>").append(Html.esc(r.endpoint()))
          .append("</td><td>").append(Html.esc(r.isBaseline() ? "floor" : r.id())).append("</td><td>")
          .append(String.format(Locale.ROOT, "%.2f", r.cpu())).append("</td><td>")
          .append(r.overhead() == null ? "—" : Html.esc(String.format(Locale.ROOT, "%+.2f %s", r.overhead(),
              Ladder.interval(r.overheadInterval(), "%+.2f")))).append("</td><td>")
          .append(r.ratio() == null ? "—" : Html.esc(String.format(Locale.ROOT, "%.2f× %s", r.ratio(),
              Ladder.interval(r.ratioInterval(), "%.2f")))).append("</td></tr>\n");
    }
    h.append("</tbody></table></section>\n");
  }

  /** Start times, memory and size: a table and two charts (start until every endpoint answered, peak memory). */
  private static void startup(StringBuilder h, ResultsDocument results) {
    List<EntryResult> entries = StartupTable.entries(results);
    if (entries.isEmpty()) {
      return;
    }
    h.append("<section id=\"startup\"><h2>").append(Html.esc(StartupTable.TITLE)).append("</h2><p>")
        .append(Html.esc(StartupTable.explanation(results))).append("</p>\n");
    BarChart warm = new BarChart("chart-start-warm", "Warm start until every endpoint answered", "ms", false);
    BarChart cold = new BarChart("chart-start-cold", "Cold start until every endpoint answered", "ms", false);
    BarChart memory = new BarChart("chart-memory-peak", "Peak memory", "MiB", false);
    for (EntryResult entry : entries) {
      StartupFigures s = entry.startup();
      StartupFigures.StartTime w = s.warm().get(StartupFigures.ALL);
      warm.add(w == null || w.n() == 0
          ? new BarChart.Bar(entry.id(), null, null, null, List.of(BarChart.Mark.UNAVAILABLE), s.note().isBlank() ? "not measured" : s.note())
          : new BarChart.Bar(entry.id(), w.medianMillis(), w.minMillis(), w.maxMillis(), List.of(), null));
      StartupFigures.StartTime c = s.cold().get(StartupFigures.ALL);
      cold.add(c == null || c.n() == 0
          ? new BarChart.Bar(entry.id(), null, null, null, List.of(BarChart.Mark.UNAVAILABLE), s.coldNote().isBlank() ? "not measured" : s.coldNote())
          : new BarChart.Bar(entry.id(), c.medianMillis(), null, null, List.of(), null));
      long peak = s.memory() == null ? -1 : s.memory().peakBytes();
      memory.add(peak < 0
          ? new BarChart.Bar(entry.id(), null, null, null, List.of(BarChart.Mark.UNAVAILABLE), "not measured")
          : new BarChart.Bar(entry.id(), peak / 1048576.0, null, null, List.of(), null));
    }
    h.append("<figure class=\"chart-box start\">").append(warm.toSvg()).append("</figure>\n");
    if (entries.stream().anyMatch(e -> !e.startup().cold().isEmpty())) {
      h.append("<figure class=\"chart-box start\">").append(cold.toSvg()).append("</figure>\n");
    }
    h.append("<figure class=\"chart-box memory\">").append(memory.toSvg()).append("</figure>\n");
    h.append("<table><thead><tr>");
    StartupTable.HEADER.forEach(c -> h.append("<th>").append(Html.esc(c)).append("</th>"));
    h.append("</tr></thead><tbody>\n");
    for (List<String> row : StartupTable.rows(results)) {
      h.append("<tr>");
      row.forEach(c -> h.append("<td>").append(Html.esc(c)).append("</td>"));
      h.append("</tr>\n");
    }
    h.append("</tbody></table></section>\n");
  }

  private static void processes(StringBuilder h, ResultsDocument results) {
    List<ProcessSplit.Row> rows = ProcessSplit.of(results);
    if (rows.isEmpty()) {
      return;
    }
    h.append("<section id=\"processes\"><h2>Processes</h2><p>")
        .append(Html.esc(ProcessSplit.summary(results, rows).replace("**", ""))).append("</p>");
    List<ProcessSplit.Row> apart = rows.stream().filter(ProcessSplit.Row::apart).toList();
    if (!apart.isEmpty()) {
      h.append("<table><thead><tr>");
      ProcessSplit.HEADER.forEach(c -> h.append("<th>").append(Html.esc(c)).append("</th>"));
      h.append("</tr></thead><tbody>\n");
      for (ProcessSplit.Row r : apart) {
        h.append("<tr>");
        ProcessSplit.cells(r).forEach(c -> h.append("<td>").append(Html.esc(c)).append("</td>"));
        h.append("</tr>\n");
      }
      h.append("</tbody></table>");
    }
    h.append("</section>\n");
  }

  private static void rounds(StringBuilder h, ResultsDocument results) {
    if (results.rounds().isEmpty()) {
      return;
    }
    // Runs made before the speed readings existed have none: no column of dashes for them.
    boolean speed = MachineSpeed.of(results).isPresent();
    boolean unrepeated = dev.fairbench.orchestrator.report.UnrepeatedVisits.count(results) > 0;
    h.append("<section id=\"rounds\"><h2>Rounds</h2><table><thead><tr><th>round</th><th>visits</th><th>repeated</th>")
        .append(unrepeated ? "<th>disturbed, counted without a repeat (time limit)</th>" : "")
        .append("<th>CPU probe</th>").append(speed ? "<th>speed around visits MB/s</th>" : "")
        .append("<th>round effect (log)</th></tr></thead><tbody>\n");
    for (var round : results.rounds()) {
      long repeats = round.order().stream().filter(o -> o.endsWith("(repeat)")).count();
      h.append("<tr><td>").append(Html.esc(ExtraRoundsDone.label(results, round))).append("</td><td>").append(round.order().size()).append("</td><td>")
          .append(repeats).append("</td><td>")
          .append(unrepeated ? dev.fairbench.orchestrator.report.UnrepeatedVisits.inRound(results, round.index())
              + "</td><td>" : "")
          .append(round.probe() == null ? "—" : String.format(Locale.ROOT, "%.0f MB/s", round.probe().megabytesPerSecond()))
          .append(speed ? "</td><td>" + Html.esc(MachineSpeed.ofRound(results, round.index())
              .map(MachineSpeed::brief).orElse("—")) : "")
          .append("</td><td>").append(String.format(Locale.ROOT, "%+.3f", round.factor())).append("</td></tr>\n");
    }
    h.append("</tbody></table>");
    ExtraRoundsDone.of(results).ifPresent(extra -> h.append("<p>").append(Html.esc(extra.describe())).append("</p>"));
    h.append("</section>\n");
  }

  private static void environment(StringBuilder h, Environment env, ResultsDocument results) {
    h.append("<section id=\"environment\"><h2>Environment and limits</h2>");
    if (env == null) {
      h.append("<p>The results file holds no environment.</p></section>");
      return;
    }
    h.append("<dl>");
    dd(h, "Timestamp", String.valueOf(env.timestamp()));
    dd(h, "Machine", env.cpuModel() + ", " + env.cores() + " cores, kernel " + env.kernel() + ", host " + env.hostname());
    dd(h, "cgroup", env.cgroupVersion() + "; limits enforced by " + env.limitsMode() + (env.limitsNote() == null || env.limitsNote().isBlank() ? "" : " (" + env.limitsNote() + ")"));
    dd(h, "Limits", FairnessReviewText.limits(env));
    if (env.load() != null) {
      var l = env.load();
      dd(h, "Load", String.format(Locale.ROOT, "%s: runs of %.0f s, %s per cell, %d connections, %d thread(s)",
          env.loadGenerator(), l.durationSeconds(), l.warmupRise() == null
              ? String.format(Locale.ROOT, "%.0f s of warm-up", l.warmupSeconds()) : "warm-up " + l.warmupDescription(),
          l.connections(), l.threads()));
    }
    dd(h, "Method", dev.fairbench.orchestrator.report.MarkdownReport.method(results));
    if (results.calibration() != null) {
      dd(h, "Client ceiling", String.format(Locale.ROOT, "%,.0f req/s (the calibration server's best median in this run)",
          results.calibration().clientCeilingRequestsPerSecond()));
    }
    if (env.orchestratorPlacement() != null && !env.orchestratorPlacement().isBlank()) {
      dd(h, "Orchestrator", env.orchestratorPlacement());
    }
    if (env.topology() != null) {
      dd(h, "Topology", env.topology().describe());
    }
    if (env.engine() != null) {
      dd(h, "Containers", env.engine().describe());
    }
    dd(h, "Runtime", env.mixedRuntimes()
        ? "mixed, in the same rounds, every idle server frozen: " + env.serversByRuntime() : env.runtime());
    dd(h, "Java (orchestrator)", env.javaVersion());
    dd(h, "Commit", env.gitCommit() + (env.gitDirty() ? " (with uncommitted changes)" : ""));
    h.append("</dl></section>\n");
  }

  private static void dd(StringBuilder h, String term, String value) {
    h.append("<dt>").append(Html.esc(term)).append("</dt><dd>").append(Html.esc(value)).append("</dd>");
  }

  private static void list(StringBuilder h, String term, List<String> items, String none) {
    h.append("<dt>").append(Html.esc(term)).append("</dt><dd>");
    if (items == null || items.isEmpty()) {
      h.append(Html.esc(none));
    } else {
      h.append("<ul>");
      items.forEach(i -> h.append("<li>").append(Html.esc(i)).append("</li>"));
      h.append("</ul>");
    }
    h.append("</dd>");
  }

  static List<String> endpoints(ResultsDocument results) {
    Set<String> endpoints = new LinkedHashSet<>();
    if (results.environment() != null && results.environment().endpoints() != null) {
      endpoints.addAll(results.environment().endpoints());
    }
    results.entries().forEach(e -> e.cells().stream().filter(c -> c.kind() == CellKind.THROUGHPUT)
        .forEach(c -> endpoints.add(c.endpoint())));
    return new ArrayList<>(endpoints);
  }

  private static String slug(String s) {
    return s.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "").toLowerCase(Locale.ROOT);
  }

  /** Shared wording with the fairness review. */
  private static final class FairnessReviewText {
    static String limits(Environment env) {
      if (env.limits() == null) return "Limits unknown.";
      var l = env.limits();
      return String.format(Locale.ROOT, "Every server: CPUs %s, %d MiB, WORKERS=%d (%s); load client on CPUs %s.",
          l.serverCpus(), l.memoryBytes() >> 20, l.workers(),
          env.mixedRuntimes() ? "the same in both runtimes: " + env.describeRuntimes()
              : env.limitsMode() + ", " + env.runtime() + " runtime",
          l.clientCpus());
    }
  }

  private static final String CSS = """
      body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;color:#1d2330;padding:0 1rem}
      h1{margin-bottom:.2rem} h2{border-bottom:1px solid #d8dce4;padding-bottom:.2rem;margin-top:2rem}
      .lede{color:#4a5264} .legend{background:#f5f7fa;padding:.6rem .8rem;border-radius:6px}
      table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{border:1px solid #d8dce4;padding:.35rem .5rem;text-align:left;vertical-align:top}
      thead th{background:#f0f2f6}
      .badge{display:inline-block;border-radius:4px;padding:0 .35rem;font-size:12px;font-weight:600;color:#fff;background:#6b7280}
      .badge.trusted,.badge.verdict-pass{background:#15803d} .badge.client-bound{background:#b45309} .badge.invalid,.badge.answers-differ,.badge.verdict-fail,.badge.not-measured{background:#b91c1c}
      .badge.noisy,.badge.wide-interval,.badge.verdict-warn{background:#a16207} .badge.calibration{background:#0e7490} .badge.unavailable,.badge.few-runs{background:#6b7280} .badge.workers,.badge.memory{background:#7c3aed}
      .cell .why{margin:.2rem 0 0 1rem;padding:0;font-size:12px;color:#4a5264}
      td.cell.trusted{background:#f0fdf4} td.cell.doubtful{background:#fffbeb} td.cell.unavailable{background:#f3f4f6}
      .chart-box{margin:.6rem 0} svg.chart text{font:12px system-ui,sans-serif;fill:#1d2330} svg.chart .chart-title{font-weight:600;font-size:13px}
      svg.chart .unit{font-weight:400;fill:#4a5264} svg.chart rect.bar{fill:#3b6fd8}
      svg.chart .client-bound rect.bar{fill:#d97706} svg.chart .invalid rect.bar,svg.chart .answers-differ rect.bar{fill:#dc2626} svg.chart .noisy rect.bar{fill:#ca8a04}
      svg.chart rect.bar.missing{fill:#e5e7eb} svg.chart text.missing{fill:#4a5264;font-style:italic}
      svg.chart .whisker{stroke:#111827;stroke-width:1.5;fill:none}
      dl{display:grid;grid-template-columns:12rem 1fr;gap:.25rem .8rem} dt{font-weight:600;color:#4a5264} dd{margin:0} dd ul{margin:0;padding-left:1.1rem}
      dd.mismatch{color:#b91c1c} li.fail{color:#b91c1c} li.warn{color:#a16207}
      .review{border:1px solid #d8dce4;border-radius:6px;padding:.2rem 1rem .8rem;margin:.8rem 0}
      """;
}
