package dev.fairbench.orchestrator.report;

/**
 * Text from a results file (entry names, reasons, framework names, manifest facts) put into Markdown:
 * it can hold anything, and must neither end a table row, add a column, start a heading or a list,
 * nor reach a reader's Markdown renderer as an HTML tag.
 */
public final class MarkdownText {
  private MarkdownText() {}

  /** For a table cell: one line, {@code |} escaped, no HTML tag. */
  public static String cell(String text) {
    return line(text).replace("\\|", "|").replace("|", "\\|");
  }

  /**
   * For running text, a heading or a list item: one line (a line break inside would start a heading, a
   * list or a new paragraph), and a {@code <} that would open an HTML tag, a comment or an autolink
   * written as {@code &lt;}; a {@code <} before a space or a digit ("q < 0.05") is left as it is.
   */
  public static String line(String text) {
    if (text == null) {
      return "";
    }
    String one = text.replace("\r\n", " ").replace('\r', ' ').replace('\n', ' ');
    StringBuilder out = new StringBuilder(one.length());
    for (int i = 0; i < one.length(); i++) {
      char c = one.charAt(i);
      char next = i + 1 < one.length() ? one.charAt(i + 1) : ' ';
      if (c == '<' && (Character.isLetter(next) || next == '/' || next == '!' || next == '?')) {
        out.append("&lt;");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
