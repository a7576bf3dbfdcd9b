package dev.fairbench.orchestrator.report.html;

/** Escaping for text and attribute values in the self-contained HTML report. */
final class Html {
  private Html() {}

  static String esc(Object value) {
    String s = String.valueOf(value);
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
