package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.NoResponseException;
import dev.fairbench.conformance.http.RawConnection;
import dev.fairbench.conformance.http.RawHttp;
import dev.fairbench.conformance.http.RawResponse;
import dev.fairbench.conformance.http.ResponseHeadSyntax;
import dev.fairbench.conformance.http.Text;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(11)
@DisplayName("11. HTTP behaviour")
@ExtendWith(TargetExtension.class)
class HttpBehaviourTest {
  private static final int REQUESTS = 200;
  private static final MediaType JSON = MediaType.get("application/json");

  /** How long a client waits for 100 Continue before it sends the body anyway (curl waits 1 s). */
  static final Duration CONTINUE_WAIT = Duration.ofSeconds(2);
  /** Clause 11.4: connections open at once. */
  static final int CONNECTIONS = 512;
  static final Duration CONNECTIONS_DEADLINE = Duration.ofSeconds(10);
  /** Clause 11.5: the slow client's pace, and how long the other client may wait meanwhile. */
  static final Duration DRIBBLE_INTERVAL = Duration.ofMillis(100);
  static final Duration OTHER_CLIENT_WAIT = Duration.ofSeconds(2);
  /**
   * Clause 11.6: requests written at once on one connection (TechEmpower's depth, and the deepest a
   * load client may use: about 13 KB, past a small first read), and how long all their answers may take.
   */
  static final List<Integer> PIPELINED = List.of(16, ConformanceSuite.DEEPEST_PIPELINE);
  static final Duration PIPELINE_WAIT = Duration.ofSeconds(5);
  /** Clause 11.2: how long a response may take to come whole. */
  static final Duration FRAMING_WAIT = Duration.ofSeconds(5);
  /** Clause 11.7: requests sent at once, each on a connection of its own. */
  static final int CONCURRENT = 32;

  /**
   * The requests of clause 11.3, each sent with Expect: 100-continue. A valid person needs its body
   * to be answered; the other two can be answered from the head alone (413, 415).
   */
  enum ExpectContinue {
    VALID_PERSON("a valid person", "application/json", "{\"name\":\"Expect\",\"age\":30}".getBytes(StandardCharsets.UTF_8)),
    OVER_ONE_MEBIBYTE("a body over 1 MiB", "application/json", Json.validBodyOfSize(Json.MIB + 1)),
    WRONG_MEDIA_TYPE("a text/plain body", "text/plain", "{\"name\":\"a\",\"age\":1}".getBytes(StandardCharsets.UTF_8));

    final String description;
    final String contentType;
    final byte[] body;

    ExpectContinue(String description, String contentType, byte[] body) {
      this.description = description;
      this.contentType = contentType;
      this.body = body;
    }

    byte[] head(HttpTarget server) {
      return server.raw().head("POST", server.target("/validate"), "Content-Type: " + contentType,
          "Content-Length: " + body.length, "Expect: 100-continue", "Connection: close");
    }

    @Override
    public String toString() {
      return "POST /validate with Expect: 100-continue, " + description;
    }
  }

  private final HttpTarget server;

  HttpBehaviourTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("11.1")
  @DisplayName("HTTP/1.1 keep-alive: one connection serves 200 sequential requests over all four endpoints")
  void oneConnectionServesManySequentialRequests() {
    server.requireResponsive("keep-alive");
    AtomicInteger connections = new AtomicInteger();
    AtomicInteger closeHeaders = new AtomicInteger();
    OkHttpClient client = server.newClientBuilder()
        .connectionPool(new ConnectionPool(1, 1, TimeUnit.MINUTES))
        // A connection the server dropped must show as a new connection, not be retried quietly.
        .retryOnConnectionFailure(false)
        .eventListener(new EventListener() {
          @Override
          public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
            connections.incrementAndGet();
          }
        })
        .build();
    try {
      for (int i = 0; i < REQUESTS; i++) {
        Request request = switch (i % 4) {
          case 0 -> new Request.Builder().url(server.url("/plaintext")).build();
          case 1 -> new Request.Builder().url(server.url("/json")).build();
          case 2 -> new Request.Builder().url(server.url("/user/" + i)).build();
          default -> new Request.Builder().url(server.url("/validate"))
              .post(RequestBody.create(("{\"name\":\"n" + i + "\",\"age\":" + (1 + i % 150) + "}")
                  .getBytes(StandardCharsets.UTF_8), JSON)).build();
        };
        String description = request.method() + " " + request.url().encodedPath();
        try (Response response = client.newCall(request).execute()) {
          byte[] body = HttpTarget.boundedBody(response.body().source());
          // Each answer is that request's own: a server that now and then repeats an answer, or serves a
          // kept-alive connection's later requests otherwise, is seen here.
          String expected = switch (i % 4) {
            case 0 -> "Hello, World!";
            case 1 -> "{\"message\":\"Hello, World!\"}";
            case 2 -> "{\"id\":\"" + i + "\",\"name\":\"User " + i + "\"}";
            default -> "{\"name\":\"n" + i + "\",\"age\":" + (1 + i % 150) + ",\"valid\":true}";
          };
          assertThat(response.code() == 200 && sameAnswer(body, expected, i % 4 == 0))
              .as("keep-alive, request %d of %d, %s: expected 200 %s, got %d %s", i + 1, REQUESTS, description, expected,
                  response.code(), Text.preview(body, 80))
              .isTrue();
          assertThat(response.protocol())
              .as("keep-alive: %s answered %s, expected HTTP/1.1", description, response.protocol())
              .isEqualTo(Protocol.HTTP_1_1);
          if ("close".equalsIgnoreCase(response.header("Connection"))) {
            closeHeaders.incrementAndGet();
          }
        } catch (IOException e) {
          throw server.noAnswer("keep-alive, request " + (i + 1) + " of " + REQUESTS + ", " + description, e);
        }
      }
    } finally {
      client.connectionPool().evictAll();
    }
    assertThat(connections.get())
        .as("%d sequential requests over /plaintext, /json, /user/{id}, /validate: expected one connection, needed %d%s",
            REQUESTS, connections.get(),
            closeHeaders.get() > 0 ? " (" + closeHeaders.get() + " responses carried Connection: close)" : "")
        .isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Probe.class)
  @Clause("11.2")
  @DisplayName("every response carries one Content-Length that is its body's length, or is chunked without one")
  void everyResponseHasContentLengthOrIsChunked(Probe probe) {
    String what = probe.describe();
    server.requireResponsive(what);
    try (RawConnection connection = server.raw(FRAMING_WAIT).open()) {
      // Keep-alive requests: a response meant to be followed by another must say where it ends.
      Thread writer = connection.writeInBackground(probe.bytes(server, false));
      RawResponse response;
      try {
        response = connection.read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError(what + ": " + (e.getMessage() != null && e.getMessage().startsWith("no complete response")
            ? e.getMessage() : "no answer within " + FRAMING_WAIT.toSeconds() + " s") + " (a body shorter than its Content-Length?)", e);
      } catch (EOFException e) {
        throw new AssertionError(what + ": " + e.getMessage() + " (a body shorter than its Content-Length?)", e);
      }
      List<String> lengths = response.headers().getOrDefault("Content-Length", List.of());
      assertThat(response.framing())
          .as("%s: the response (%s) has neither Content-Length nor Transfer-Encoding: chunked", what, response.statusLine())
          .isIn(RawResponse.Framing.CONTENT_LENGTH, RawResponse.Framing.CHUNKED);
      assertThat(response.framing() == RawResponse.Framing.CHUNKED && !lengths.isEmpty())
          .as("%s: the response (%s) has both Transfer-Encoding: chunked and Content-Length: %s (RFC 9112 6.2: a sender "
              + "must not; a client may believe either)", what, response.statusLine(), String.join(", ", lengths))
          .isFalse();
      assertThat(response.framing() == RawResponse.Framing.CONTENT_LENGTH
              && (lengths.size() != 1 || !lengths.getFirst().matches("[0-9]+")))
          .as("%s: the response (%s) needs one Content-Length, a number, got %s (RFC 9112 6.3: a client may believe "
              + "either of two)", what, response.statusLine(), String.join(" | ", lengths))
          .isFalse();
      if (probe == Probe.OVER_ONE_MEBIBYTE || response.header("Connection").filter("close"::equalsIgnoreCase).isPresent()) {
        return; // the server may answer 413 before reading the body; what follows it is 4.6's business
      }
      // The body ended where the framing said: the next request on the connection is answered as itself.
      writer.join(FRAMING_WAIT);
      Exchange alone = server.get("/plaintext");
      String next = what + ", then GET /plaintext on the same connection";
      RawResponse second;
      try {
        connection.write(server.raw().request("GET", server.target("/plaintext"), null, null, true));
        second = connection.read();
      } catch (NoResponseException e) {
        return; // closed after the answer: keep-alive is 11.1's business
      } catch (IOException e) {
        throw new AssertionError(next + ": " + pipelineReason(e) + ", after a response of " + response.body().length
            + " body bytes by its " + response.framing() + " framing: more body bytes than its framing said?", e);
      }
      assertThat(second.status() == alone.status() && Arrays.equals(second.body(), alone.body()))
          .as("%s: got %s, expected %s: the first response's body ran past its framing?", next,
              second.toExchange(next).summary(), alone.summary())
          .isTrue();
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(what + ": interrupted", e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(ExpectContinue.class)
  @Clause("11.3")
  @DisplayName("Expect: 100-continue gets 100 Continue then the final response, or the final response at once")
  void expectContinueIsAnswered(ExpectContinue request) {
    // The answer the same request gets without Expect: whether it is right is other clauses' business,
    // here Expect must change nothing but the 100 Continue before it.
    Exchange without = server.postRaw("/validate", request.contentType, request.body);
    server.requireResponsive(request.toString());
    try (RawConnection connection = server.raw().open()) {
      connection.write(request.head(server));
      RawResponse first;
      try {
        first = connection.readInterimOrFinal(CONTINUE_WAIT);
      } catch (SocketTimeoutException e) {
        // A client that waited in vain sends the body anyway: what comes then goes into the finding.
        connection.writeInBackground(request.body);
        throw new AssertionError(request + ": neither 100 Continue nor a final response within "
            + CONTINUE_WAIT.toSeconds() + " s of the head (RFC 9110 10.1.1); after the body was sent: "
            + answerOrReason(connection));
      }
      Exchange answer;
      if (first.status() == 100) {
        connection.writeInBackground(request.body);
        answer = connection.read().toExchange(request + ", body sent after 100 Continue");
      } else {
        answer = first.toExchange(request + ", answered before the body was sent");
        assertThat(without.status() / 100)
            .as("%s: expected 100 Continue (without Expect the request is answered %d, which needs the body), got %s",
                answer.request(), without.status(), answer.summary())
            .isNotEqualTo(2);
      }
      answeredAsWithoutExpect(answer, without);
    } catch (IOException e) {
      throw server.noAnswer(request.toString(), e);
    }
  }

  /**
   * Clauses 11.3 and 11.8: Expect changes nothing but the interim answer. The final answer has the
   * status and media type of the answer without Expect and, for a success, its body byte for byte.
   */
  private static void answeredAsWithoutExpect(Exchange answer, Exchange without) {
    assertThat(answer.status())
        .as("%s: expected status %d, as without Expect, got %s", answer.request(), without.status(), answer.summary())
        .isEqualTo(without.status());
    assertThat(answer.mediaType())
        .as("%s: expected the media type of the answer without Expect (%s), got %s", answer.request(),
            without.contentType(), answer.summary())
        .isEqualTo(without.mediaType());
    if (without.status() / 100 == 2 && !Arrays.equals(answer.body(), without.body())) {
      throw new AssertionError(answer.request() + ": expected the body of the answer without Expect, "
          + Text.preview(without.body(), 120) + ", got " + answer.summary());
    }
  }

  private static String answerOrReason(RawConnection connection) {
    try {
      return connection.read().toExchange("").summary();
    } catch (IOException e) {
      return "no answer (" + HttpTarget.reason(e) + ")";
    }
  }

  @Test
  @Clause("11.4")
  @DisplayName("512 connections open at once are all served")
  void manyOpenConnectionsAreAllServed() {
    server.requireResponsive(CONNECTIONS + " connections at once");
    String what = CONNECTIONS + " connections open at once, each sending GET /plaintext";
    String mediaType = server.get("/plaintext").mediaType();
    List<RawConnection> connections = new ArrayList<>();
    try {
      for (int i = 0; i < CONNECTIONS; i++) {
        try {
          connections.add(server.raw(Duration.ofSeconds(5)).open());
        } catch (IOException e) {
          throw new AssertionError(what + ": connection " + (i + 1) + " could not be opened (" + HttpTarget.reason(e) + ")", e);
        }
      }
      byte[] request = server.raw().head("GET", server.target("/plaintext"));
      long deadline = System.nanoTime() + CONNECTIONS_DEADLINE.toNanos();
      List<String> problems = new ArrayList<>();
      for (RawConnection connection : connections) {
        try {
          connection.write(request);
        } catch (IOException e) {
          problems.add("the request could not be written (" + HttpTarget.reason(e) + ")");
        }
      }
      int served = 0;
      for (RawConnection connection : connections) {
        Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), Duration.ofMillis(1).toNanos()));
        try {
          RawResponse response = connection.read(left);
          // Whether the answer is right is clause 1's business; here every connection must get one.
          // Under load as alone: 200 Hello, World! of the same media type, not a 429 or 503 for the
          // connections past a limit.
          Exchange answer = response.toExchange("");
          if (answer.status() == 200 && Arrays.equals(answer.body(), Expect.HELLO) && answer.mediaType().equals(mediaType)) {
            served++;
          } else {
            problems.add("got " + answer.summary());
          }
        } catch (IOException e) {
          problems.add(e instanceof SocketTimeoutException
              ? "no answer within " + CONNECTIONS_DEADLINE.toSeconds() + " s" : "no answer (" + HttpTarget.reason(e) + ")");
        }
      }
      assertThat(served)
          .as("%s: %d of %d were answered within %d s; the others: %s", what, served, CONNECTIONS,
              CONNECTIONS_DEADLINE.toSeconds(), summarise(problems))
          .isEqualTo(CONNECTIONS);
    } finally {
      connections.forEach(RawConnection::close);
    }
  }

  /** The distinct problems with how often each occurred, the first few only. */
  private static String summarise(List<String> problems) {
    List<String> lines = new ArrayList<>();
    problems.stream().distinct().limit(3).forEach(p -> lines.add(problems.stream().filter(p::equals).count() + " × " + p));
    long kinds = problems.stream().distinct().count();
    return String.join("; ", lines) + (kinds > 3 ? "; and " + (kinds - 3) + " other kinds" : "");
  }

  @Test
  @Clause("11.5")
  @DisplayName("a client sending its request head one byte every 100 ms does not hold up another client")
  void aSlowClientDoesNotHoldUpOthers() throws InterruptedException {
    String what = "while another connection sent its request head one byte every "
        + DRIBBLE_INTERVAL.toMillis() + " ms, GET /plaintext on a second connection";
    server.requireResponsive(what);
    // Long enough that the slow head is still incomplete when the check ends (about 7 s at this pace).
    byte[] slowHead = server.raw().head("GET", server.target("/plaintext"), "X-Slow: " + "s".repeat(40), "Connection: close");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger sent = new AtomicInteger();
    RawConnection opened;
    try {
      opened = server.raw().open();
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
    try (RawConnection slow = opened) {
      Thread dribbler = Thread.ofVirtual().name("slow-client").start(() -> {
        try {
          for (byte b : slowHead) {
            if (stop.get()) {
              return;
            }
            slow.write(new byte[] {b});
            sent.incrementAndGet();
            Thread.sleep(DRIBBLE_INTERVAL);
          }
        } catch (IOException | InterruptedException ignored) {
          // The server closed the slow connection, or the check is over.
        }
      });
      try {
        Thread.sleep(DRIBBLE_INTERVAL.multipliedBy(3).plusMillis(50));
        byte[] request = server.raw().request("GET", server.target("/plaintext"), null, null, true);
        long start = System.nanoTime();
        RawResponse response;
        try {
          response = server.raw(OTHER_CLIENT_WAIT).exchange(request);
        } catch (IOException e) {
          throw new AssertionError(what + ": no answer within " + OTHER_CLIENT_WAIT.toSeconds() + " s ("
              + (e instanceof SocketTimeoutException ? "timed out" : HttpTarget.reason(e)) + ")", e);
        }
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(response.status())
            .as("%s: expected an answer, got %s after %d ms", what, response.toExchange("").summary(), millis)
            .isLessThan(500);
        assertThat(sent.get())
            .as("%s: the slow head was already complete, so the check proves nothing", what)
            .isLessThan(slowHead.length);
      } finally {
        stop.set(true);
        dribbler.interrupt();
        dribbler.join(Duration.ofSeconds(1));
      }
    }
  }

  /**
   * One request of clauses 11.6 and 11.7: its bytes, the answer it gets on a connection of its own, and
   * the body the contract gives it (null where the answer alone is the measure).
   */
  private record Pipelined(String description, byte[] bytes, Exchange alone, String contracted) {
    /**
     * Why {@code answer} is not this request's answer, or null when it is: the status, the media type
     * and the body it gets on its own, and that answer the contract's (a server that caches one user's
     * answer for every id answers alone as wrongly as in a burst).
     */
    String mismatch(RawResponse answer) {
      String got = answer.status() + " " + answer.header("Content-Type").orElse("(no Content-Type)") + " "
          + (answer.body().length == 0 ? "(empty body)" : Text.preview(answer.body(), 80));
      if (contracted != null && !(alone.status() == 200 && sameAnswer(alone.body(), contracted, false))) {
        return "expected 200 " + contracted + ", and so it is not even alone (" + alone.summary() + "); got " + got;
      }
      if (answer.status() == alone.status() && Arrays.equals(answer.body(), alone.body())
          && contentType(answer.header("Content-Type")).equals(contentType(alone.header("Content-Type")))) {
        return null;
      }
      return "expected what it gets on its own, " + alone.status() + " " + alone.header("Content-Type").orElse("(no Content-Type)")
          + " " + Text.preview(alone.body(), 80) + ", got " + got;
    }

    private static String contentType(Optional<String> value) {
      return value.map(v -> v.replace(" ", "").toLowerCase(Locale.ROOT)).orElse("");
    }
  }

  private Pipelined pipelinedGet(String path) {
    String contracted = path.startsWith("/user/")
        ? "{\"id\":\"" + path.substring("/user/".length()) + "\",\"name\":\"User " + path.substring("/user/".length()) + "\"}"
        : null;
    return new Pipelined("GET " + path, server.raw().head("GET", server.target(path)), server.get(path), contracted);
  }

  private Pipelined pipelinedValidate(String name, int age) {
    String json = "{\"name\":\"" + name + "\",\"age\":" + age + "}";
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    return new Pipelined("POST /validate " + json,
        server.raw().request("POST", server.target("/validate"), "application/json", body, false), server.postJson(json),
        "{\"name\":\"" + name + "\",\"age\":" + age + ",\"valid\":true}");
  }

  /** The body is the expected text exactly (plain text) or the same JSON value (key order and spacing aside). */
  private static boolean sameAnswer(byte[] body, String expected, boolean plainText) {
    if (plainText) {
      return Arrays.equals(body, expected.getBytes(StandardCharsets.UTF_8));
    }
    try {
      return Json.parse(body).equals(Json.parse(expected.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      return false;
    }
  }

  @ParameterizedTest(name = "{0} requests")
  @FieldSource("PIPELINED")
  @Clause("11.6")
  @DisplayName("pipelined GET requests are answered in order, each as itself, and the connection stays usable")
  void pipelinedRequestsAreAnsweredInOrder(int depth) {
    List<Pipelined> burst = new ArrayList<>();
    for (int i = 0; i < depth; i++) {
      // A /user/<n> first and last: a server that answers only one request of the burst, the first or
      // the last, is seen answering the wrong one.
      burst.add(pipelinedGet(switch ((i + 2) % 3) {
        case 0 -> "/plaintext";
        case 1 -> "/json";
        default -> "/user/" + (1100 + i);
      }));
    }
    checkPipeline(depth + " requests written at once on one connection (GET /plaintext, /json, /user/<n>)",
        burst, pipelinedGet("/user/" + (1100 + depth)));
  }

  @Test
  @Clause("11.6")
  @DisplayName("two pipelined POST /validate requests are answered in order, each as itself")
  void pipelinedValidateRequestsAreAnsweredInOrder() {
    List<Pipelined> pair = List.of(
        pipelinedValidate("Pipelined first", 21),
        pipelinedValidate("Pipelined second", 42));
    checkPipeline("two POST /validate requests written at once on one connection", pair, pipelinedGet("/plaintext"));
  }

  /**
   * Writes the burst in one go, reads its answers in order within {@link #PIPELINE_WAIT}, then sends
   * {@code after} on the same connection and reads its answer.
   */
  private void checkPipeline(String what, List<Pipelined> burst, Pipelined after) {
    server.requireResponsive(what);
    byte[] all = new byte[0];
    for (Pipelined request : burst) {
      all = RawHttp.concat(all, request.bytes());
    }
    List<String> mismatches = new ArrayList<>();
    try (RawConnection connection = server.raw(PIPELINE_WAIT).open()) {
      connection.write(all);
      long deadline = System.nanoTime() + PIPELINE_WAIT.toNanos();
      for (int i = 0; i < burst.size(); i++) {
        RawResponse answer = readPipelined(connection, deadline, what, i, burst, mismatches);
        String mismatch = burst.get(i).mismatch(answer);
        if (mismatch != null) {
          mismatches.add("answer " + (i + 1) + " (" + burst.get(i).description() + "): " + mismatch
              + answerOfAnother(answer, burst, i));
        }
      }
      if (!mismatches.isEmpty()) {
        throw new AssertionError(what + ": " + mismatches.size() + " of " + burst.size()
            + " answers are not the answer to the request sent in that place; " + String.join("; ", mismatches.subList(0, Math.min(3, mismatches.size())))
            + (mismatches.size() > 3 ? "; and " + (mismatches.size() - 3) + " more" : ""));
      }
      String next = what + ", then, after their answers, " + after.description() + " on the same connection";
      RawResponse answer;
      try {
        connection.write(after.bytes());
        answer = connection.read(PIPELINE_WAIT);
      } catch (IOException e) {
        throw new AssertionError(next + ": no answer (" + pipelineReason(e) + "): the connection is not usable after the burst", e);
      }
      String mismatch = after.mismatch(answer);
      assertThat(mismatch).as("%s: %s", next, mismatch).isNull();
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
  }

  /** The answer in place {@code i}, or the finding: how many came, and what was wrong with them. */
  private static RawResponse readPipelined(RawConnection connection, long deadline, String what, int i,
      List<Pipelined> burst, List<String> mismatches) {
    Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), Duration.ofMillis(1).toNanos()));
    try {
      return connection.read(left);
    } catch (IOException e) {
      throw new AssertionError(what + ": " + (i == 0 ? "no answer" : i == 1 ? "only 1 answer" : "only " + i + " answers") + " of " + burst.size()
          + "; answer " + (i + 1) + " (" + burst.get(i).description() + "): " + pipelineReason(e)
          + (mismatches.isEmpty() ? "" : "; and before it " + String.join("; ", mismatches)), e);
    }
  }

  private static String pipelineReason(IOException e) {
    return e instanceof SocketTimeoutException
        ? "none within " + PIPELINE_WAIT.toSeconds() + " s" : HttpTarget.reason(e);
  }

  /** Names the request of the burst whose answer {@code answer} is, when it is another one's. */
  private static String answerOfAnother(RawResponse answer, List<Pipelined> burst, int position) {
    for (int j = 0; j < burst.size(); j++) {
      if (j != position && !burst.get(j).description().equals(burst.get(position).description())
          && burst.get(j).mismatch(answer) == null) {
        return " (the answer to request " + (j + 1) + ", " + burst.get(j).description() + ")";
      }
    }
    return "";
  }

  @Test
  @Clause("11.7")
  @DisplayName("32 requests sent at once on 32 connections (GET /user/<n>, POST /validate) are each answered as themselves")
  void concurrentRequestsAreEachAnsweredAsThemselves() {
    List<Pipelined> requests = new ArrayList<>();
    for (int i = 0; i < CONCURRENT; i++) {
      requests.add(i % 2 == 0
          ? pipelinedGet("/user/" + (2200 + i))
          : pipelinedValidate("Concurrent " + (2200 + i), 1 + i));
    }
    String what = CONCURRENT + " requests sent at once, each on a connection of its own (GET /user/<n>, POST /validate with distinct names)";
    server.requireResponsive(what);
    List<RawConnection> connections = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    try {
      for (int i = 0; i < CONCURRENT; i++) {
        try {
          connections.add(server.raw(PIPELINE_WAIT).open());
        } catch (IOException e) {
          throw new AssertionError(what + ": connection " + (i + 1) + " could not be opened (" + HttpTarget.reason(e) + ")", e);
        }
      }
      for (int i = 0; i < CONCURRENT; i++) {
        try {
          connections.get(i).write(requests.get(i).bytes());
        } catch (IOException e) {
          wrong.add("request " + (i + 1) + " (" + requests.get(i).description() + ") could not be written (" + HttpTarget.reason(e) + ")");
        }
      }
      long deadline = System.nanoTime() + PIPELINE_WAIT.toNanos();
      for (int i = 0; i < CONCURRENT; i++) {
        Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), Duration.ofMillis(1).toNanos()));
        try {
          RawResponse answer = connections.get(i).read(left);
          String mismatch = requests.get(i).mismatch(answer);
          if (mismatch != null) {
            wrong.add("request " + (i + 1) + " (" + requests.get(i).description() + "): " + mismatch + answerOfAnother(answer, requests, i));
          }
        } catch (IOException e) {
          wrong.add("request " + (i + 1) + " (" + requests.get(i).description() + "): no answer (" + pipelineReason(e) + ")");
        }
      }
    } finally {
      connections.forEach(RawConnection::close);
    }
    assertThat(wrong)
        .as("%s: %d of %d are not answered as they are alone (state shared between requests?): %s", what, wrong.size(), CONCURRENT,
            String.join("; ", wrong.subList(0, Math.min(3, wrong.size()))) + (wrong.size() > 3 ? "; and " + (wrong.size() - 3) + " more" : ""))
        .isEmpty();
  }

  /**
   * Clause 11.8: the expectation of 11.3 in another letter case. RFC 9110 10.1.1 makes it
   * case-insensitive, so it must be answered as 11.3's; a runtime whose parser matches it
   * case-sensitively and has no setting or hook for it (a runtime-parser exception) WARNs: silence
   * until the body comes anyway, then the usual answer (Bun), or 417 Expectation Failed (bjoern).
   */
  @ParameterizedTest(name = "Expect: {0}")
  @ValueSource(strings = {"100-Continue", "100-CONTINUE"})
  @Clause(value = "11.8", severity = Severity.WARN)
  @DisplayName("Expect: 100-Continue (another letter case) is answered as 100-continue: 100 Continue, then the status without Expect")
  void expectContinueInAnotherLetterCaseIsAnswered(String expectation) {
    ExpectContinue request = ExpectContinue.VALID_PERSON;
    String what = "POST /validate with Expect: " + expectation + ", " + request.description;
    Exchange without = server.postRaw("/validate", request.contentType, request.body);
    server.requireResponsive(what);
    try (RawConnection connection = server.raw().open()) {
      connection.write(server.raw().head("POST", server.target("/validate"), "Content-Type: " + request.contentType,
          "Content-Length: " + request.body.length, "Expect: " + expectation, "Connection: close"));
      RawResponse first;
      try {
        first = connection.readInterimOrFinal(CONTINUE_WAIT);
      } catch (SocketTimeoutException e) {
        // A client that waited in vain sends the body anyway: the answer must then be the usual one.
        connection.writeInBackground(request.body);
        Exchange late = connection.read().toExchange(what + ", body sent after " + CONTINUE_WAIT.toSeconds() + " s without an answer");
        answeredAsWithoutExpect(late, without);
        throw new ImplementationDefined(what + ": neither 100 Continue nor a final response within " + CONTINUE_WAIT.toSeconds()
            + " s of the head (the expectation matched case-sensitively, RFC 9110 10.1.1 makes it case-insensitive); "
            + "once the body was sent anyway: " + late.summary());
      }
      if (first.status() == 100) {
        connection.writeInBackground(request.body);
        answeredAsWithoutExpect(connection.read().toExchange(what + ", body sent after 100 Continue"), without);
        return;
      }
      Exchange answer = first.toExchange(what + ", answered before the body was sent");
      if (answer.status() == 417) {
        throw new ImplementationDefined(answer.request() + ": 417 Expectation Failed (the expectation matched case-sensitively, "
            + "RFC 9110 10.1.1 makes it case-insensitive)");
      }
      throw new AssertionError(answer.request() + ": expected 100 Continue (without Expect the request is answered "
          + without.status() + ", which needs the body), got " + answer.summary());
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
  }

  /** Clause 11.9: how long the server may take to close the connection after its answer. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

  /**
   * Clause 11.9, RFC 9112 9.6: a server that receives the close connection option MUST close the
   * connection after its answer to that request. One that keeps it open makes a load client's
   * "one connection per request" run measure keep-alive, and one that answers a request sent after
   * it answers what it must not process.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"GET /plaintext with Connection: close", "GET /json with Connection: Close",
      "GET /user/42 with Connection: CLOSE", "POST /validate with a valid person and Connection: close",
      "POST /validate with an invalid person and Connection: close"})
  @Clause("11.9")
  @DisplayName("a request with Connection: close (in any letter case) is answered, then the server closes the connection")
  void connectionCloseClosesTheConnectionAfterTheAnswer(String what) {
    String[] words = what.split(" ");
    String option = what.substring(what.indexOf("Connection: "));
    byte[] body = what.contains("an invalid person") ? "{\"name\":\"\",\"age\":1}".getBytes(StandardCharsets.UTF_8)
        : what.contains("a valid person") ? "{\"name\":\"Ada\",\"age\":36}".getBytes(StandardCharsets.UTF_8) : null;
    answeredThenClosed(what, server.raw().request(words[0], server.target(words[1]), List.of(option),
        body == null ? null : "application/json", body, false));
  }

  /**
   * Clause 11.9 for HTTP/1.0 (RFC 9112 9.3): without the keep-alive option the connection closes
   * after the answer, and that answer is not chunked, a coding HTTP/1.0 does not know (RFC 9112 6.1).
   */
  @ParameterizedTest(name = "{0} {1} as HTTP/1.0")
  @CsvSource({"GET, /plaintext", "GET, /json", "POST, /validate"})
  @Clause("11.9")
  @DisplayName("an HTTP/1.0 request without keep-alive is answered, not chunked, then the server closes the connection")
  void http10RequestIsAnsweredWithoutChunksThenTheConnectionClosed(String method, String path) {
    String what = method + " " + path + " as HTTP/1.0, without Connection: keep-alive";
    byte[] body = method.equals("POST") ? "{\"name\":\"Ada\",\"age\":36}".getBytes(StandardCharsets.UTF_8) : null;
    byte[] http11 = server.raw().request(method, server.target(path), body == null ? null : "application/json", body, false);
    String request = new String(http11, StandardCharsets.ISO_8859_1)
        .replaceFirst(" HTTP/1\\.1\r\n", " HTTP/1.0\r\n");
    RawResponse answer = answeredThenClosed(what, request.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(answer.framing())
        .as("%s: answered %s in the chunked transfer coding, which an HTTP/1.0 client does not know (RFC 9112 6.1)",
            what, answer.statusLine())
        .isNotEqualTo(RawResponse.Framing.CHUNKED);
  }

  /** Sends the request on a connection of its own: it must be answered (below 500), then the connection closed. */
  private RawResponse answeredThenClosed(String what, byte[] request) {
    server.requireResponsive(what);
    try (RawConnection connection = server.raw().open()) {
      connection.write(request);
      RawResponse response = connection.read();
      Exchange answer = response.toExchange(what);
      assertThat(answer.status()).as("%s: expected an answer, got %s", what, answer.summary()).isBetween(200, 499);
      byte[] more;
      try {
        more = connection.awaitClose(CLOSE_WAIT);
      } catch (SocketTimeoutException e) {
        throw new AssertionError(what + ": answered " + answer.summary() + ", then the connection was still open "
            + CLOSE_WAIT.toSeconds() + " s later (RFC 9112 9.6: the server must close it after that answer)", e);
      }
      assertThat(more).as("%s: answered %s, then sent %d more bytes before closing: %s", what, answer.summary(),
          more.length, Text.preview(more, 120)).isEmpty();
      return response;
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
  }

  /**
   * Clause 11.10: every answer's head, as sent, is HTTP/1.1's syntax, and its Date, if any, is a date
   * in the one format a sender may use and near the time. Each request goes on a connection of its
   * own, kept alive as a load client's would be.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "GET /plaintext | GET | /plaintext | | ",
      "GET /json | GET | /json | | ",
      "GET /user/42 | GET | /user/42 | | ",
      "POST /validate with a valid person (200) | POST | /validate | application/json | {\"name\":\"Ada\",\"age\":36}",
      "POST /validate with an invalid person (400) | POST | /validate | application/json | {\"name\":\"\",\"age\":36}",
      "POST /validate with malformed JSON (400) | POST | /validate | application/json | {\"name\":",
      "POST /validate as text/plain (415) | POST | /validate | text/plain | {\"name\":\"Ada\",\"age\":36}",
      "GET /nowhere (404) | GET | /nowhere | | ",
      "DELETE /json (405) | DELETE | /json | | "})
  @Clause("11.10")
  @DisplayName("every answer's head is well-formed HTTP/1.1: CRLF line ends, a status line, name: value fields, an IMF-fixdate Date near the time")
  void answerHeadsAreWellFormed(String what, String method, String path, String contentType, String body) {
    server.requireResponsive(what);
    try (RawConnection connection = server.raw().open()) {
      connection.write(server.raw().request(method, server.target(path), contentType,
          body == null ? null : body.getBytes(StandardCharsets.UTF_8), false));
      RawResponse answer = connection.read();
      List<String> faults = ResponseHeadSyntax.faults(answer.head(), Instant.now());
      if (!faults.isEmpty()) {
        throw new AssertionError(what + ": answered " + Text.preview(answer.statusLine(), 60) + ", whose head "
            + (faults.size() == 1 ? "has a fault: " : "has " + faults.size() + " faults: ") + String.join("; ", faults));
      }
    } catch (IOException e) {
      throw server.noAnswer(what, e);
    }
  }
}
