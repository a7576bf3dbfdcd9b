package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.Text;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks on one exchange. Every failure message reads "what was sent: what was expected, what came
 * back", e.g. {@code POST /validate {"age":"30"}: expected status 400, got 200 application/json {...}}.
 */
final class Expect {
  static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

  private Expect() {}

  static void status(Exchange ex, int expected) {
    assertThat(ex.status())
        .as("%s: expected status %d, got %s", ex.request(), expected, ex.summary())
        .isEqualTo(expected);
  }

  /** Status N and the body of clause 9.1: what SPEC.md calls "an error response with status N". */
  static void errorResponse(Exchange ex, int expected) {
    status(ex, expected);
    errorBody(ex);
  }

  /** Clause 9.1: application/json, a JSON object holding a string "error". */
  static void errorBody(Exchange ex) {
    mediaType(ex, "application/json");
    JsonNode body = jsonIn(ex, "an error response");
    assertThat(body.isObject() && body.path("error").isTextual() && !body.path("error").asText().isBlank())
        .as("%s: an error response must be a JSON object with a non-empty string \"error\" (9.1), got %s",
            ex.request(), ex.summary())
        .isTrue();
  }

  /** The media type is the given one; the only parameter allowed is charset=utf-8. */
  static void mediaType(Exchange ex, String expected) {
    oneContentType(ex);
    String contentType = ex.header("Content-Type").orElse("");
    String[] parts = contentType.split(";");
    boolean typeMatches = parts[0].trim().toLowerCase(Locale.ROOT).equals(expected);
    boolean parametersAllowed = Arrays.stream(parts).skip(1)
        .map(p -> p.trim().toLowerCase(Locale.ROOT).replace("\"", ""))
        .allMatch(p -> p.equals("charset=utf-8"));
    assertThat(typeMatches && parametersAllowed)
        .as("%s: expected Content-Type %s (optionally ; charset=utf-8), got %s",
            ex.request(), expected, contentType.isEmpty() ? "none" : contentType)
        .isTrue();
  }

  /**
   * The response has one Content-Type: two (text/plain and text/html, say) leave the media type to
   * the client's choice of the first or the last (RFC 9110 5.3, 8.3: a singleton field).
   */
  static void oneContentType(Exchange ex) {
    List<String> values = ex.headers().getOrDefault("Content-Type", List.of());
    assertThat(values.size())
        .as("%s: expected one Content-Type header, got %d: %s", ex.request(), values.size(), String.join(" | ", values))
        .isLessThanOrEqualTo(1);
  }

  /** The body parsed as JSON; a body that is not JSON fails, saying what it was. */
  static JsonNode jsonIn(Exchange ex, String what) {
    try {
      return Json.parse(ex.body());
    } catch (IOException e) {
      return fail("%s: %s must be JSON, got %s (%s)", ex.request(), what, ex.summary(), firstLine(e.getMessage()));
    }
  }

  /** The body is a JSON object with exactly these keys. */
  static JsonNode objectWithKeys(Exchange ex, String... keys) {
    JsonNode body = jsonIn(ex, "the body");
    Set<String> actual = new TreeSet<>();
    body.fieldNames().forEachRemaining(actual::add);
    assertThat(body.isObject() && actual.equals(new TreeSet<>(Set.of(keys))))
        .as("%s: expected a JSON object with exactly the keys %s, got %s",
            ex.request(), String.join(", ", new TreeSet<>(Set.of(keys))), ex.summary())
        .isTrue();
    return body;
  }

