package dev.fairbench.conformance.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Renders bytes sent or received on one line, readable in a finding. */
public final class Text {
  private Text() {}

  /**
   * The bytes as text, control characters escaped, invalid UTF-8 shown as {@code \xFF}, cut after
   * {@code max} characters with the total size appended.
   */
  public static String preview(byte[] bytes, int max) {
    StringBuilder out = new StringBuilder();
    String decoded = strictUtf8(bytes);
    if (decoded != null) {
      int shown = 0;
      for (int i = 0; i < decoded.length() && shown < max; i = decoded.offsetByCodePoints(i, 1), shown++) {
        appendEscaped(out, decoded.codePointAt(i));
      }
      if (shown < decoded.codePointCount(0, decoded.length())) {
        out.append("… (").append(bytes.length).append(" bytes)");
      }
    } else {
      int shown = Math.min(bytes.length, max);
      for (int i = 0; i < shown; i++) {
        int b = bytes[i] & 0xff;
        if (b >= 0x20 && b < 0x7f) {
          out.append((char) b);
        } else {
          out.append(String.format("\\x%02X", b));
        }
      }
      if (shown < bytes.length) {
        out.append("… (").append(bytes.length).append(" bytes)");
      }
    }
    return out.toString();
  }

  /**
   * When two texts differ only in their Unicode normalization ("café" as é, or as e and a combining accent),
   * words that say so, for a finding whose two sides would otherwise look the same; else "".
   */
  public static String normalizationHint(String expected, String actual) {
    if (expected == null || actual == null || expected.equals(actual)
        || !java.text.Normalizer.normalize(expected, java.text.Normalizer.Form.NFC)
            .equals(java.text.Normalizer.normalize(actual, java.text.Normalizer.Form.NFC))) {
      return "";
    }
    return " (the same text in another Unicode normalization: " + escapedBeyondAscii(actual, 80) + " instead of "
        + escapedBeyondAscii(expected, 80) + ")";
  }

  /** At most {@code max} characters, each one beyond ASCII as \\uXXXX, so that two look-alikes look different. */
  private static String escapedBeyondAscii(String text, int max) {
    StringBuilder out = new StringBuilder();
    text.codePoints().limit(max).forEach(cp -> {
      if (cp < 0x80) {
        appendEscaped(out, cp);
      } else {
        for (char c : Character.toChars(cp)) {
          out.append(String.format("\\u%04X", (int) c));
        }
      }
    });
    return out.toString();
  }

  /** A duration as a reader says it: "10 min", "90 s", "1 min 30 s". */
  public static String duration(java.time.Duration duration) {
    long seconds = duration.toSeconds();
    if (duration.toMillis() % 1000 != 0 && seconds < 60) {
      return duration.toMillis() + " ms";
    }
    if (seconds < 60) {
      return seconds + " s";
    }
    return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
  }

  public static String preview(String text, int max) {
    return preview(text.getBytes(StandardCharsets.UTF_8), max);
  }

  /** The bytes decoded as UTF-8, or null when they are not valid UTF-8. */
  public static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static void appendEscaped(StringBuilder out, int cp) {
    switch (cp) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> {
        // Controls, line separators and invisible format characters (a byte order mark, zero-width spaces).
        if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029
            || Character.getType(cp) == Character.FORMAT) {
          out.append(String.format("\\u%04X", cp));
        } else {
          out.appendCodePoint(cp);
        }
      }
    }
  }
}
