package dev.fairbench.orchestrator.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A GET /plaintext sent on a raw socket, for servers that may be frozen: the kernel completes the
 * TCP handshake of a frozen listener, so only the absence of response bytes shows the freeze.
 */
final class PendingRequest implements AutoCloseable {
  private final Socket socket = new Socket();
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();

  PendingRequest(int port) throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
    socket.getOutputStream().write(("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
  }

  /** Whether any byte of a response arrives within the time. */
  boolean answeredWithin(Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    try {
      int b = socket.getInputStream().read();
      if (b >= 0) {
        received.write(b);
        return true;
      }
      return false;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  /** The whole response (the server closes the connection after it), waiting at most {@code wait}. */
  String response(Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      received.write(buffer, 0, n);
    }
    return received.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
