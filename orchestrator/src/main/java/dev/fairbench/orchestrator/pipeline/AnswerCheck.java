package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.conformance.http.RawHttp;
import dev.fairbench.conformance.http.RawResponse;
import dev.fairbench.orchestrator.core.Endpoint;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The load client's own request, sent before the runs over a socket of its own — twice on a kept-alive
 * connection, as the load's requests are mostly not a connection's first — and the answers read off
 * the wire: judged as {@link CorrectnessCheck} judges, and counted to the byte. wrk counts
 * every byte it reads (status line, headers, body), oha the bodies only; a run whose bytes per
 * answer are not the checked answer's, counted the same way, did not get this answer
 * (report.Quality's {@code answers-differ}).
 */
final class AnswerCheck {
  private AnswerCheck() {}

  /** The checked answer's size, or what was wrong with it. */
  sealed interface Outcome {}

  /**
   * @param bytes     the whole answer: status line, headers, body as framed (what wrk counts)
   * @param bodyBytes the body, de-chunked (what oha counts)
   */
  record Size(int bytes, int bodyBytes) implements Outcome {}

  record Wrong(String why) implements Outcome {}

  /**
   * wrk's request: no header but Host, the body's, and Connection: close in a no-keep-alive cell.
   *
   * @param close as the cell's load sends it: Connection: close on every request (a no-keep-alive cell)
   */
  static Outcome check(URI baseUrl, Endpoint endpoint, boolean close, Duration timeout) {
    return check(baseUrl, endpoint, close, List.of(), timeout);
  }

  /**
   * @param headerLines the load client's own headers besides Host and the body's (oha's Accept and
   *                    User-Agent), in the order it sends them
   */
  static Outcome check(URI baseUrl, Endpoint endpoint, boolean close, List<String> headerLines,
      Duration timeout) {
    RawHttp http = RawHttp.to(baseUrl, timeout);
    byte[] body = endpoint.body() == null ? null : endpoint.body().getBytes(StandardCharsets.UTF_8);
    byte[] request = http.request(endpoint.method(), endpoint.path(), headerLines, body == null ? null : "application/json",
        body, close);
    int port = baseUrl.getPort() != -1 ? baseUrl.getPort() : 80;
    String host = baseUrl.getHost().replaceFirst("^\\[(.*)]$", "$1"); // an IPv6 literal is bracketed in URLs only
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      OutputStream out = socket.getOutputStream();
      Counting in = new Counting(socket.getInputStream());
      Outcome outcome = null;
      // On a kept-alive connection the load's requests are mostly not a connection's first: the request
      // goes twice, and the second answer is the one counted.
      for (int sent = 1; sent <= 2; sent++) {
        long before = in.count;
        out.write(request);
        out.flush();
        RawResponse response = RawHttp.read(in, true);
        String text = new String(response.body(), StandardCharsets.UTF_8);
        String which = sent == 1 ? "the load client's own request: " : "the load client's own request, sent again on the "
            + "same connection: ";
        Optional<String> wrong = CorrectnessCheck.judge(endpoint, response.status(), text);
        if (wrong.isPresent()) {
          return new Wrong(which + wrong.get());
        }
        outcome = new Size(Math.toIntExact(in.count - before), response.body().length);
        if (close || response.header("Connection").map(v -> v.toLowerCase(Locale.ROOT).contains("close")).orElse(false)
            || response.framing() == RawResponse.Framing.UNTIL_CLOSE) {
          break; // the connection ends here, as it does under the load
        }
      }
      return outcome;
    } catch (IOException e) {
      return new Wrong("the load client's own request, " + endpoint.method() + " " + endpoint.path() + ", failed: " + e.getMessage());
    }
  }

  /**
   * Counts what the socket gave. Each request is sent once the answer before it was read whole, so
   * everything the server sent in between is that request's answer.
   */
  private static final class Counting extends FilterInputStream {
    long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
