package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Order(8)
@DisplayName("8. POST /validate: keys and the success response")
@ExtendWith(TargetExtension.class)
class ValidateKeysTest {
  private final HttpTarget server;

  ValidateKeysTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("8.1")
  @DisplayName("success answers 200 application/json with exactly the keys name, age, valid")
  void successHasExactlyNameAgeValid() {
    Exchange ex = server.postJson("{\"name\":\"Ada\",\"age\":36}");
    Expect.status(ex, 200);
    Expect.mediaType(ex, "application/json");
    Expect.objectWithKeys(ex, "name", "age", "valid");
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(ints = {1, 30, 150})
  @Clause("8.2")
  @DisplayName("in the success body age is a JSON integer and valid is true")
  void successAgeIsAnIntegerAndValidIsTrue(int age) {
    Exchange ex = server.postJson(Json.person("Ada", Integer.toString(age)));
    Expect.accepted(ex, "Ada", age);
    Expect.ageIsAJsonInteger(ex);
    JsonNode valid = Expect.jsonIn(ex, "the body").path("valid");
    assertThat(valid.isBoolean() && valid.booleanValue())
        .as("%s: expected \"valid\": true, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"NAME\":\"a\",\"AGE\":1}",
      "{\"Name\":\"a\",\"age\":1}",
      "{\"name\":\"a\",\"Age\":1}",
      "{\"nAmE\":\"a\",\"aGe\":1}"
  })
  @Clause("8.3")
  @DisplayName("keys are case-sensitive: case variants of name and age are not the fields")
  void caseVariantKeysAreNotTheFields(String body) {
    Expect.status(server.postJson(body), 400);
  }

  @Test
  @Clause("8.3")
  @DisplayName("keys are case-sensitive: {\"Name\":\"x\",\"name\":\"y\",\"age\":1} echoes \"y\"")
  void caseVariantKeyBesideTheFieldIsIgnored() {
    Expect.accepted(server.postJson("{\"Name\":\"x\",\"name\":\"y\",\"age\":1}"), "y", 1);
    Expect.accepted(server.postJson("{\"name\":\"y\",\"Name\":\"x\",\"AGE\":99,\"age\":1}"), "y", 1);
  }

  @Test
  @Clause("8.3")
  @DisplayName("a key written with escapes is the key it stands for: {\"n\\u0061me\":\"a\",\"\\u0061ge\":1} is name and age")
  void escapedKeysAreTheKeysTheyStandFor() {
    Expect.accepted(server.postJson("{\"n\\u0061me\":\"a\",\"\\u0061ge\":1}"), "a", 1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"name\":\"a\",\"age\":1,\"extra\":[1,{}]}",
      "{\"valid\":false,\"name\":\"a\",\"age\":1}",
      "{\"name\":\"a\",\"age\":1,\"id\":\"7\",\"nested\":{\"name\":\"b\",\"age\":2}}"
  })
  @Clause("8.4")
  @DisplayName("unknown keys are ignored: 200 with exactly the three keys")
  void unknownKeysAreIgnored(String body) {
    Exchange ex = server.postJson(body);
    Expect.accepted(ex, "a", 1);
    JsonNode echoed = Expect.objectWithKeys(ex, "name", "age", "valid");
    assertThat(echoed.path("valid").isBoolean() && echoed.path("valid").booleanValue())
        .as("%s: expected \"valid\": true, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  @Test
  @Clause("8.4")
  @DisplayName("an unknown key of 200,000 characters is ignored like any other: a key's length is bounded by the body limit alone")
  void aLongUnknownKeyIsIgnored() {
    // Jackson refuses a key over 50,000 characters by default (StreamReadConstraints).
    Exchange ex = server.postJson("{\"" + "k".repeat(200_000) + "\":1,\"name\":\"a\",\"age\":1}");
    Expect.accepted(ex, "a", 1);
  }

  @Test
  @Clause(value = "8.5", severity = Severity.WARN)
  @DisplayName("duplicate name keys: the last one wins; 400 or the first winning is tolerated")
  void duplicateNameKeyLastOneWins() {
    duplicate("{\"name\":\"first\",\"name\":\"last\",\"age\":1}", "first", "last", 1, 1);
  }

  @Test
  @Clause(value = "8.5", severity = Severity.WARN)
  @DisplayName("duplicate age keys: the last one wins; 400 or the first winning is tolerated")
  void duplicateAgeKeyLastOneWins() {
    duplicate("{\"name\":\"a\",\"age\":1,\"age\":2}", "a", "a", 1, 2);
  }

  @ParameterizedTest(name = "body {0}")
  @ValueSource(strings = {"{\"name\":\"a\",\"age\":1,\"x\":1e400}", "{\"name\":\"a\",\"x\":[-1e400],\"age\":1}",
      "{\"x\":1e99999999999999999999,\"name\":\"a\",\"age\":1}", "{\"name\":\"a\",\"age\":1,\"x\":[0.5e-99999999999999999999]}"})
  @Clause(value = "8.6", severity = Severity.WARN)
  @DisplayName("an unknown key holding a number beyond a 64-bit float's range is ignored; 400 is tolerated")
  void anUnknownKeysHugeNumberIsIgnored(String body) {
    Exchange ex = server.postJson(body);
    if (ex.status() == 400) {
      throw new ImplementationDefined(ex.request() + ": answered 400 (tolerated: RFC 8259 lets a parser limit the range "
          + "of numbers); preferred: 200, an unknown key is ignored");
    }
    Expect.accepted(ex, "a", 1);
  }

  private void duplicate(String body, String firstName, String lastName, long firstAge, long lastAge) {
    Exchange ex = server.postJson(body);
    if (ex.status() == 400) {
      throw new ImplementationDefined(ex.request() + ": answered 400 (tolerated); preferred: the last key wins");
    }
    Expect.status(ex, 200);
    JsonNode echoed = Expect.jsonIn(ex, "the body");
    boolean firstWon = echoed.path("name").asText().equals(firstName)
        && echoed.path("age").isNumber() && echoed.path("age").longValue() == firstAge;
    if (firstWon && !(firstName.equals(lastName) && firstAge == lastAge)) {
      throw new ImplementationDefined(ex.request() + ": the first key won (tolerated); preferred: the last key wins");
    }
    Expect.accepted(ex, lastName, lastAge);
  }
}
