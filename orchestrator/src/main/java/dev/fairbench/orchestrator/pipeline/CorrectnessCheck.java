package dev.fairbench.orchestrator.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fairbench.orchestrator.core.Endpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** The one request per cell, before any load, proving the endpoint answers what the benchmark sends. */
final class CorrectnessCheck {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CorrectnessCheck() {}

  /** An empty result means correct; otherwise what was wrong. */
  static Optional<String> check(URI baseUrl, Endpoint endpoint) throws InterruptedException {
    try (HttpClient client = client()) {
      return check(client, baseUrl, endpoint, Duration.ofSeconds(5));
    }
  }

  /** An HTTP/1.1 client: HTTP/2 would add "Upgrade: h2c" to cleartext requests, and uvicorn drops the body of those. */
  static HttpClient client() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** The same with a client kept across checks (repeated tries while a server starts). */
  static Optional<String> check(HttpClient client, URI baseUrl, Endpoint endpoint, Duration timeout)
      throws InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(baseUrl.resolve(endpoint.path())).timeout(timeout);
    if (endpoint.body() != null) {
      request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(endpoint.body()));
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return Optional.of(endpoint.method() + " " + endpoint.path() + " failed: " + e.getMessage());
    }
    return judge(endpoint, response.statusCode(), response.body());
  }

  /** Whether an answer to the endpoint's request is the contract's: empty when it is, else what was wrong. */
  static Optional<String> judge(Endpoint endpoint, int status, String body) {
    if (status != 200) {
      return Optional.of(endpoint.method() + " " + endpoint.path() + " answered " + status + ", expected 200");
    }
    return switch (endpoint) {
      case PLAINTEXT -> body.equals("Hello, World!") ? Optional.empty()
          : Optional.of("GET /plaintext answered " + abbreviate(body) + ", expected Hello, World!");
      case JSON -> expectJson(endpoint, body, "{\"message\":\"Hello, World!\"}");
      case USER -> expectJson(endpoint, body, "{\"id\":\"42\",\"name\":\"User 42\"}");
      case VALIDATE -> expectJson(endpoint, body, "{\"name\":\"Alice\",\"age\":30,\"valid\":true}");
    };
  }

  private static Optional<String> expectJson(Endpoint endpoint, String body, String expected) {
    try {
      JsonNode actual = JSON.readTree(body);
      if (actual != null && actual.equals(JSON.readTree(expected))) {
        return Optional.empty();
      }
    } catch (IOException e) {
      // not JSON: reported below
    }
    return Optional.of(endpoint.method() + " " + endpoint.path() + " answered " + abbreviate(body) + ", expected " + expected);
  }

  private static String abbreviate(String body) {
    return body.length() > 120 ? body.substring(0, 120) + "..." : body;
  }
}
