package dev.fairbench.conformance.suite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fairbench.conformance.http.Text;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Reads responses strictly and writes request bodies. */
final class Json {
  /** Strict: duplicate keys, trailing tokens and non-standard JSON in a response are errors. */
  private static final JsonMapper STRICT = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  static final int MIB = 1024 * 1024;

  private Json() {}

  /**
   * The body parsed as JSON, or an exception whose message says why it is not JSON. JSON sent between
   * systems is UTF-8 without a byte order mark (RFC 8259 §8.1), so a body in UTF-16 or UTF-32, or one that
   * begins with a byte order mark, is not JSON here, though a parser left to guess the encoding (Jackson's
   * from bytes) reads it.
   */
  static JsonNode parse(byte[] body) throws IOException {
    if (body.length >= 3 && body[0] == (byte) 0xEF && body[1] == (byte) 0xBB && body[2] == (byte) 0xBF) {
      throw new IOException("it begins with a byte order mark, which RFC 8259 §8.1 forbids in JSON sent over a network");
    }
    String text = Text.strictUtf8(body);
    if (text == null) {
      throw new IOException("it is not UTF-8, as RFC 8259 §8.1 requires of JSON sent over a network");
    }
    return STRICT.readTree(text);
  }

  /** A JSON string literal for the text, escaped as a standard encoder does. */
  static String quote(String text) {
    try {
      return STRICT.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode a string as JSON", e);
    }
  }

  /** {@code {"name":<name>,"age":<ageLiteral>}} with the age written exactly as given. */
  static String person(String name, String ageLiteral) {
    return "{\"name\":" + quote(name) + ",\"age\":" + ageLiteral + "}";
  }

  /**
   * A valid body ({@code name} "a", {@code age} 1) padded with an unknown key to exactly
   * {@code size} bytes.
   */
  static byte[] validBodyOfSize(int size) {
    return validBodyOfSize(size, "x");
  }

  /**
   * Like {@link #validBodyOfSize(int)}, padded with the given character as far as it fits and then
   * with {@code x}: with a 4-byte character the body has far fewer characters than bytes.
   */
  static byte[] validBodyOfSize(int size, String padCharacter) {
    String prefix = "{\"name\":\"a\",\"age\":1,\"pad\":\"";
    String suffix = "\"}";
    int padding = size - prefix.length() - suffix.length();
    if (padding < 0) {
      throw new IllegalArgumentException("a valid body needs at least " + (prefix.length() + suffix.length()) + " bytes");
    }
    int width = padCharacter.getBytes(StandardCharsets.UTF_8).length;
    String pad = padCharacter.repeat(padding / width) + "x".repeat(padding % width);
    return (prefix + pad + suffix).getBytes(StandardCharsets.UTF_8);
  }

  /** A body as chunked transfer coding (64 KiB chunks and the last chunk), no head. */
  static byte[] chunked(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int chunk = 64 * 1024;
    for (int from = 0; from < body.length; from += chunk) {
      int length = Math.min(chunk, body.length - from);
      out.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, from, length);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }
}
