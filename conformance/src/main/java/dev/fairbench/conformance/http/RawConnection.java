package dev.fairbench.conformance.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * One raw HTTP/1.1 connection kept open across requests, from {@link RawHttp#open()}: for checks
 * that look at what follows a request on the same connection (request smuggling, 100 Continue), at
 * many connections open at once, or at a client that sends its request slowly. Responses are read
 * from one buffered stream, so bytes the server sent after a response are kept for the next read.
 */
public final class RawConnection implements AutoCloseable {
  private final Socket socket;
  private final DeadlineInputStream deadline;
  private final InputStream in;
  private final OutputStream out;
  private final Duration timeout;

  RawConnection(Socket socket, Duration timeout) throws IOException {
    this.socket = socket;
    this.deadline = new DeadlineInputStream(socket);
    this.in = new BufferedInputStream(deadline);
    this.out = socket.getOutputStream();
    this.timeout = timeout;
  }

  /** Writes the bytes and flushes them. */
  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * Writes the bytes on a thread of its own, ignoring write errors: a server may answer (413) and
   * close before reading a large body, and the response is read meanwhile.
   */
  public Thread writeInBackground(byte[] bytes) {
    return Thread.ofVirtual().name("raw-connection-writer").start(() -> {
      try {
        write(bytes);
      } catch (IOException ignored) {
        // The response, or its absence, tells what happened.
      }
    });
  }

  /** Reads the next final response, skipping interim ones, waiting at most the connection's timeout. */
  public RawResponse read() throws IOException {
    return read(timeout);
  }

  /** Reads the next final response, skipping interim ones (100 Continue), waiting at most {@code wait}. */
  public RawResponse read(Duration wait) throws IOException {
    socket.setSoTimeout(Math.toIntExact(Math.max(1, wait.toMillis())));
    deadline.deadlineIn(wait.multipliedBy(2));
    return RawHttp.read(in, true, true);
  }

  /**
   * Reads the next response, interim ones included: a {@code 100 Continue} comes back as a response
   * of its own, with no body. Waits at most {@code wait}.
   */
  public RawResponse readInterimOrFinal(Duration wait) throws IOException {
    socket.setSoTimeout(Math.toIntExact(Math.max(1, wait.toMillis())));
    deadline.deadlineIn(wait.multipliedBy(2));
    return RawHttp.read(in, true, false);
  }

  /**
   * Waits at most {@code wait} for the server to close the connection; returns what it sent before
   * closing (empty when it sent nothing more). A reset counts as closed.
   *
   * @throws SocketTimeoutException when the connection is still open after {@code wait}
   */
  public byte[] awaitClose(Duration wait) throws IOException {
    socket.setSoTimeout(Math.toIntExact(Math.max(1, wait.toMillis())));
    deadline.deadlineIn(wait);
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        sent.write(buffer, 0, n);
      }
    } catch (SocketException e) {
      // reset by the server: closed too
    }
    return sent.toByteArray();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing: nothing left to do
    }
  }
}
