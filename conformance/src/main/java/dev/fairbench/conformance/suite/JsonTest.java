package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Order(2)
@DisplayName("2. GET /json")
@ExtendWith(TargetExtension.class)
class JsonTest {
  private final HttpTarget server;

  JsonTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("2.1")
  @DisplayName("GET /json answers 200")
  void answers200() {
    Expect.status(server.get("/json"), 200);
  }

  @Test
  @Clause("2.2")
  @DisplayName("Content-Type is application/json, a charset parameter allowed")
  void contentTypeIsApplicationJson() {
    Expect.mediaType(server.get("/json"), "application/json");
  }

  @Test
  @Clause("2.3")
  @DisplayName("the body is the JSON object {\"message\":\"Hello, World!\"} and nothing more")
  void bodyIsTheHelloWorldMessageAndNoOtherKey() {
    Exchange ex = server.get("/json");
    JsonNode body = Expect.objectWithKeys(ex, "message");
    assertThat(body.path("message").isTextual() && body.path("message").asText().equals("Hello, World!"))
        .as("%s: expected {\"message\":\"Hello, World!\"}, got %s", ex.request(), ex.summary())
        .isTrue();
  }
}
