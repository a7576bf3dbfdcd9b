package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.HttpTarget;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(6)
@DisplayName("6. POST /validate: name")
@ExtendWith(TargetExtension.class)
class ValidateNameTest {
  private final HttpTarget server;

  ValidateNameTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("6.1")
  @DisplayName("a missing name answers 400")
  void missingNameAnswers400() {
    Expect.status(server.postJson("{\"age\":30}"), 400);
  }

  @ParameterizedTest(name = "name {0}")
  @ValueSource(strings = {"42", "true", "false", "null", "[\"a\"]", "{\"first\":\"a\"}"})
  @Clause("6.2")
  @DisplayName("a name that is not a string answers 400")
  void nonStringNameAnswers400(String literal) {
    Expect.status(server.postJson("{\"name\":" + literal + ",\"age\":30}"), 400);
  }

  @Test
  @Clause("6.3")
  @DisplayName("the empty string answers 400")
  void emptyNameAnswers400() {
    Expect.status(server.postJson("{\"name\":\"\",\"age\":30}"), 400);
  }

  @ParameterizedTest(name = "name {0}")
  @ValueSource(strings = {"a", "😀", "é"})
  @Clause("6.4")
  @DisplayName("a one-character name is valid")
  void oneCharacterNameIsValid(String name) {
    Expect.accepted(server.postJson(Json.person(name, "30")), name, 30);
  }

  @Test
  @Clause("6.4")
  @DisplayName("a one-character name written as an escaped surrogate pair (\\ud83d\\ude00) is valid: 😀")
  void oneCharacterNameAsAnEscapedSurrogatePairIsValid() {
    Expect.accepted(server.postJson("{\"name\":\"\\ud83d\\ude00\",\"age\":30}"), "\uD83D\uDE00", 30);
    Expect.accepted(server.postJson("{\"name\":\"\\uD83D\\uDE00\",\"age\":30}"), "\uD83D\uDE00", 30);
  }

  @ParameterizedTest(name = "name \"{0}\"")
  @ValueSource(strings = {" ", "  padded  ", "\t", "trailing "})
  @Clause("6.5")
  @DisplayName("names are echoed exactly, never trimmed or normalised")
  void namesAreNeverTrimmed(String name) {
    Expect.accepted(server.postJson(Json.person(name, "30")), name, 30);
  }

  static Stream<Arguments> unusualNames() {
    return Stream.of(
        Arguments.of("Unicode, emoji, quotes, backslash and escaped controls", "Zoë 😀 \"q\" \\ \n\t\u0000"),
        Arguments.of("a combining mark (e + U+0301), not normalised to é", "e\u0301"),
        Arguments.of("right-to-left text", "שלום مرحبا"),
        Arguments.of("line and paragraph separators", "a\u2028b\u2029c"),
        Arguments.of("every escaped C0 control", controls()),
        Arguments.of("a slash and its escape", "a/b\\/c"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unusualNames")
  @Clause("6.6")
  @DisplayName("Unicode, quotes, backslashes and escaped control characters are echoed exactly")
  void unusualCharactersAreEchoedExactly(String what, String name) {
    Expect.accepted(server.postJson(Json.person(name, "30")), name, 30);
  }

  @Test
  @Clause("6.6")
  @DisplayName("the escapes \\/, \\b, \\f and \\u00e9 in a name are echoed as the characters they stand for")
  void escapesInANameAreEchoedAsTheirCharacters() {
    Expect.accepted(server.postJson("{\"name\":\"a\\/b\\b\\f\\u00e9\",\"age\":30}"), "a/b\b\f\u00e9", 30);
  }

  @Test
  @Clause("6.7")
  @DisplayName("a 10,000-character name mixing ASCII and emoji is echoed exactly")
  void longNameIsEchoedExactly() {
    StringBuilder name = new StringBuilder();
    String[] pieces = {"a", "😀", "Z", "🎉", " ", "ß"};
    for (int i = 0; i < 10_000; i++) {
      name.append(pieces[i % pieces.length]);
    }
    Expect.accepted(server.postJson(Json.person(name.toString(), "30")), name.toString(), 30);
  }

  @Test
  @Clause("6.7")
  @DisplayName("a name filling a body of exactly 1 MiB is echoed exactly: no length limit of its own")
  void nameFillingOneMebibyteIsEchoedExactly() {
    String frame = Json.person("", "30");
    String name = "abcdefghi ".repeat(Json.MIB / 10 + 1).substring(0, Json.MIB - frame.length());
    Expect.accepted(server.postJson(Json.person(name, "30")), name, 30);
  }

  private static String controls() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      all.append(c);
    }
    return all.toString();
  }
}
