package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Order(10)
@DisplayName("10. Routing")
@ExtendWith(TargetExtension.class)
class RoutingTest {
  private final HttpTarget server;

  RoutingTest(HttpTarget server) {
    this.server = server;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "GET, /nope",
      "GET, /plaintext/extra",
      "POST, /nope",
      "GET, /users/42",
      "GET, /jsonx",
      "PUT, /user/a/b",
      "POST, /user/a/b",
      "GET, /",
      "GET, /user",
      "GET, /favicon.ico"
  })
  @Clause("10.1")
  @DisplayName("an unknown path answers an error response with status 404")
  void unknownPathAnswers404(String method, String path) {
    Expect.errorResponse(send(method, path), 404);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "POST, /plaintext",
      "DELETE, /json",
      "PUT, /user/42",
      "GET, /validate",
      "DELETE, /validate",
      "PUT, /validate",
      "PATCH, /validate",
      "POST, /json",
      "PUT, /json",
      "PATCH, /plaintext",
      "POST, /user/42",
      "DELETE, /user/42"
  })
  @Clause(value = "10.2", severity = Severity.WARN)
  @DisplayName("a known path with another method answers 405; 404 is tolerated")
  void knownPathWithAnotherMethodAnswers405(String method, String path) {
    Exchange ex = send(method, path);
    if (ex.status() == 404) {
      Expect.errorBody(ex);
      throw new ImplementationDefined(ex.request() + ": answered 404 (tolerated); preferred: 405");
    }
    Expect.errorResponse(ex, 405);
  }

  @ParameterizedTest(name = "GET {0}")
  @CsvSource({
      "/PLAINTEXT, /plaintext",
      "/Plaintext, /plaintext",
      "/Json, /json",
      "/USER/42, /user/42"
  })
  @Clause(value = "10.3", severity = Severity.WARN)
  @DisplayName("a path that differs from a route only in letter case answers 404; served as the route is tolerated")
  void pathDifferingOnlyInCaseAnswers404(String path, String route) {
    Exchange ex = server.get(path);
    if (ex.status() == 200) {
      Exchange routed = server.get(route);
      boolean sameAsRoute = routed.status() == 200
          && ex.header("Content-Type").equals(routed.header("Content-Type"))
          && Arrays.equals(ex.body(), routed.body());
      assertThat(sameAsRoute)
          .as("%s: expected 404, or the answer of GET %s (tolerated), got %s; GET %s gives %s",
              ex.request(), route, ex.summary(), route, routed.summary())
          .isTrue();
      throw new ImplementationDefined(ex.request() + ": served as GET " + route + " (case-insensitive routing, tolerated); preferred: 404");
    }
    Expect.errorResponse(ex, 404);
  }

  private Exchange send(String method, String path) {
    if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
      return server.send(method, path, "application/json", "{\"name\":\"a\",\"age\":1}".getBytes(StandardCharsets.UTF_8));
    }
    return server.send(method, path, null, null);
  }
}
