package dev.fairbench.conformance.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RawHttpTest {
  /** What the fake server does with one connection. */
  interface Script {
    void run(Socket socket) throws IOException;
  }

  private ServerSocket listener;
  private RawHttp raw;
  private CompletableFuture<byte[]> received;

  @BeforeEach
  void listen() throws IOException {
    listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    raw = new RawHttp("127.0.0.1", listener.getLocalPort(), Duration.ofSeconds(2));
  }

  @AfterEach
  void close() throws IOException {
    listener.close();
  }

  /** Accepts one connection, reads the request head, runs the script, and records what was read. */
  private void serve(Script script) {
    // A thread of its own: scripts sleep, and a shared pool could leave the next test unserved.
    received = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try (Socket socket = listener.accept()) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b == -1) {
            break;
          }
          head.write(b);
        }
        script.run(socket);
        received.complete(head.toByteArray());
      } catch (IOException e) {
        received.completeExceptionally(e);
      }
    });
  }

  private static void answer(Socket socket, String response) throws IOException {
    socket.getOutputStream().write(response.getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
  }

  @Test
  void readsAContentLengthResponseAndSendsTheRequestVerbatim() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"));
    RawResponse response = raw.exchange(raw.head("GET", "/plaintext"));
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.header("content-type")).contains("text/plain");
    assertThat(response.framing()).isEqualTo(RawResponse.Framing.CONTENT_LENGTH);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("Hello, World!");
    assertThat(new String(received.get(2, TimeUnit.SECONDS), StandardCharsets.ISO_8859_1))
        .isEqualTo("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:" + listener.getLocalPort() + "\r\n\r\n");
  }

  @Test
  void decodesChunkedBodiesWithExtensionsAndTrailers() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;ext=1\r\nHello\r\n8\r\n, World!\r\n0\r\nX-Trailer: yes\r\n\r\n"));
    RawResponse response = raw.exchange(raw.head("GET", "/"));
    assertThat(response.framing()).isEqualTo(RawResponse.Framing.CHUNKED);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("Hello, World!");
  }

  @Test
  void keepsTheFinalResponsesHeadAsSentLineEndsIncluded() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 2\r\nDate: x\n\r\nok"));
    RawResponse response = raw.exchange(raw.head("GET", "/"));
    assertThat(new String(response.head(), StandardCharsets.ISO_8859_1))
        .isEqualTo("HTTP/1.1 200 OK\nContent-Length: 2\r\nDate: x\n\r\n");
    assertThat(new String(response.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
  }

  @Test
  void readsABodyWithoutLengthUntilTheServerCloses() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 200 OK\r\n\r\nuntil close"));
    RawResponse response = raw.exchange(raw.head("GET", "/"));
    assertThat(response.framing()).isEqualTo(RawResponse.Framing.UNTIL_CLOSE);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("until close");
  }

  @Test
  void skipsInterimResponses() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"));
    RawResponse response = raw.exchange(raw.head("GET", "/"));
    assertThat(response.status()).isEqualTo(204);
    assertThat(response.framing()).isEqualTo(RawResponse.Framing.NO_BODY);
  }

  @Test
  void aConnectionKeepsWhatFollowsAResponseForTheNextRead() throws Exception {
    // Two responses in one write: the second must not be lost in the first read's buffer.
    serve(s -> answer(s, "HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\nnoHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nsmuggled!"));
    try (RawConnection connection = raw.open()) {
      connection.write(raw.head("POST", "/validate"));
      assertThat(connection.read().status()).isEqualTo(400);
      RawResponse next = connection.read(Duration.ofSeconds(1));
      assertThat(next.status()).isEqualTo(200);
      assertThat(new String(next.body(), StandardCharsets.US_ASCII)).isEqualTo("smuggled!");
    }
  }

  @Test
  void aConnectionCanSeeAnInterimResponse() throws Exception {
    serve(s -> answer(s, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    try (RawConnection connection = raw.open()) {
      connection.write(raw.head("POST", "/validate", "Expect: 100-continue"));
      RawResponse interim = connection.readInterimOrFinal(Duration.ofSeconds(1));
      assertThat(interim.status()).isEqualTo(100);
      assertThat(interim.framing()).isEqualTo(RawResponse.Framing.NO_BODY);
      assertThat(connection.readInterimOrFinal(Duration.ofSeconds(1)).status()).isEqualTo(200);
    }
  }

  @Test
  void aConnectionReadTimesOutWhenNothingComes() throws Exception {
    serve(s -> sleep(1500));
    try (RawConnection connection = raw.open()) {
      connection.write(raw.head("GET", "/"));
      assertThatThrownBy(() -> connection.read(Duration.ofMillis(200))).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void headOnlyReportsFramingWithoutWaitingForTheBody() throws Exception {
    // The body never ends: reading it would time out.
    serve(s -> {
      answer(s, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial");
      sleep(3000);
    });
    RawResponse response = raw.exchangeHead(raw.head("GET", "/"));
    assertThat(response.framing()).isEqualTo(RawResponse.Framing.CONTENT_LENGTH);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void readsAnEarlyAnswerWhileTheBodyIsStillBeingSent() throws Exception {
    // Like a server enforcing a body limit: answers 413 after the head and closes without reading the body.
    serve(s -> {
      answer(s, "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      s.shutdownOutput();
      sleep(200);
    });
    byte[] body = new byte[8 * 1024 * 1024];
    RawResponse response = raw.exchange(raw.request("POST", "/validate", "application/json", body));
    assertThat(response.status()).isEqualTo(413);
  }

  @Test
  void halfCloseLetsTheServerSeeTheEndOfAShortBody() throws Exception {
    serve(s -> {
      byte[] rest = s.getInputStream().readAllBytes();
      answer(s, "HTTP/1.1 400 Bad Request\r\nContent-Length: " + rest.length + "\r\n\r\n" + new String(rest, StandardCharsets.US_ASCII));
    });
    byte[] request = RawHttp.concat(raw.head("POST", "/validate", "Content-Length: 100"), "short".getBytes(StandardCharsets.US_ASCII));
    RawResponse response = raw.exchangeThenHalfClose(request);
    assertThat(response.status()).isEqualTo(400);
    assertThat(new String(response.body(), StandardCharsets.US_ASCII)).isEqualTo("short");
  }

  @Test
  void aConnectionClosedWithoutAnswerIsNoResponse() {
    serve(s -> { });
    assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/")))
        .isInstanceOf(NoResponseException.class)
        .hasMessageContaining("without answering");
  }

  @Test
  void somethingThatIsNotHttpIsAProtocolError() {
    serve(s -> answer(s, "SSH-2.0-OpenSSH_9.2\r\n"));
    assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/")))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("not an HTTP status line: SSH-2.0");
  }

  @Test
  void aSilentServerTimesOut() {
    serve(s -> sleep(3000));
    assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/"))).isInstanceOf(SocketTimeoutException.class);
  }

  @Test
  void aBodyCutShortIsAnError() {
    serve(s -> answer(s, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("3 of 10 body bytes");
  }

  @Test
  void aContentLengthThatIsNotDigitsIsInvalid() {
    serve(s -> answer(s, "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nHello"));
    assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/")))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("invalid Content-Length: +5");
  }

  @Test
  void aContentLengthPastWhatTheSuiteReadsIsSaidToBeSoEvenPastWhatALongHolds() {
    // Valid (1*DIGIT, no bound), but not read: the server would have the suite wait for a terabyte.
    for (String length : new String[] {"1000000000000", "99999999999999999999999"}) {
      serve(s -> answer(s, "HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\nHello"));
      assertThatThrownBy(() -> raw.exchange(raw.head("GET", "/")))
          .isInstanceOf(ProtocolException.class)
          .hasMessageStartingWith("Content-Length ")
          .hasMessageContaining("is past the");
    }
  }

  @Test
  void requestsCarryContentLengthAndCloseWhenAsked() {
    String request = new String(raw.request("POST", "/validate", "application/json", "{}".getBytes(StandardCharsets.US_ASCII)),
        StandardCharsets.US_ASCII);
    assertThat(request).startsWith("POST /validate HTTP/1.1\r\n")
        .contains("\r\nContent-Type: application/json\r\n", "\r\nContent-Length: 2\r\n", "\r\nConnection: close\r\n")
        .endsWith("\r\n\r\n{}");
    String keepAlive = new String(raw.request("GET", "/json", null, null, false), StandardCharsets.US_ASCII);
    assertThat(keepAlive).doesNotContain("Content-Length", "Connection", "Content-Type").endsWith("\r\n\r\n");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
