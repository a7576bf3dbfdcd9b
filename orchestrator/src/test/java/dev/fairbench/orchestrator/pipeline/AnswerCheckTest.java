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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AnswerCheckTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /**
   * Accepts one connection and answers each request on it with the next of {@code answers} (the last
   * one again once they run out), keeping it open as a keep-alive server does; the requests' heads are kept.
   */
  private static URI serve(List<String> requests, String... answers) throws IOException {
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(() -> {
      try (server; Socket socket = server.accept()) {
        InputStream in = socket.getInputStream();
        for (int n = 0; ; n++) {
          ByteArrayOutputStream head = new ByteArrayOutputStream();
          while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
              return;
            }
            head.write(b);
          }
          String text = head.toString(StandardCharsets.ISO_8859_1);
          requests.add(text);
          Matcher length = Pattern.compile("Content-Length: (\\d+)").matcher(text);
          in.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
          socket.getOutputStream().write(answers[Math.min(n, answers.length - 1)].getBytes(StandardCharsets.ISO_8859_1));
          socket.getOutputStream().flush();
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
    List<String> requests = new CopyOnWriteArrayList<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(requests, answer), Endpoint.PLAINTEXT, false, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 13));
    assertThat(requests.getFirst()).startsWith("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:").doesNotContain("Connection");
  }

  @Test
  void onAKeptAliveConnectionTheRequestGoesTwiceAndTheSecondAnswerIsCounted() throws IOException {
    String first = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-First: yes\r\nContent-Length: 13\r\n\r\nHello, World!";
    String then = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
    List<String> requests = new CopyOnWriteArrayList<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(requests, first, then), Endpoint.PLAINTEXT, false, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(then.length(), 13));
    assertThat(requests).hasSize(2);
  }

  @Test
  void aWrongSecondAnswerOnTheConnectionFailsTheCheckThoughTheFirstWasRight() throws IOException {
    String right = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
    String forged = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, Wor1d!";
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(new CopyOnWriteArrayList<>(), right, forged), Endpoint.PLAINTEXT,
        false, TIMEOUT);
    assertThat(outcome).isInstanceOf(AnswerCheck.Wrong.class);
    assertThat(((AnswerCheck.Wrong) outcome).why()).startsWith("the load client's own request, sent again on the same "
        + "connection: ").contains("Wor1d");
  }

  @Test
  void aChunkedAnswerCountsItsFramingToo() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "1b\r\n{\"message\":\"Hello, World!\"}\r\n0\r\n\r\n";
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(new CopyOnWriteArrayList<>(), answer), Endpoint.JSON, false,
        TIMEOUT);
    assertThat(outcome).as("the body without its chunk framing is what oha counts")
        .isEqualTo(new AnswerCheck.Size(answer.length(), 27));
  }

  @Test
  void aWrongAnswerToTheLoadClientsOwnRequestFailsTheCheck() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHello";
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(new CopyOnWriteArrayList<>(), answer), Endpoint.PLAINTEXT,
        false, TIMEOUT);
    assertThat(outcome).isInstanceOf(AnswerCheck.Wrong.class);
    assertThat(((AnswerCheck.Wrong) outcome).why()).startsWith("the load client's own request: ").contains("Hello");
  }

  @Test
  void aNoKeepAliveCellsRequestSaysConnectionCloseAsItsLoadDoesAndGoesOnce() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\nConnection: close\r\n\r\n"
        + "{\"name\":\"Alice\",\"age\":30,\"valid\":true}";
    List<String> requests = new CopyOnWriteArrayList<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(requests, answer), Endpoint.VALIDATE, true, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 38));
    assertThat(requests).singleElement().asString().startsWith("POST /validate HTTP/1.1\r\n")
        .contains("Connection: close\r\n").contains("Content-Type: application/json\r\n")
        .contains("Content-Length: 25\r\n");
  }

  @Test
  void aServerThatClosesAfterItsFirstAnswerIsAnsweredOnceAsUnderTheLoad() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"
        + "Hello, World!";
    List<String> requests = new CopyOnWriteArrayList<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(requests, answer), Endpoint.PLAINTEXT, false, TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 13));
    assertThat(requests).hasSize(1);
  }

  @Test
  void ohasRequestCarriesTheHeadersOhaAddsBeforeTheBodys() throws IOException {
    String answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\n"
        + "{\"name\":\"Alice\",\"age\":30,\"valid\":true}";
    List<String> requests = new CopyOnWriteArrayList<>();
    AnswerCheck.Outcome outcome = AnswerCheck.check(serve(requests, answer), Endpoint.VALIDATE, false,
        OhaLoadGenerator.requestHeaders("oha 1.16.0"), TIMEOUT);
    assertThat(outcome).isEqualTo(new AnswerCheck.Size(answer.length(), 38));
    assertThat(requests.getFirst()).startsWith("POST /validate HTTP/1.1\r\nHost: 127.0.0.1:")
        .contains("\r\naccept: */*\r\nuser-agent: oha/1.16.0\r\nContent-Type: application/json\r\nContent-Length: 25\r\n")
        .doesNotContain("Connection").doesNotContainIgnoringCase("accept-encoding");
  }
}
