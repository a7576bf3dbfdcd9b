package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.NoResponseException;
import dev.fairbench.conformance.http.RawConnection;
import dev.fairbench.conformance.http.RawHttp;
import dev.fairbench.conformance.http.RawResponse;
import dev.fairbench.conformance.http.Text;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
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
    },
    HEADER_OF_64_KIB("a 64 KiB header") {
      @Override
      byte[] request(HttpTarget server) {
        return getPlaintext(server, "X-Large: " + "a".repeat(64 * 1024));
      }
    },
    THOUSAND_HEADERS("1,000 headers of 64 bytes") {
      @Override
      byte[] request(HttpTarget server) {
        String[] headers = new String[1000];
        for (int i = 0; i < headers.length; i++) {
          headers[i] = String.format("X-Header-%03d: %s", i, "h".repeat(48)); // 64 bytes with CRLF
        }
        return getPlaintext(server, headers);
      }
    },
    NUL_IN_A_HEADER_VALUE("a NUL byte in a header value") {
      @Override
      byte[] request(HttpTarget server) {
        return getPlaintext(server, "X-Test: a\u0000b");
      }
    },
    SOH_IN_A_HEADER_VALUE("a 0x01 byte in a header value") {
      @Override
      byte[] request(HttpTarget server) {
        return getPlaintext(server, "X-Test: a\u0001b");
      }
    },
    ESC_IN_A_HEADER_VALUE("a 0x1B byte in a header value") {
      @Override
      byte[] request(HttpTarget server) {
        return getPlaintext(server, "X-Test: a\u001bb");
      }
    },
    DEL_IN_A_HEADER_VALUE("a 0x7F byte in a header value") {
      @Override
      byte[] request(HttpTarget server) {
        return getPlaintext(server, "User-Agent: a\u007fb");
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

    /** GET /plaintext with these header lines (written as ISO-8859-1: one byte per character) and Connection: close. */
    private static byte[] getPlaintext(HttpTarget server, String... headerLines) {
      String[] lines = Arrays.copyOf(headerLines, headerLines.length + 1);
      lines[headerLines.length] = "Connection: close";
      return server.raw().head("GET", server.target("/plaintext"), lines);
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
    } catch (ProtocolException e) {
      throw notHttp(shape.toString(), e);
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

  /** The request targets of clause 12.3, each holding a control byte, with the id a server that keeps the byte answers. */
  enum ControlByteTarget {
    NUL_IN_A_PATH("/plain\u0000text", null),
    NUL_AT_THE_END("/plaintext\u0000", null),
    NUL_IN_AN_ID("/user/a\u0000b", "a\u0000b"),
    SOH_IN_AN_ID("/user/a\u0001b", "a\u0001b"),
    ESC_IN_AN_ID("/user/a\u001bb", "a\u001bb"),
    DEL_IN_AN_ID("/user/a\u007fb", "a\u007fb");

    final String target;
    /** The id a server that keeps the byte would answer, or null where the path is no route with the byte in it. */
    final String keptId;

    ControlByteTarget(String target, String keptId) {
      this.target = target;
      this.keptId = keptId;
    }

    @Override
    public String toString() {
      return "GET " + Text.preview(target, 40);
    }
  }

  /**
   * GET of a raw request target on a connection of its own ({@code Connection: close}); null when the
   * server closed or reset it without an answer, which refuses the request.
   */
  private Exchange rawGet(String what, String target) {
    server.requireResponsive(what);
    try {
      return server.raw().exchange(server.raw().head("GET", server.target(target), "Connection: close")).toExchange(what);
    } catch (SocketTimeoutException e) {
      throw server.noAnswer(what, e);
    } catch (ProtocolException e) {
      throw notHttp(what, e);
    } catch (IOException e) {
      return null;
    }
  }

  @Order(3)
  @ParameterizedTest(name = "{0}")
  @EnumSource(ControlByteTarget.class)
  @Clause(value = "12.3", severity = Severity.WARN)
  @DisplayName("a control byte in the request target answers 4xx or closes; 505, or the byte kept in the path, is tolerated")
  void controlByteInTheRequestTarget(ControlByteTarget request) {
    String what = request.toString();
    Exchange ex = rawGet(what, request.target);
    if (ex == null || ex.status() / 100 == 4) {
      return; // refused: closed without an answer, or a 4xx
    }
    if (ex.status() == 505) {
      throw new ImplementationDefined(what + ": answered 505 HTTP Version Not Supported (tolerated: a runtime's HTTP "
          + "parser that ends the target at the control byte, SPEC runtime-parser exceptions); preferred: 400 or closed");
    }
    if (ex.status() == 200 && request.keptId != null && keepsTheId(ex, request.keptId)) {
      throw new ImplementationDefined(what + ": served with the control byte kept in the id (tolerated: a runtime's "
          + "HTTP parser that takes it into the path, SPEC runtime-parser exceptions); preferred: 400 or closed");
    }
    throw new AssertionError(what + ": expected a 4xx or the connection closed (or, tolerated, 505 or the byte "
        + "kept in the path), got " + ex.summary());
  }

  /**
   * An answer that is not HTTP (a garbage status line, a malformed header, an endless body) is neither
   * a 4xx nor the connection closed: it FAILs 12.1, 12.3 and 12.4 alike.
   */
  private static AssertionError notHttp(String what, ProtocolException e) {
    return new AssertionError(what + ": answered with bytes that are not an HTTP response (" + e.getMessage()
        + "); expected a 4xx or the connection closed", e);
  }

  private static boolean keepsTheId(Exchange ex, String id) {
    try {
      return id.equals(Json.parse(ex.body()).path("id").textValue());
    } catch (IOException e) {
      return false;
    }
  }

  /** A request a server reading the wrong framing would find in the body: its answer shows the desynchronisation. */
  private static final String SMUGGLED = "GET /user/smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n";
  private static final String PERSON = "{\"name\":\"a\",\"age\":1}";

  /**
   * The requests of clause 12.4. Each is built so that a server that reads its body by the wrong
   * framing finds {@link #SMUGGLED} after the body and answers it as a request of its own; a server
   * that reads {@code Transfer-Encoding: chunked} gets invalid JSON ({@code X} then the smuggled
   * request), so it answers 400 too.
   */
  enum AmbiguousFraming {
    CONTENT_LENGTH_THEN_CHUNKED("Content-Length, then Transfer-Encoding: chunked") {
      @Override
      String headersAndBody() {
        return "Content-Length: " + chunkedPrefixLength() + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedBody();
      }
    },
    CHUNKED_THEN_CONTENT_LENGTH("Transfer-Encoding: chunked, then Content-Length") {
      @Override
      String headersAndBody() {
        return "Transfer-Encoding: chunked\r\nContent-Length: " + chunkedPrefixLength() + "\r\n\r\n" + chunkedBody();
      }
    },
    TWO_CONTENT_LENGTHS_SMALLER_FIRST("two Content-Lengths, the smaller first") {
      @Override
      String headersAndBody() {
        return "Content-Length: " + PERSON.length() + "\r\nContent-Length: " + (PERSON.length() + SMUGGLED.length())
            + "\r\n\r\n" + PERSON + SMUGGLED;
      }
    },
    TWO_CONTENT_LENGTHS_LARGER_FIRST("two Content-Lengths, the larger first") {
      @Override
      String headersAndBody() {
        return "Content-Length: " + (PERSON.length() + SMUGGLED.length()) + "\r\nContent-Length: " + PERSON.length()
            + "\r\n\r\n" + PERSON + SMUGGLED;
      }
    },
    CONTENT_LENGTH_LIST("Content-Length: a list of two values") {
      @Override
      String headersAndBody() {
        return "Content-Length: " + PERSON.length() + ", " + (PERSON.length() + SMUGGLED.length())
            + "\r\n\r\n" + PERSON + SMUGGLED;
      }
    },
    NEGATIVE_CONTENT_LENGTH("Content-Length: -1") {
      @Override
      String headersAndBody() {
        return "Content-Length: -1\r\n\r\n" + SMUGGLED;
      }
    },
    NON_NUMERIC_CONTENT_LENGTH("Content-Length: abc") {
      @Override
      String headersAndBody() {
        return "Content-Length: abc\r\n\r\n" + SMUGGLED;
      }
    };

    private final String description;

    AmbiguousFraming(String description) {
      this.description = description;
    }

    /** The header lines that frame the body, the empty line, and the body. */
    abstract String headersAndBody();

    byte[] request(HttpTarget server) {
      String head = "POST " + server.target("/validate") + " HTTP/1.1\r\nHost: " + server.raw().hostHeader()
          + "\r\nContent-Type: application/json\r\n";
      return (head + headersAndBody()).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One chunk holding X and the smuggled request, then the last chunk. */
    static String chunkedBody() {
      String data = "X" + SMUGGLED;
      return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n0\r\n\r\n";
    }

    /** A Content-Length that ends the body just before the smuggled request inside the chunk. */
    static int chunkedPrefixLength() {
      return (Integer.toHexString(("X" + SMUGGLED).length()) + "\r\nX").length();
    }

    @Override
    public String toString() {
      return "POST /validate with " + description;
    }
  }

  /** How long 12.4 waits for each answer: a server that waits for more body bytes is desynchronised too. */
  private static final Duration FRAMING_WAIT = Duration.ofSeconds(5);

  @Order(4)
  @ParameterizedTest(name = "{0}")
  @EnumSource(AmbiguousFraming.class)
  @Clause("12.4")
  @DisplayName("ambiguous framing answers 400 or closes the connection, and never desynchronises it")
  void ambiguousFramingAnswers400AndNeverDesynchronises(AmbiguousFraming request) {
    String what = request.toString();
    // What GET /plaintext gets on a connection of its own: the next request must get the same.
    Exchange alone = server.get("/plaintext");
    server.requireResponsive(what);
    try (RawConnection connection = server.raw(FRAMING_WAIT).open()) {
      connection.write(request.request(server));
      RawResponse first;
      try {
        first = connection.read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError(what + ": no answer within " + FRAMING_WAIT.toSeconds()
            + " s and the connection left open (the server waits for body bytes that the framing does not promise)", e);
      } catch (ProtocolException e) {
        throw notHttp(what, e);
      } catch (IOException e) {
        return; // closed without an answer: refused
      }
      assertThat(first.status())
          .as("%s: expected 400 or the connection closed, got %s", what, first.toExchange(what).summary())
          .isEqualTo(400);
      String next = "then GET /plaintext on the same connection";
      try {
        connection.write(server.raw().request("GET", server.target("/plaintext"), null, null, true));
      } catch (IOException e) {
        return; // closed after the 400
      }
      RawResponse second;
      try {
        second = connection.read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError(what + ": answered 400, " + next + " got no answer within " + FRAMING_WAIT.toSeconds()
            + " s: desynchronised (the next request was read as part of the first one's body)", e);
      } catch (IOException e) {
        return; // closed after the 400
      }
      Exchange answer = second.toExchange(next);
      assertThat(answer.status() == alone.status() && Arrays.equals(answer.body(), alone.body()))
          .as("%s: answered 400, %s got %s: desynchronised (bytes of the first request's body were answered as a "
              + "request of their own), expected what it gets alone (%s) or the connection closed", what, next,
              answer.summary(), alone.summary())
          .isTrue();
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
  }

  /**
   * The request targets of clause 12.5, each holding raw bytes above 0x7F (written as ISO-8859-1
   * characters, one byte each), with the valid text around the bytes a server reading them as UTF-8
   * keeps and, where they are UTF-8, the character they encode.
   */
  enum NonAsciiTarget {
    UTF8_ID("/user/\u00c3\u00a9", "C3 A9 (é in UTF-8)", "", "é", ""),
    UTF8_AMONG_TEXT("/user/caf\u00c3\u00a9", "caf C3 A9", "caf", "é", ""),
    NOT_UTF8_ID("/user/a\u00ffb", "a FF b", "a", null, "b");

    final String target;
    final String shown;
    final String before;
    /** The character the bytes encode as UTF-8, or null where they are not UTF-8 (then one or more U+FFFD). */
    final String decoded;
    final String after;

    NonAsciiTarget(String target, String shown, String before, String decoded, String after) {
      this.target = target;
      this.shown = shown;
      this.before = before;
      this.decoded = decoded;
      this.after = after;
    }

    boolean readAsUtf8(String id) {
      if (id == null) {
        return false;
      }
      if (decoded != null) {
        return id.equals(before + decoded + after);
      }
      return Pattern.matches(
          Pattern.quote(before) + "\\uFFFD+" + Pattern.quote(after), id);
    }

    @Override
    public String toString() {
      return "GET /user/ with the raw bytes " + shown;
    }
  }

  @Order(5)
  @ParameterizedTest(name = "{0}")
  @EnumSource(NonAsciiTarget.class)
  @Clause(value = "12.5", severity = Severity.WARN)
  @DisplayName("a raw byte above 0x7F in the request target answers 4xx or closes; served as UTF-8 is tolerated")
  void nonAsciiByteInTheRequestTarget(NonAsciiTarget request) {
    String what = request.toString();
    Exchange ex = rawGet(what, request.target);
    if (ex == null || ex.status() / 100 == 4) {
      return; // refused: closed without an answer, or a 4xx
    }
    if (ex.status() == 200 && Text.strictUtf8(ex.body()) != null) {
      String id = null;
      String name = null;
      try {
        JsonNode body = Json.parse(ex.body());
        id = body.path("id").textValue();
        name = body.path("name").textValue();
      } catch (IOException notJson) {
        // judged below
      }
      if (request.readAsUtf8(id) && ("User " + id).equals(name)) {
        throw new ImplementationDefined(what + ": served with the bytes read as UTF-8, the id " + Json.quote(id)
            + " (tolerated: a runtime's HTTP parser that takes them into the path, SPEC runtime-parser exceptions); "
            + "preferred: 400 or closed (RFC 9112 3.2: a request-target is US-ASCII)");
      }
    }
    throw new AssertionError(what + ": expected a 4xx or the connection closed (or, tolerated, 200 with the bytes "
        + "read as UTF-8" + (request.decoded != null ? ", the id " + Json.quote(request.before + request.decoded
        + request.after) : ", U+FFFD for the bytes that are not UTF-8") + "), got " + ex.summary());
  }

  @Test
  @Order(6)
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
  @Order(7)
  @Clause("12.2")
  @DisplayName("at the end of the suite the server still answers GET /plaintext")
  void serverStillAnswersAtTheEnd() {
    Expect.alive(server, "the whole suite");
  }
}
