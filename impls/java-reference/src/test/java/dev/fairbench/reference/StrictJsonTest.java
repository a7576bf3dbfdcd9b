package dev.fairbench.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StrictJsonTest {

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"name\":\"a\"", "{'name':'a'}", "{name:\"a\"}", "{\"name\":\"a\",}", "{\"a\":1} x",
      "{\"a\":1}{\"a\":1}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":\"\u0001\"}"})
  void rejectsWhatIsNotStrictJson(String body) {
    assertThatThrownBy(() -> StrictJson.readObject(utf8(body)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("request body is not valid JSON");
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "[]", "\"a string\"", "42", "true"})
  void rejectsTopLevelValuesThatAreNotObjects(String body) {
    assertThatThrownBy(() -> StrictJson.readObject(utf8(body)))
        .hasMessageStartingWith("request body must be a JSON object");
  }

  @Test
  void rejectsAnEmptyBody() {
    assertThatThrownBy(() -> StrictJson.readObject(new byte[0]))
        .hasMessage("request body is empty, expected a JSON object");
    assertThatThrownBy(() -> StrictJson.readObject(null))
        .hasMessage("request body is empty, expected a JSON object");
  }

  @ParameterizedTest
  @ValueSource(strings = {"FF FE", "C0 AF", "ED A0 80", "E2 82"})
  void rejectsInvalidUtf8IncludingOverlongAndSurrogateSequences(String hex) {
    var body = new ByteArrayOutputStream();
    body.writeBytes(utf8("{\"a\":\"x"));
    body.writeBytes(HexFormat.ofDelimiter(" ").parseHex(hex));
    body.writeBytes(utf8("y\"}"));
    assertThatThrownBy(() -> StrictJson.readObject(body.toByteArray()))
        .hasMessage("request body is not valid UTF-8");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[", "{\"a\":"})
  void rejectsDeepNestingWithoutOverflowingTheStack(String opener) {
    byte[] body = utf8(opener.repeat(100_000));
    assertThatThrownBy(() -> StrictJson.readObject(body))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void readsAnUnknownKeyAsLongAsTheBodyLimitAllows() throws InvalidInputException {
    String key = "k".repeat(900_000);
    JsonNode node = StrictJson.readObject(utf8("{\"" + key + "\":1,\"name\":\"a\",\"age\":1}"));
    assertThat(node.get("name").asText()).isEqualTo("a");
    assertThat(node.has(key)).isTrue();
  }

  @Test
  void readsAnObject() throws InvalidInputException {
    assertThat(StrictJson.readObject(utf8(" {\"a\": [1, {}]} \n")).get("a").size()).isEqualTo(2);
  }
}
