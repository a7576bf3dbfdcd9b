package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.Text;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Order(1)
@DisplayName("1. GET /plaintext")
@ExtendWith(TargetExtension.class)
class PlaintextTest {
  private final HttpTarget server;

  PlaintextTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("1.1")
  @DisplayName("GET /plaintext answers 200")
  void answers200() {
    Expect.status(server.get("/plaintext"), 200);
  }

  @Test
  @Clause("1.2")
  @DisplayName("Content-Type is text/plain, optionally with ; charset=utf-8")
  void contentTypeIsTextPlain() {
    Expect.mediaType(server.get("/plaintext"), "text/plain");
  }

  @Test
  @Clause("1.3")
  @DisplayName("the body is exactly the 13 bytes Hello, World!")
  void bodyIsExactlyHelloWorld() {
    Exchange ex = server.get("/plaintext");
    assertThat(ex.body())
        .as("%s: expected the 13 bytes Hello, World!, got %d bytes: %s", ex.request(), ex.body().length, Text.preview(ex.body(), 80))
        .isEqualTo(Expect.HELLO);
  }
}
