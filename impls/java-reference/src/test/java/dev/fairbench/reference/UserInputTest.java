package dev.fairbench.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UserInputTest {

  private static UserInput parse(String json) throws InvalidInputException {
    return UserInput.from(StrictJson.readObject(json.getBytes(StandardCharsets.UTF_8)));
  }

  private static String withAge(String age) {
    return "{\"name\":\"a\",\"age\":" + age + "}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "150", "30", "-0"})
  void acceptsIntegerAgesWithinBounds(String age) throws InvalidInputException {
    assertThat(parse(withAge(age)).age()).isEqualTo(Integer.parseInt(age));
  }

  @ParameterizedTest
  @CsvSource({"30.0, 30", "3e1, 30", "1.5e2, 150", "0.0, 0", "1E2, 100"})
  void acceptsIntegralFloatsAsTheInteger(String age, int expected) throws InvalidInputException {
    assertThat(parse(withAge(age)).age()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "-1", "151", "151.0", "-1.0", "1e400", "99999999999999999999", "-99999999999999999999",
      "150.00000000000001"})
  void rejectsAgesOutOfBounds(String age) {
    assertThatThrownBy(() -> parse(withAge(age)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("age");
  }

  @Test
  void rejectsAnExponentBeyondBigDecimalWithoutCrashing() {
    assertThatThrownBy(() -> parse(withAge("1e999999999999")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("request body holds a number out of range");
  }

  @ParameterizedTest
  @ValueSource(strings = {"30.5", "0.1", "149.9", "1e-400"})
  void rejectsFractions(String age) {
    assertThatThrownBy(() -> parse(withAge(age)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("age must be an integer, got " + (age.equals("1e-400") ? "1E-400" : age));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"30\"", "true", "false", "null", "[30]", "{\"value\":30}"})
  void rejectsAgesThatAreNotNumbers(String age) {
    assertThatThrownBy(() -> parse(withAge(age)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("age must be a number");
  }

  @Test
  void requiresAge() {
    assertThatThrownBy(() -> parse("{\"name\":\"a\"}")).hasMessage("age is required");
  }

  @Test
  void requiresName() {
    assertThatThrownBy(() -> parse("{\"age\":1}")).hasMessage("name is required");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "true", "null", "[]", "{}"})
  void rejectsNamesThatAreNotStrings(String name) {
    assertThatThrownBy(() -> parse("{\"name\":" + name + ",\"age\":1}"))
        .hasMessageStartingWith("name must be a string");
  }

  @Test
  void rejectsTheEmptyName() {
    assertThatThrownBy(() -> parse("{\"name\":\"\",\"age\":1}")).hasMessage("name must not be empty");
  }

  @ParameterizedTest
  @ValueSource(strings = {" ", "  padded  ", "😀", "Zoë", "\u05e9\u05dc\u05d5\u05dd", "e\u0301"})
  void keepsNamesExactly(String name) throws InvalidInputException {
    assertThat(parse("{\"name\":\"" + name + "\",\"age\":1}").name()).isEqualTo(name);
  }

  @Test
  void decodesEscapesInNames() throws InvalidInputException {
    String body = "{\"name\":\"\\\"q\\\" \\\\ \\n\\t\\u0000\",\"age\":1}";
    assertThat(parse(body).name()).isEqualTo("\"q\" \\ \n\t\u0000");
  }

  @Test
  void matchesKeysCaseSensitively() throws InvalidInputException {
    assertThatThrownBy(() -> parse("{\"NAME\":\"a\",\"AGE\":1}")).hasMessage("name is required");
    assertThat(parse("{\"Name\":\"x\",\"name\":\"y\",\"age\":1}").name()).isEqualTo("y");
  }

  @Test
  void ignoresUnknownKeys() throws InvalidInputException {
    assertThat(parse("{\"name\":\"a\",\"age\":1,\"extra\":[1,{}]}")).isEqualTo(new UserInput("a", 1));
  }

  @Test
  void letsTheLastDuplicateKeyWin() throws InvalidInputException {
    assertThat(parse("{\"name\":\"a\",\"age\":1,\"name\":\"b\",\"age\":2}")).isEqualTo(new UserInput("b", 2));
  }
}
