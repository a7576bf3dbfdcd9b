package dev.fairbench.orchestrator.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar chart as inline SVG: one bar per row, an optional min–max whisker, and marks
 * (client-bound, invalid, unavailable) drawn on the bar and named in its tooltip, so the chart
 * needs no script and no network.
 */
final class BarChart {
  /** How a bar must be read. */
  enum Mark {
    CLIENT_BOUND("client-bound", "the load generator, not the server, was the limit"),
    INVALID("invalid", "more than 0.1% of the requests failed"),
    ANSWERS_DIFFER("answers-differ", "the answers under load were not the size of the answer checked before the runs"),
    NOISY("wide-interval", "the 95% confidence interval is wider than ±5% of the median, or there are too few runs for one"),
    CALIBRATION("calibration", "the calibration server: measured like an entry, never ranked"),
    UNAVAILABLE("unavailable", "no measurement");

    final String cssClass;
    final String meaning;

    Mark(String cssClass, String meaning) {
      this.cssClass = cssClass;
      this.meaning = meaning;
    }
  }

  /** One bar; {@code value} null means there is no measurement (the reason goes in {@code note}). */
  record Bar(String label, Double value, Double min, Double max, List<Mark> marks, String note) {
    Bar {
      marks = List.copyOf(marks);
    }
  }

  private static final int LABEL_WIDTH = 230;
  private static final int PLOT_WIDTH = 460;
  private static final int VALUE_WIDTH = 190;
  private static final int ROW = 26;

  private final String id;
  private final String title;
  private final String unit;
  private final boolean higherIsBetter;
  private final List<Bar> bars = new ArrayList<>();

  BarChart(String id, String title, String unit, boolean higherIsBetter) {
    this.id = id;
    this.title = title;
    this.unit = unit;
    this.higherIsBetter = higherIsBetter;
  }

  BarChart add(Bar bar) {
    bars.add(bar);
    return this;
  }

  String toSvg() {
    double scaleMax = bars.stream()
        .mapToDouble(b -> b.value() == null ? 0 : Math.max(b.value(), b.max() == null ? 0 : b.max()))
        .max().orElse(0);
    if (scaleMax <= 0) scaleMax = 1;
    int height = 30 + bars.size() * ROW + 10;
    int width = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg class=\"chart\" id=\"%s\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">",
        Html.esc(id), width, height, width, height));
    svg.append("<title>").append(Html.esc(title + " (" + unit + ", " + (higherIsBetter ? "higher" : "lower") + " is better)")).append("</title>");
    svg.append(String.format(Locale.ROOT, "<text class=\"chart-title\" x=\"0\" y=\"16\">%s <tspan class=\"unit\">(%s, %s is better)</tspan></text>",
        Html.esc(title), Html.esc(unit), higherIsBetter ? "higher" : "lower"));
    int y = 30;
    for (Bar bar : bars) {
      String classes = "bar-row" + bar.marks().stream().map(m -> " " + m.cssClass).reduce("", String::concat);
      svg.append("<g class=\"").append(classes).append("\" data-label=\"").append(Html.esc(bar.label())).append("\">");
      svg.append("<title>").append(Html.esc(tooltip(bar))).append("</title>");
      svg.append(String.format(Locale.ROOT, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
          LABEL_WIDTH - 8, y + 17, Html.esc(bar.label())));
      if (bar.value() == null) {
        svg.append(String.format(Locale.ROOT,
            "<rect class=\"bar missing\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/><text class=\"value missing\" x=\"%d\" y=\"%d\">%s</text>",
            LABEL_WIDTH, y + 4, PLOT_WIDTH, ROW - 8, LABEL_WIDTH + 6, y + 17, Html.esc(shorten(bar.note() == null ? "no measurement" : bar.note()))));
      } else {
        double w = bar.value() / scaleMax * PLOT_WIDTH;
        svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>",
            LABEL_WIDTH, y + 4, Math.max(w, 1), ROW - 8));
        if (bar.min() != null && bar.max() != null) {
          double x1 = LABEL_WIDTH + bar.min() / scaleMax * PLOT_WIDTH;
          double x2 = LABEL_WIDTH + bar.max() / scaleMax * PLOT_WIDTH;
          int mid = y + ROW / 2;
          svg.append(String.format(Locale.ROOT,
              "<path class=\"whisker\" d=\"M%.1f %d H%.1f M%.1f %d V%d M%.1f %d V%d\"/>",
              x1, mid, x2, x1, mid - 6, mid + 6, x2, mid - 6, mid + 6));
        }
        StringBuilder text = new StringBuilder(format(bar.value()));
        for (Mark mark : bar.marks()) text.append("  ⚠ ").append(mark.cssClass);
        svg.append(String.format(Locale.ROOT, "<text class=\"value\" x=\"%d\" y=\"%d\">%s</text>",
            LABEL_WIDTH + PLOT_WIDTH + 6, y + 17, Html.esc(text)));
      }
      svg.append("</g>");
      y += ROW;
    }
    svg.append("</svg>");
    return svg.toString();
  }

  private String tooltip(Bar bar) {
    StringBuilder t = new StringBuilder(bar.label()).append(": ");
    if (bar.value() == null) {
      t.append(bar.note() == null ? "no measurement" : bar.note());
    } else {
      t.append(format(bar.value())).append(' ').append(unit);
      if (bar.min() != null && bar.max() != null) {
        t.append(" (runs from ").append(format(bar.min())).append(" to ").append(format(bar.max())).append(')');
      }
    }
    for (Mark mark : bar.marks()) t.append("; ").append(mark.cssClass).append(": ").append(mark.meaning);
    return t.toString();
  }

  /** The row has room for about this many characters; the tooltip keeps the whole note. */
  private static final int NOTE_CHARACTERS = 95;

  static String shorten(String note) {
    return note.length() <= NOTE_CHARACTERS ? note : note.substring(0, NOTE_CHARACTERS - 1) + "…";
  }

  static String format(double value) {
    if (Math.abs(value) >= 100) return String.format(Locale.ROOT, "%,.0f", value);
    if (Math.abs(value) >= 10) return String.format(Locale.ROOT, "%.1f", value);
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
