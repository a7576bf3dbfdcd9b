package dev.fairbench.conformance.http;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What is wrong with a response head as it was sent, byte for byte: the syntax RFC 9112 gives a
 * response's status line and header lines, RFC 9110's for field names and values, and the format
 * and sense of {@code Date}. Lenient clients (OkHttp, and the suite's own reader) take a bare LF as a
 * line end or a space before the colon as part of the name; a strict client or a proxy refuses such
 * a response, or reads it as another.
 */
public final class ResponseHeadSyntax {
  /** RFC 9112 §4: HTTP-version SP 3DIGIT SP reason-phrase, the phrase of HTAB, SP, VCHAR and obs-text. */
  private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 [1-5][0-9]{2} [\\t\\x20-\\x7E\\x80-\\xFF]*");
  /** RFC 9110 §5.6.2. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");
  /** RFC 9110 §5.6.7: the one format a sender may generate. */
  private static final Pattern IMF_FIXDATE = Pattern.compile(
      "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} "
          + "[0-9]{2}:[0-9]{2}:[0-9]{2} GMT");
  /**
   * How far a Date may be from the suite's clock. RFC 9110 §6.6.1 asks for "a reasonable approximation
   * of the current instance"; a day leaves room for a server on another machine with a poor clock.
   */
  public static final Duration DATE_TOLERANCE = Duration.ofDays(1);

  private ResponseHeadSyntax() {
  }

  /**
   * The faults of {@code head}, the bytes of a response from its status line through the empty line
   * that ends its header section, judged at {@code now}; empty when it is well-formed.
   */
  public static List<String> faults(byte[] head, Instant now) {
    List<String> faults = new ArrayList<>();
    List<String> lines = lines(head, faults);
    if (lines.isEmpty()) {
      faults.add("no status line");
      return faults;
    }
    String statusLine = lines.getFirst();
    if (!STATUS_LINE.matcher(statusLine).matches()) {
      faults.add("the status line `" + Text.preview(statusLine, 60) + "` is not `HTTP/1.1 <3 digits> <reason>`"
          + " (RFC 9112 §4; the reason may be empty, the space before it may not)");
    }
    List<String> dates = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        break;
      }
      if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
        faults.add("line " + (i + 1) + " `" + Text.preview(line, 60) + "` continues the line before it"
            + " (obsolete line folding, which a server must not generate: RFC 9112 §5.2)");
        continue;
      }
      int colon = line.indexOf(':');
      if (colon < 0) {
        faults.add("line " + (i + 1) + " `" + Text.preview(line, 60) + "` is not `name: value` (RFC 9112 §5)");
        continue;
      }
      String name = line.substring(0, colon);
      String value = line.substring(colon + 1).strip();
      if (!TOKEN.matcher(name).matches()) {
        faults.add(!name.isEmpty() && TOKEN.matcher(name.strip()).matches()
            ? "whitespace between the field name `" + name.strip() + "` and its colon (RFC 9112 §5.1: none is allowed)"
            : "the field name `" + Text.preview(name, 40) + "` is not a token (RFC 9110 §5.1)");
      }
      int control = firstControl(value);
      if (control >= 0) {
        faults.add(String.format("the value of %s holds the control byte 0x%02X (RFC 9110 §5.5)", name.strip(), control));
      }
      if (name.strip().equalsIgnoreCase("Date")) {
        dates.add(value);
      }
    }
    if (dates.size() > 1) {
      faults.add("Date sent " + dates.size() + " times (RFC 9110 §6.6.1: one value)");
    }
    for (String date : dates) {
      dateFault(date, now).ifPresent(faults::add);
    }
    return faults;
  }

  /** The head's lines without their ends; a line ended otherwise than by CRLF is a fault, named once. */
  private static List<String> lines(byte[] head, List<String> faults) {
    String text = new String(head, StandardCharsets.ISO_8859_1);
    List<String> lines = new ArrayList<>();
    int bareLineFeeds = 0;
    int firstBare = -1;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) != '\n') {
        continue;
      }
      boolean crlf = i > start && text.charAt(i - 1) == '\r';
      if (!crlf) {
        bareLineFeeds++;
        firstBare = firstBare < 0 ? lines.size() + 1 : firstBare;
      }
      lines.add(text.substring(start, crlf ? i - 1 : i));
      start = i + 1;
    }
    if (bareLineFeeds > 0) {
      faults.add(bareLineFeeds + " of " + lines.size() + " lines end in a bare LF, the first line " + firstBare
          + " (RFC 9112 §2.2: a line ends in CRLF)");
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).indexOf('\r') >= 0) {
        faults.add("a bare CR in line " + (i + 1) + " (RFC 9112 §2.2: a sender must not generate one outside the content)");
        break;
      }
    }
    return lines;
  }

  /** A control byte other than HTAB, or -1 (RFC 9110 §5.5: a field value is VCHAR, obs-text, SP and HTAB). */
  private static int firstControl(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        return c;
      }
    }
    return -1;
  }

  private static Optional<String> dateFault(String date, Instant now) {
    if (!IMF_FIXDATE.matcher(date).matches()) {
      return Optional.of("Date `" + Text.preview(date, 50) + "` is not in IMF-fixdate, the one format a sender"
          + " may generate (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`)");
    }
    Instant sent;
    try {
      sent = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeException e) {
      return Optional.of("Date `" + date + "` is not a date (" + e.getMessage() + ")");
    }
    Duration off = Duration.between(now, sent).abs();
    if (off.compareTo(DATE_TOLERANCE) > 0) {
      return Optional.of("Date `" + date + "` is " + off.toHours() + " hours " + (sent.isBefore(now) ? "behind" : "ahead of")
          + " the suite's clock (RFC 9110 §6.6.1: a server without a clock close to the time sends no Date)");
    }
    return Optional.empty();
  }
}
