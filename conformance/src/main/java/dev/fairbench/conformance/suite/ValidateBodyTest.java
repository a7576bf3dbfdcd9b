package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(5)
@DisplayName("5. POST /validate: the body must be a JSON object")
@ExtendWith(TargetExtension.class)
class ValidateBodyTest {
  private static final int DEPTH = 100_000;

  private final HttpTarget server;

  ValidateBodyTest(HttpTarget server) {
    this.server = server;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"name\":\"a\",\"age\":1",
      "{'name':'a','age':1}",
      "{name:\"a\",age:1}",
      "{\"name\":\"a\",\"age\":1,}",
      "{\"name\" \"a\",\"age\":1}",
      "{\"name\":\"a\" \"age\":1}",
      "{\"name\":\"a\",\"age\":01}",
      "{\"name\":\"a\",\"age\":+1}",
      // Under an unknown key, which a lazy parser skips by matching brackets instead of reading it.
      "{\"name\":\"a\",\"age\":1,\"x\":[1 2]}",
      "{\"name\":\"a\",\"age\":1,\"x\":tru}",
      "{\"name\":\"a\",\"age\":1,\"x\":{\"a\" 1}}",
      "{\"name\":\"a\",\"age\":1,\"x\":[1,]}"
  })
  @Clause("5.1")
  @DisplayName("malformed JSON answers 400")
  void malformedJsonAnswers400(String body) {
    Expect.status(server.postJson(body), 400);
  }

  /** What JSON5 and lenient parsers accept and RFC 8259 does not: every valid person but for the extension. */
  static Stream<Arguments> jsonExtensions() {
    return Stream.of(
        Arguments.of("a /* */ comment", "{\"name\":\"a\",\"age\":1 /* a comment */}"),
        Arguments.of("a // comment", "{\"name\":\"a\", // a comment\n\"age\":1}"),
        Arguments.of("a # comment", "{\"name\":\"a\", # a comment\n\"age\":1}"),
        Arguments.of("the escape \\q, which JSON does not have", "{\"name\":\"a\\qb\",\"age\":1}"),
        Arguments.of("the escape \\', which JSON does not have", "{\"name\":\"a\\'b\",\"age\":1}"),
        Arguments.of("the escape \\x41, which JSON does not have", "{\"name\":\"a\\x41\",\"age\":1}"),
        Arguments.of("a \\u escape of three hex digits", "{\"name\":\"a\\u004\",\"age\":1}"),
        Arguments.of("age 30. (no digit after the point)", "{\"name\":\"a\",\"age\":30.}"),
        Arguments.of("age .3e2 (no digit before the point)", "{\"name\":\"a\",\"age\":.3e2}"),
        Arguments.of("age 0x1E (hexadecimal)", "{\"name\":\"a\",\"age\":0x1E}"),
        Arguments.of("a form feed before the value", "\f{\"name\":\"a\",\"age\":1}"),
        Arguments.of("a vertical tab between tokens", "{\"name\":\"a\",\u000B\"age\":1}"),
        Arguments.of("a no-break space (U+00A0) between tokens", "{\"name\":\"a\",\u00A0\"age\":1}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jsonExtensions")
  @Clause("5.1")
  @DisplayName("what JSON5 and lenient parsers add to JSON (comments, other escapes, bare decimal points, hexadecimal, other whitespace) answers 400")
  void jsonExtensionsAnswer400(String what, String body) {
    Expect.status(server.postJson(body), 400);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"name\":\"a\",\"age\":1} x",
      "{\"name\":\"a\",\"age\":1}{\"name\":\"b\",\"age\":2}",
      "{\"name\":\"a\",\"age\":1} 1",
      "{\"name\":\"a\",\"age\":1}\n[]",
      "{\"name\":\"a\",\"age\":1}}",
      // A NUL after the value: a parser handed a C string stops there.
      "{\"name\":\"a\",\"age\":1}\u0000",
      "{\"name\":\"a\",\"age\":1}\u0000x"
  })
  @Clause("5.2")
  @DisplayName("trailing garbage after the value answers 400")
  void trailingGarbageAnswers400(String body) {
    Expect.status(server.postJson(body), 400);
  }

  static Stream<Arguments> nonFiniteNumbers() {
    // Not only as the age, which any age validation rejects: a parser that accepts the literal
    // shows itself where the value is never looked at.
    return Stream.of("NaN", "Infinity", "-Infinity").flatMap(literal -> Stream.of(
        Arguments.of("age " + literal, Json.person("a", literal)),
        Arguments.of(literal + " under an unknown key", "{\"name\":\"a\",\"age\":1,\"x\":" + literal + "}"),
        Arguments.of(literal + " in an array under an unknown key", "{\"name\":\"a\",\"age\":1,\"x\":[1," + literal + "]}"),
        Arguments.of("name " + literal, "{\"name\":" + literal + ",\"age\":1}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nonFiniteNumbers")
  @Clause("5.3")
  @DisplayName("NaN, Infinity and -Infinity are not JSON, wherever they are: 400")
  void nonFiniteNumbersAnswer400(String where, String body) {
    Expect.status(server.postJson(body), 400);
  }

  @Test
  @Clause("5.4")
  @DisplayName("an empty body answers 400")
  void emptyBodyAnswers400() {
    Expect.status(server.postValidate("application/json", new byte[0]), 400);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"null", "[]", "\"a string\"", "42", "true", "[{\"name\":\"a\",\"age\":1}]"})
  @Clause("5.5")
  @DisplayName("a top-level value that is not an object answers 400")
  void topLevelNonObjectAnswers400(String body) {
    Expect.status(server.postJson(body), 400);
  }

  static Stream<Arguments> deeplyNested() {
    return Stream.of(
        Arguments.of(DEPTH + " unclosed [", "[".repeat(DEPTH)),
        Arguments.of(DEPTH + " balanced [ ]", "[".repeat(DEPTH) + "]".repeat(DEPTH)),
        Arguments.of(DEPTH + " nested {\"a\":", "{\"a\":".repeat(DEPTH) + "1" + "}".repeat(DEPTH)),
        Arguments.of("a valid person with " + DEPTH + " nested [ ] under an unknown key",
            "{\"name\":\"a\",\"age\":1,\"x\":" + "[".repeat(DEPTH) + "]".repeat(DEPTH) + "}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deeplyNested")
  @Clause("5.6")
  @DisplayName("deep nesting answers 400, never a crash")
  void deepNestingAnswers400(String shape, String body) {
    Expect.status(server.postJson(body), 400);
    Expect.stillUp(server, shape);
  }

  static Stream<Arguments> invalidUtf8() {
    return Stream.of(
        Arguments.of("a lone 0xFF byte", new byte[] {(byte) 0xFF}),
        Arguments.of("an overlong encoding of / (C0 AF)", new byte[] {(byte) 0xC0, (byte) 0xAF}),
        Arguments.of("a truncated 3-byte sequence (E2 82)", new byte[] {(byte) 0xE2, (byte) 0x82}),
        Arguments.of("an encoded high surrogate (ED A0 80)", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}),
        Arguments.of("an encoded low surrogate (ED B0 80)", new byte[] {(byte) 0xED, (byte) 0xB0, (byte) 0x80}),
        Arguments.of("U+1F600 as an encoded surrogate pair, CESU-8 (ED A0 BD ED B8 80)",
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80}),
        Arguments.of("a stray continuation byte (80)", new byte[] {(byte) 0x80}));
  }

  @ParameterizedTest(name = "a name holding {0}")
  @MethodSource("invalidUtf8")
  @Clause("5.7")
  @DisplayName("a body that is not valid UTF-8 answers 400")
  void invalidUtf8Answers400(String what, byte[] bytes) {
    byte[] body = concat("{\"name\":\"a", bytes, "b\",\"age\":1}");
    Expect.status(server.postValidate("application/json", body), 400);
  }

  @ParameterizedTest(name = "an unknown key holding {0}")
  @MethodSource("invalidUtf8")
  @Clause("5.7")
  @DisplayName("a body that is not valid UTF-8 answers 400, also where no field validation looks")
  void invalidUtf8UnderAnUnknownKeyAnswers400(String what, byte[] bytes) {
    byte[] body = concat("{\"name\":\"a\",\"age\":1,\"x\":\"a", bytes, "b\"}");
    Expect.status(server.postValidate("application/json", body), 400);
  }

  static Stream<Arguments> loneSurrogates() {
    // JSON text in ASCII: the surrogates are \\u escapes, which the grammar allows one by one.
    return Stream.of(
        Arguments.of("name \\ud800, a lone high surrogate", "{\"name\":\"\\ud800\",\"age\":1}", "\ud800"),
        Arguments.of("name \\udc00, a lone low surrogate", "{\"name\":\"\\udc00\",\"age\":1}", "\udc00"),
        Arguments.of("name a\\udc00\\ud800b, a low surrogate before a high one",
            "{\"name\":\"a\\udc00\\ud800b\",\"age\":1}", "a\udc00\ud800b"),
        Arguments.of("name \\ud800x, a high surrogate before a letter", "{\"name\":\"\\ud800x\",\"age\":1}", "\ud800x"),
        Arguments.of("\\ud800 under an unknown key", "{\"name\":\"a\",\"age\":1,\"x\":\"\\ud800\"}", "a"),
        Arguments.of("\\udc00 as a key", "{\"\\udc00\":1,\"name\":\"a\",\"age\":1}", "a"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("loneSurrogates")
  @Clause("5.9")
  @DisplayName("a lone surrogate escape answers 400, or the name is echoed as valid UTF-8 JSON; never 5xx")
  void loneSurrogateAnswers400OrIsEchoedSafely(String what, String body, String name) {
    Exchange ex = server.postJson(body);
    if (ex.status() == 400) {
      return;
    }
    Expect.echoedSafely(ex, name);
  }

  @ParameterizedTest(name = "a name holding the raw byte 0x{0}")
  @ValueSource(strings = {"00", "01", "09", "0A", "0D", "1F"})
  @Clause("5.8")
  @DisplayName("an unescaped control character inside a JSON string answers 400")
  void unescapedControlCharacterAnswers400(String hex) {
    byte[] body = concat("{\"name\":\"a", new byte[] {(byte) Integer.parseInt(hex, 16)}, "b\",\"age\":1}");
    Expect.status(server.postValidate("application/json", body), 400);
  }

  private static byte[] concat(String before, byte[] middle, String after) {
    byte[] a = before.getBytes(StandardCharsets.UTF_8);
    byte[] c = after.getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[a.length + middle.length + c.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(middle, 0, all, a.length, middle.length);
    System.arraycopy(c, 0, all, a.length + middle.length, c.length);
    return all;
  }
}