  /** Status 200 and a body echoing this name and age (the age compared by value). */
  static void accepted(Exchange ex, String name, long age) {
    status(ex, 200);
    // Every success is 8.1's and 8.2's, whatever the clause that sent it: a server may slip on one input alone.
    mediaType(ex, "application/json");
    JsonNode body = objectWithKeys(ex, "name", "age", "valid");
    assertThat(body.path("valid").isBoolean() && body.path("valid").booleanValue())
        .as("%s: expected \"valid\": true, got %s", ex.request(), ex.summary())
        .isTrue();
    JsonNode echoedName = body.path("name");
    assertThat(echoedName.isTextual() && echoedName.asText().equals(name))
        .as("%s: expected \"name\" echoed exactly as %s, got %s%s",
            ex.request(), Text.preview(Json.quote(name), 80), ex.summary(), Text.normalizationHint(name, echoedName.asText()))
        .isTrue();
    JsonNode echoedAge = body.path("age");
    assertThat(echoedAge.isNumber() && echoedAge.decimalValue().compareTo(BigDecimal.valueOf(age)) == 0)
        .as("%s: expected \"age\" %d, got %s", ex.request(), age, ex.summary())
        .isTrue();
  }

  /**
   * Clause 5.9: a 200 whose body is valid UTF-8 (no surrogate written as raw bytes) and JSON echoing
   * the name, either exactly (the lone surrogate escaped back) or with U+FFFD in place of each lone
   * surrogate, with age 1 and valid true.
   */
  static void echoedSafely(Exchange ex, String name) {
    assertThat(ex.status())
        .as("%s: expected 400, or 200 echoing the name as valid UTF-8 JSON, got %s", ex.request(), ex.summary())
        .isEqualTo(200);
    assertThat(Text.strictUtf8(ex.body()))
        .as("%s: the 200 is not valid UTF-8 (a surrogate written as raw bytes?), got %s", ex.request(), ex.summary())
        .isNotNull();
    JsonNode body = jsonIn(ex, "the body");
    String echoed = body.path("name").isTextual() ? body.path("name").textValue() : null;
    assertThat(name.equals(echoed) || replaceLoneSurrogates(name).equals(echoed))
        .as("%s: expected \"name\" echoed as %s, or with U+FFFD for each lone surrogate, got %s",
            ex.request(), showSurrogates(name), ex.summary())
        .isTrue();
    assertThat(body.path("age").isNumber() && body.path("age").intValue() == 1 && body.path("valid").asBoolean(false))
        .as("%s: expected \"age\" 1 and \"valid\" true, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  /** The text in quotes with every surrogate shown as its escape, so that a finding can print it. */
  private static String showSurrogates(String text) {
    StringBuilder out = new StringBuilder("\"");
    text.chars().forEach(c -> {
      if (Character.isSurrogate((char) c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.append((char) c);
      }
    });
    return out.append('"').toString();
  }

  /** The text with each lone surrogate (one not part of a valid pair) replaced by U+FFFD. */
  static String replaceLoneSurrogates(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return out.toString();
  }

  /** In a success body, "age" is a JSON integer: 30, not 30.0 nor "30". */
  static void ageIsAJsonInteger(Exchange ex) {
    JsonNode age = jsonIn(ex, "the body").path("age");
    assertThat(age.isIntegralNumber())
        .as("%s: expected \"age\" as a JSON integer, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  static void notServerError(Exchange ex) {
    assertThat(ex.status())
        .as("%s: expected no 5xx, got %s", ex.request(), ex.summary())
        .isLessThan(500);
  }

  /**
   * The server is still up (4.6 "stays up", 5.6 "never a crash"): GET /plaintext gets an answer
   * below 500. Whether the answer is right is clause 1's business, and 12.2's.
   */
  static void stillUp(HttpTarget server, String after) {
    Exchange ex = plaintextAfter(server, after);
    assertThat(ex.status())
        .as("after %s: GET /plaintext expected an answer, got %s", after, ex.summary())
        .isLessThan(500);
  }

  /** Clause 12.2: GET /plaintext still answers correctly, 200 Hello, World!. */
  static void alive(HttpTarget server, String after) {
    Exchange ex = plaintextAfter(server, after);
    assertThat(ex.status() == 200 && Arrays.equals(ex.body(), HELLO))
        .as("after %s: GET /plaintext expected 200 Hello, World!, got %s", after, ex.summary())
        .isTrue();
  }

  private static Exchange plaintextAfter(HttpTarget server, String after) {
    try {
      return server.get("/plaintext");
    } catch (AssertionError e) {
      throw new AssertionError("after " + after + ": the server no longer answers: " + e.getMessage(), e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
