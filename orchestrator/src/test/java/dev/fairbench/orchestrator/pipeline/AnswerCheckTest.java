package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AnswerCheckTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** Answers one connection with the given bytes, keeping it open as a keep-alive server does; what it read is kept. */
  private static URI serveOnce(String answer, AtomicReference<String> request) throws IOException {
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(() -> {
      try (server; Socket socket = server.accept()) {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
          head.write(in.read());
        }
        request.set(head.toString(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        while (in.read() >= 0) {
          // the request's body, if any, then until the client closes
        }
      } catch (IOException e) {
        // the test reads what the check concluded
      }
    });
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  @Test
  void theCheckedAnswerIsCountedToTheByteStatusLineHeadersAndBody() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
    AtomicReference<String> request = new AtomicReference<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serveOnce(answer, request), Endpoint.PLAINTEXT, false, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 13));
    assertThat(request.get()).startsWith("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:").doesNotContain("Connection");
  }

  @Test
  void aChunkedAnswerCountsItsFramingToo() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "1b\r\n{\"message\":\"Hello, World!\"}\r\n0\r\n\r\n";
    AnswerCheck.Outcome outcome = AnswerCheck.check(serveOnce(answer, new AtomicReference<>()), Endpoint.JSON, false, TIMEOUT);
    assertThat(outcome).as("the body without its chunk framing is what oha counts")
        .isEqualTo(new AnswerCheck.Size(answer.length(), 27));
  }

  @Test
  void aWrongAnswerToTheLoadClientsOwnRequestFailsTheCheck() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHello";
    AnswerCheck.Outcome outcome = AnswerCheck.check(serveOnce(answer, new AtomicReference<>()), Endpoint.PLAINTEXT, false, TIMEOUT);
    assertThat(outcome).isInstanceOf(AnswerCheck.Wrong.class);
    assertThat(((AnswerCheck.Wrong) outcome).why()).contains("the load client's own request").contains("Hello");
  }

  @Test
  void aNoKeepAliveCellsRequestSaysConnectionCloseAsItsLoadDoes() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\nConnection: close\r\n\r\n"
        + "{\"name\":\"Alice\",\"age\":30,\"valid\":true}";
    AtomicReference<String> request = new AtomicReference<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serveOnce(answer, request), Endpoint.VALIDATE, true, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 38));
    assertThat(request.get()).startsWith("POST /validate HTTP/1.1\r\n").contains("Connection: close\r\n")
        .contains("Content-Type: application/json\r\n").contains("Content-Length: 25\r\n");
  }

  @Test
  void ohasRequestCarriesTheHeadersOhaAddsBeforeTheBodys() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\n"
        + "{\"name\":\"Alice\",\"age\":30,\"valid\":true}";
    AtomicReference<String> request = new AtomicReference<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serveOnce(answer, request), Endpoint.VALIDATE, false,
        OhaLoadGenerator.requestHeaders("oha 1.16.0"), TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 38));
    assertThat(request.get()).startsWith("POST /validate HTTP/1.1\r\nHost: 127.0.0.1:")
        .contains("\r\naccept: */*\r\nuser-agent: oha/1.16.0\r\nContent-Type: application/json\r\nContent-Length: 25\r\n")
        .doesNotContain("Connection").doesNotContainIgnoringCase("accept-encoding");
  }
}
