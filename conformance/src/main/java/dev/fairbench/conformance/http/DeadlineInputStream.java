package dev.fairbench.conformance.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A socket's input with a deadline for a whole response, not only for each read: a server that
 * trickles a byte now and then, each within the read timeout, still ends the read in bounded time.
 */
final class DeadlineInputStream extends FilterInputStream {
  private final Socket socket;
  private volatile long deadlineNanos = Long.MAX_VALUE;
  private volatile Duration allowed = Duration.ZERO;

  DeadlineInputStream(Socket socket) throws IOException {
    super(socket.getInputStream());
    this.socket = socket;
  }

  /** From now on, reads end at most {@code allowed} from now. */
  void deadlineIn(Duration allowed) {
    this.allowed = allowed;
    this.deadlineNanos = System.nanoTime() + allowed.toNanos();
  }

  private void beforeRead() throws IOException {
    if (deadlineNanos == Long.MAX_VALUE) {
      return;
    }
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("no complete response within " + allowed.toMillis() / 1000.0 + " s (the server sends it too slowly)");
    }
    int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Duration.ofNanos(left).toMillis()));
    if (socket.getSoTimeout() == 0 || socket.getSoTimeout() > millis) {
      socket.setSoTimeout(millis);
    }
  }

  @Override
  public int read() throws IOException {
    beforeRead();
    return super.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    beforeRead();
    return super.read(b, off, len);
  }
}
