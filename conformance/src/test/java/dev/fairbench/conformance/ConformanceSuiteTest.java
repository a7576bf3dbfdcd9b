package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ConformanceSuiteTest {
  @Test
  void aClosedPortIsUnreachable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + port);
    assertThatThrownBy(() -> ConformanceSuite.run(url))
        .isInstanceOf(UnreachableServerException.class)
        .hasMessage("cannot reach " + url + ": connection refused (is the server running on that port?)");
  }

  @Test
  void aServerThatDoesNotSpeakHttpIsUnreachable() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual().start(() -> {
        try (Socket socket = listener.accept(); OutputStream out = socket.getOutputStream()) {
          out.write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          socket.getInputStream().read();
        } catch (IOException ignored) {
          // the client hung up
        }
      });
      URI url = URI.create("http://127.0.0.1:" + listener.getLocalPort());
      assertThatThrownBy(() -> ConformanceSuite.run(url))
          .isInstanceOf(UnreachableServerException.class)
          .hasMessageStartingWith("cannot reach " + url + ": ")
          .hasMessageContaining("SSH-2.0");
    }
  }

  @Test
  void aServerThatNeverAnswersIsUnreachableAfterFiveSeconds() throws Exception {
    // Never accepted: the kernel completes the handshake from the backlog, and nothing answers.
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      URI url = URI.create("http://127.0.0.1:" + listener.getLocalPort());
      assertThatThrownBy(() -> ConformanceSuite.run(url))
          .isInstanceOf(UnreachableServerException.class)
          .hasMessage("cannot reach " + url + ": no HTTP answer to GET /plaintext within 5 s");
    }
  }

  @Test
  void aUrlThatIsNotHttpIsRejectedBeforeAnyRequest() {
    assertThatThrownBy(() -> ConformanceSuite.run(URI.create("ftp://127.0.0.1:21")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http://HOST:PORT");
    assertThatThrownBy(() -> ConformanceSuite.run(URI.create("127.0.0.1:8080")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void twoRunsInOneJvmJudgeTheirOwnServers() throws Exception {
    try (FaultyServer good = FaultyServer.correct();
        FaultyServer bad = FaultyServer.with(FaultyServer.Deviation.KEEP_ALIVE_DISABLED)) {
      SuiteReport first = ConformanceSuite.run(bad.url());
      SuiteReport second = ConformanceSuite.run(good.url());
      assertThat(first.target()).isEqualTo(bad.url());
      assertThat(first.overall()).isEqualTo(Verdict.FAIL);
      assertThat(second.target()).isEqualTo(good.url());
      assertThat(second.overall()).isEqualTo(Verdict.PASS);
    }
  }

  @Test
  void aBaseUrlWithAPathJudgesTheServerBelowIt() throws Exception {
    try (FaultyServer server = FaultyServer.correctUnder("/api/v1")) {
      SuiteReport report = ConformanceSuite.run(server.url());
      assertThat(report.overall()).as(ConformanceReports.table(report)).isEqualTo(Verdict.PASS);
    }
  }

  @Test
  void aBaseUrlByHostNameWithATrailingSlashWorks() throws Exception {
    try (FaultyServer server = FaultyServer.correct()) {
      // "localhost" may resolve to ::1 first while the server listens on 127.0.0.1 only.
      SuiteReport report = ConformanceSuite.run(URI.create("http://localhost:" + server.url().getPort() + "/"));
      assertThat(report.overall()).as(ConformanceReports.table(report)).isEqualTo(Verdict.PASS);
    }
  }
}
