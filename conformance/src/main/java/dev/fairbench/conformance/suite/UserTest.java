package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(3)
@DisplayName("3. GET /user/{id}")
@ExtendWith(TargetExtension.class)
class UserTest {
  private final HttpTarget server;

  UserTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("3.1")
  @DisplayName("/user/42 answers 200 application/json, exactly {\"id\":\"42\",\"name\":\"User 42\"}")
  void user42AnswersItsIdAndName() {
    Exchange ex = server.get("/user/42");
    Expect.status(ex, 200);
    Expect.mediaType(ex, "application/json");
    JsonNode body = Expect.objectWithKeys(ex, "id", "name");
    assertThat(body.path("id").isTextual() && body.path("id").asText().equals("42")
            && body.path("name").isTextual() && body.path("name").asText().equals("User 42"))
        .as("%s: expected {\"id\":\"42\",\"name\":\"User 42\"}, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{0}\"")
  @ValueSource(strings = {"007", "-1", "3.5", "true", "null", "0"})
  @Clause("3.2")
  @DisplayName("the id is always a JSON string, whatever it looks like")
  void idIsAlwaysAString(String id) {
    expectUser("/user/" + id, id);
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{1}\"")
  @CsvSource({
      "caf%C3%A9, café",
      "%F0%9F%98%80, 😀",
      "%E4%B8%AD%E6%96%87, 中文",
      "%22quoted%22, \"quoted\"",
      "100%2541, 100%41",
      "%25, %"
  })
  @Clause("3.3")
  @DisplayName("the id is the path segment percent-decoded once, as UTF-8")
  void idIsPercentDecodedAsUtf8(String segment, String id) {
    expectUser("/user/" + segment, id);
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{1}\"")
  @CsvSource({
      "John%20Doe, John Doe",
      "a+b, a+b",
      "%2B1, +1"
  })
  @Clause("3.4")
  @DisplayName("a percent-encoded space is decoded and + stays a literal plus")
  void encodedSpaceIsDecodedAndPlusStaysPlus(String segment, String id) {
    expectUser("/user/" + segment, id);
  }

  @ParameterizedTest(name = "{0} has the id \"42\"")
  @ValueSource(strings = {"/user/42?x=1", "/user/42?id=7&name=x"})
  @Clause("3.5")
  @DisplayName("the query string is not part of the id")
  void queryStringIsNotPartOfTheId(String path) {
    expectUser(path, "42");
  }

  @Test
  @Clause("3.6")
  @DisplayName("/user/ answers an error response with status 404")
  void userWithoutIdAnswers404() {
    Expect.errorResponse(server.get("/user/"), 404);
  }

  @Test
  @Clause("3.7")
  @DisplayName("/user/a/b answers an error response with status 404")
  void userWithTwoSegmentsAnswers404() {
    Expect.errorResponse(server.get("/user/a/b"), 404);
  }

  /** 200, application/json and exactly {"id":<id>,"name":"User <id>"}, as 3.1 asks of /user/42. */
  private void expectUser(String path, String id) {
    Exchange ex = server.get(path);
    Expect.status(ex, 200);
    Expect.mediaType(ex, "application/json");
    JsonNode body = Expect.objectWithKeys(ex, "id", "name");
    assertThat(body.path("id").isTextual() && body.path("id").asText().equals(id)
            && body.path("name").isTextual() && body.path("name").asText().equals("User " + id))
        .as("%s: expected {\"id\":%s,\"name\":%s}, got %s", ex.request(), Json.quote(id), Json.quote("User " + id), ex.summary())
        .isTrue();
  }
}
