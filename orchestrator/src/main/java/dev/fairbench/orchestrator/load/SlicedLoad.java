package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.core.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A small closed-loop load client that counts responses per time slice (100 ms by default), for
 * the pilot's re-warm curves: wrk reports only a whole run. Each of its connections sends one GET
 * at a time on a keep-alive connection and reads the response by its Content-Length. It runs in
 * the orchestrator's JVM, so it is slower than wrk: its curves show a server's recovery relative to
 * its own steady state, never absolute throughput.
 */
public final class SlicedLoad {
  private SlicedLoad() {}

  /** Responses completed in each slice, from the start. */
  public record Curve(Duration slice, long[] counts) {
    /** The median of the last {@code tail} slices: the steady state the curve recovers to. */
    public double steady(int tail) {
      long[] last = java.util.Arrays.copyOfRange(counts, Math.max(0, counts.length - tail), counts.length);
      java.util.Arrays.sort(last);
      return last.length == 0 ? 0 : last.length % 2 == 1 ? last[last.length / 2]
          : (last[last.length / 2 - 1] + last[last.length / 2]) / 2.0;
    }

    /** The first slice from which every slice reaches {@code share} of the steady state; -1 if none. */
    public int recoveredAt(double share, int tail) {
      double steady = steady(tail);
      for (int i = 0; i < counts.length; i++) {
        boolean allAbove = true;
        for (int j = i; j < counts.length - tail; j++) {
          if (counts[j] < share * steady) {
            allAbove = false;
            break;
          }
        }
        if (allAbove) {
          return i;
        }
      }
      return -1;
    }
  }

  public static Curve run(URI baseUrl, String path, int connections, Duration length, Duration slice)
      throws InterruptedException {
    return run(baseUrl, "GET", path, null, connections, length, slice);
  }

  /** The endpoint's own request (a POST with its JSON body for validate). */
  public static Curve run(URI baseUrl, Endpoint endpoint, int connections, Duration length, Duration slice)
      throws InterruptedException {
    return run(baseUrl, endpoint.method(), endpoint.path(), endpoint.body(), connections, length, slice);
  }

  private static Curve run(URI baseUrl, String method, String path, String body, int connections, Duration length,
      Duration slice) throws InterruptedException {
    int slices = (int) Math.max(1, length.toNanos() / slice.toNanos());
    AtomicLongArray counts = new AtomicLongArray(slices);
    long start = System.nanoTime();
    long end = start + length.toNanos();
    byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    byte[] head = (method + " " + path + " HTTP/1.1\r\nHost: " + baseUrl.getHost() + "\r\n"
        + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + payload.length + "\r\n")
        + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[head.length + payload.length];
    System.arraycopy(head, 0, request, 0, head.length);
    System.arraycopy(payload, 0, request, head.length, payload.length);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      Thread thread = Thread.ofPlatform().daemon().start(() -> {
        try (Socket socket = new Socket()) {
          socket.setTcpNoDelay(true);
          socket.connect(new InetSocketAddress(baseUrl.getHost(), baseUrl.getPort()), 2000);
          socket.setSoTimeout(2000);
          OutputStream out = socket.getOutputStream();
          InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
          while (System.nanoTime() < end) {
            out.write(request);
            out.flush();
            readResponse(in);
            long now = System.nanoTime();
            int index = (int) ((now - start) / slice.toNanos());
            if (index < slices) {
              counts.incrementAndGet(index);
            }
          }
        } catch (IOException e) {
          // the server stopped answering: the slices after this show it
        }
      });
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join(length.toMillis() + 5000);
    }
    long[] result = new long[slices];
    for (int i = 0; i < slices; i++) {
      result[i] = counts.get(i);
    }
    return new Curve(slice, result);
  }

  /** Reads the status line and headers, then Content-Length bytes of body. */
  private static void readResponse(InputStream in) throws IOException {
    int length = -1;
    StringBuilder line = new StringBuilder();
    boolean headersDone = false;
    while (!headersDone) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed");
      }
      if (b == '\n') {
        String header = line.toString().trim();
        if (header.isEmpty()) {
          headersDone = true;
        } else if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
          length = Integer.parseInt(header.substring(15).trim());
        }
        line.setLength(0);
      } else {
        line.append((char) b);
      }
    }
    if (length < 0) {
      throw new IOException("no Content-Length");
    }
    long skipped = 0;
    while (skipped < length) {
      long n = in.skip(length - skipped);
      if (n <= 0) {
        if (in.read() < 0) {
          throw new IOException("connection closed in the body");
        }
        n = 1;
      }
      skipped += n;
    }
  }
}
