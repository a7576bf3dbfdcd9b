package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.NoResponseException;
import dev.fairbench.conformance.http.RawHttp;
import dev.fairbench.conformance.http.RawResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Runs last: its requests are the ones most likely to hurt the server. */
@Order(12)
@DisplayName("12. Robustness")
@ExtendWith(TargetExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RobustnessTest {
  /** How long a server may stay silent after a truncated body before the check moves on. */
  private static final Duration TRUNCATED_BODY_WAIT = Duration.ofSeconds(2);

  /** The requests of clause 12.1. A server may answer any of them with a 4xx or close the connection. */
  enum Shape {
    OVERSIZED_CHUNKED_BODY("a chunked body of 2 MiB") {
      @Override
      byte[] request(HttpTarget server) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(server.raw().head("POST", server.target("/validate"),
            "Content-Type: application/json", "Transfer-Encoding: chunked", "Connection: close"));
        writeChunk(out, "{\"name\":\"a\",\"age\":1,\"pad\":\"".getBytes(StandardCharsets.US_ASCII));
        byte[] padding = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 32; i++) {
          writeChunk(out, padding);
        }
        writeChunk(out, "\"}".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
      }

    },
    TRUNCATED_BODY("a body shorter than its Content-Length, then closed") {
      @Override
      byte[] request(HttpTarget server) {
        byte[] head = server.raw().head("POST", server.target("/validate"),
            "Content-Type: application/json", "Content-Length: 100", "Connection: close");
        return RawHttp.concat(head, "{\"name\":\"a\",".getBytes(StandardCharsets.US_ASCII));
      }
    },
    INVALID_PERCENT_ESCAPE("GET /user/%zz") {
      @Override
      byte[] request(HttpTarget server) {
        return get(server, "/user/%zz");
      }
    },
    TRUNCATED_PERCENT_ESCAPE("GET /user/abc%") {
      @Override
      byte[] request(HttpTarget server) {
        return get(server, "/user/abc%");
      }
    },
    PERCENT_ENCODED_INVALID_UTF8("GET /user/%FF%C3%28") {
      @Override
      byte[] request(HttpTarget server) {
        return get(server, "/user/%FF%C3%28");
      }
    },
    LONG_URL("a 16 KiB URL") {
      @Override
      byte[] request(HttpTarget server) {
        return get(server, "/user/" + "a".repeat(16 * 1024));
      }
    },
    GARBAGE_REQUEST_LINE("a garbage request line") {
      @Override
      byte[] request(HttpTarget server) {
        return "GARBAGE\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      }
    },
    BINARY_REQUEST_LINE("binary bytes instead of a request") {
      @Override
      byte[] request(HttpTarget server) {
        return new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03, 0x03, '\r', '\n', '\r', '\n'};
      }
    },
    THOUSAND_KEYS("an object with 1,000 keys") {
      @Override
      byte[] request(HttpTarget server) {
        StringBuilder body = new StringBuilder("{");
        for (int i = 0; i < 1000; i++) {
          body.append("\"k").append(i).append("\":").append(i).append(',');
        }
        body.append("\"name\":\"a\",\"age\":1}");
        return post(server, body.toString().getBytes(StandardCharsets.US_ASCII));
      }
    },
    MEBIBYTE_OF_BRACKETS("a 1 MiB string of [") {
      @Override
      byte[] request(HttpTarget server) {
        return post(server, "[".repeat(Json.MIB).getBytes(StandardCharsets.US_ASCII));
      }
    };

    private final String description;

    Shape(String description) {
      this.description = description;
    }

    abstract byte[] request(HttpTarget server);

    /** The server's answer, or null when it closed the connection (or, after a truncated body, stayed silent). */
    RawResponse send(HttpTarget server) throws IOException {
      server.requireResponsive(description);
      if (this == TRUNCATED_BODY) {
        try {
          return server.raw(TRUNCATED_BODY_WAIT).exchangeThenHalfClose(request(server));
        } catch (SocketTimeoutException | NoResponseException e) {
          return null;
        }
      }
      try {
        return server.raw().exchange(request(server));
      } catch (NoResponseException e) {
        return null;
      }
    }

    @Override
    public String toString() {
      return description;
    }

    private static byte[] get(HttpTarget server, String path) {
      return server.raw().request("GET", server.target(path), null, null, true);
    }

    private static void writeChunk(ByteArrayOutputStream out, byte[] chunk) {
      out.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(chunk);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] post(HttpTarget server, byte[] body) {
      return server.raw().request("POST", server.target("/validate"), "application/json", body, true);
    }
  }

  private final HttpTarget server;

  RobustnessTest(HttpTarget server) {
    this.server = server;
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @EnumSource(Shape.class)
  @Clause("12.1")
  @DisplayName("no request of any shape yields a 5xx")
  void noRequestYieldsA5xx(Shape shape) {
    RawResponse response;
    try {
      response = shape.send(server);
    } catch (SocketTimeoutException e) {
      throw server.noAnswer(shape.toString(), e);
    } catch (IOException e) {
      // Reset or closed without an answer: not a 5xx. Whether the server survived is clause 12.2.
      return;
    }
    if (response != null) {
      Expect.notServerError(response.toExchange(shape.toString()));
    }
  }

  @Order(2)
  @ParameterizedTest(name = "after {0}")
  @EnumSource(Shape.class)
  @Clause("12.2")
  @DisplayName("after every robustness case the server still answers GET /plaintext")
  void serverAnswersAfterEachCase(Shape shape) {
    try {
      shape.send(server);
    } catch (IOException ignored) {
      // Whatever happened to this request is clause 12.1's business; this one checks what follows.
    }
    Expect.alive(server, shape.toString());
  }

  @Test
  @Order(3)
  @Clause("12.1")
  @DisplayName("no request of the whole suite yielded a 5xx")
  void noEarlierCheckGotA5xx() {
    List<String> errors = server.serverErrors();
    assertThat(errors)
        .as("%d requests of the suite were answered with a 5xx: %s", errors.size(),
            String.join("; ", errors.subList(0, Math.min(errors.size(), 5)))
                + (errors.size() > 5 ? "; and " + (errors.size() - 5) + " more" : ""))
        .isEmpty();
  }

  @Test
  @Order(4)
  @Clause("12.2")
  @DisplayName("at the end of the suite the server still answers GET /plaintext")
  void serverStillAnswersAtTheEnd() {
    Expect.alive(server, "the whole suite");
  }
}
