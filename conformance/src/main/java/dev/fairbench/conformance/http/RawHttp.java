package dev.fairbench.conformance.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP/1.1 client on a bare socket, for requests no well-behaved client sends: bodies larger than
 * the server wants to read, bodies shorter than their Content-Length, garbage request lines, invalid
 * percent-encoding. It sends the bytes exactly as given, one request per connection.
 *
 * <p>The request is written on its own thread and write errors are ignored, because a server may
 * answer (413) and close before reading the whole body; the response is read meanwhile.
 */
public final class RawHttp {
  private static final int MAX_HEAD_BYTES = 64 * 1024;
  /** The largest body read: a longer one (an endless body) is a finding, not a run out of memory. */
  static final int MAX_BODY = HttpTarget.MAX_BODY;

  private final String host;
  private final int port;
  private final Duration timeout;

  public RawHttp(String host, int port, Duration timeout) {
    this.host = host;
    this.port = port;
    this.timeout = timeout;
  }

  public static RawHttp to(URI base, Duration timeout) {
    int port = base.getPort() != -1 ? base.getPort() : 80;
    String host = base.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1); // an IPv6 literal, bracketed in URLs only
    }
    return new RawHttp(host, port, timeout);
  }

  /** The value for a Host header naming this server. */
  public String hostHeader() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** A request head: request line, Host, the given header lines, and the empty line. */
  public byte[] head(String method, String target, String... headerLines) {
    StringBuilder head = new StringBuilder()
        .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
        .append("Host: ").append(hostHeader()).append("\r\n");
    for (String line : headerLines) {
      head.append(line).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A complete request with Connection: close and, when there is a body, its Content-Length. */
  public byte[] request(String method, String target, String contentType, byte[] body) {
    return request(method, target, contentType, body, true);
  }

  /**
   * A complete request. A null content type sends no Content-Type; a null body sends no body and no
   * Content-Length; {@code close} adds Connection: close.
   */
  public byte[] request(String method, String target, String contentType, byte[] body, boolean close) {
    return request(method, target, List.of(), contentType, body, close);
  }

  /** {@link #request(String, String, String, byte[], boolean)} with {@code firstLines} right after Host. */
  public byte[] request(String method, String target, List<String> firstLines, String contentType, byte[] body,
      boolean close) {
    List<String> lines = new ArrayList<>(firstLines);
    if (contentType != null) {
      lines.add("Content-Type: " + contentType);
    }
    if (body != null) {
      lines.add("Content-Length: " + body.length);
    }
    if (close) {
      lines.add("Connection: close");
    }
    byte[] head = head(method, target, lines.toArray(String[]::new));
    return body == null ? head : concat(head, body);
  }

  /** Sends the bytes and reads one whole response. */
  public RawResponse exchange(byte[] request) throws IOException {
    return exchange(request, false, true);
  }

  /** Sends the bytes and reads the status line and headers only; the body is left unread. */
  public RawResponse exchangeHead(byte[] request) throws IOException {
    return exchange(request, false, false);
  }

  /**
   * Sends the bytes, then shuts down the output so the server sees the end of the stream (a body
   * shorter than its Content-Length, then closed), and reads one response.
   */
  public RawResponse exchangeThenHalfClose(byte[] request) throws IOException {
    return exchange(request, true, true);
  }

  private RawResponse exchange(byte[] request, boolean halfClose, boolean readBody) throws IOException {
    int millis = Math.toIntExact(timeout.toMillis());
    try (Socket socket = connect(millis)) {
      socket.setSoTimeout(millis);
      OutputStream out = socket.getOutputStream();
      Thread writer = Thread.ofVirtual().name("raw-http-writer").start(() -> {
        try {
          out.write(request);
          out.flush();
          if (halfClose) {
            socket.shutdownOutput();
          }
        } catch (IOException ignored) {
          // The server may answer and close without reading everything: the response tells.
        }
      });
      try {
        // The whole response within twice the read timeout, however slowly it comes.
        DeadlineInputStream in = new DeadlineInputStream(socket);
        in.deadlineIn(timeout.multipliedBy(2));
        return read(in, readBody);
      } finally {
        socket.close();
        joinQuietly(writer);
      }
    }
  }

  /**
   * Opens a connection that stays open across requests, for checks that need to see what follows a
   * request on the same connection.
   */
  public RawConnection open() throws IOException {
    return new RawConnection(connect(Math.toIntExact(timeout.toMillis())), timeout);
  }

  /** Connects to the first address of the host that accepts, as OkHttp does ("localhost" may be ::1 and 127.0.0.1). */
  private Socket connect(int millis) throws IOException {
    IOException failure = null;
    for (InetAddress address : InetAddress.getAllByName(host)) {
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(address, port), millis);
        return socket;
      } catch (IOException e) {
        socket.close();
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    throw failure != null ? failure : new ConnectException("no address for " + host);
  }

  /**
   * Reads one final response from the stream, skipping interim (1xx) responses. A stream that is
   * already buffered is read as it is, so that what follows the response stays in it.
   */
  public static RawResponse read(InputStream raw, boolean readBody) throws IOException {
    return read(raw, readBody, true);
  }

  /** Reads one response: with {@code skipInterim} false an interim (1xx) response is returned too. */
  static RawResponse read(InputStream raw, boolean readBody, boolean skipInterim) throws IOException {
    InputStream in = raw instanceof BufferedInputStream ? raw : new BufferedInputStream(raw);
    while (true) {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      String statusLine = readLine(in, true, head);
      String[] parts = statusLine.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("\\d{3}")) {
        throw new ProtocolException("not an HTTP status line: " + Text.preview(statusLine, 80));
      }
      int status = Integer.parseInt(parts[1]);
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      int headBytes = statusLine.length();
      for (String line = readLine(in, false, head); !line.isEmpty(); line = readLine(in, false, head)) {
        headBytes += line.length();
        if (headBytes > MAX_HEAD_BYTES) {
          throw new ProtocolException("response head larger than " + MAX_HEAD_BYTES + " bytes");
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
          throw new ProtocolException("malformed header line: " + Text.preview(line, 80));
        }
        headers.computeIfAbsent(line.substring(0, colon).trim(), k -> new ArrayList<>())
            .add(line.substring(colon + 1).trim());
      }
      if (status / 100 == 1 && status != 101 && skipInterim) {
        continue; // an interim response (100 Continue): the final one follows
      }
      RawResponse.Framing framing = RawResponse.framingOf(status, headers);
      byte[] body = readBody ? readBody(in, framing, headers) : new byte[0];
      return new RawResponse(statusLine, status, headers, body, framing, head.toByteArray());
    }
  }

  private static byte[] readBody(InputStream in, RawResponse.Framing framing, Map<String, List<String>> headers)
      throws IOException {
    return switch (framing) {
      case NO_BODY -> new byte[0];
      case CONTENT_LENGTH -> {
        String value = headers.get("Content-Length").getFirst();
        // RFC 9110 §8.6: 1*DIGIT, no sign, no bound; past what a long holds is past what the suite reads.
        if (!value.matches("[0-9]+")) {
          throw new ProtocolException("invalid Content-Length: " + value);
        }
        long length = value.replaceFirst("^0+(?=.)", "").length() > 18 ? Long.MAX_VALUE : Long.parseLong(value);
        if (length > MAX_BODY) {
          throw new ProtocolException("Content-Length " + value + " is past the " + MAX_BODY / (1024 * 1024) + " MiB the suite reads");
        }
        yield readExactly(in, (int) length);
      }
      case CHUNKED -> readChunked(in);
      case UNTIL_CLOSE -> {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
          throw new ProtocolException("the response body runs past " + MAX_BODY / (1024 * 1024) + " MiB (endless?)");
        }
        yield body;
      }
    };
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in, false);
      String hex = sizeLine.split(";", 2)[0].trim();
      int size;
      try {
        size = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw new ProtocolException("invalid chunk size: " + Text.preview(sizeLine, 40));
      }
      if (size == 0) {
        for (String trailer = readLine(in, false); !trailer.isEmpty(); trailer = readLine(in, false)) {
          // trailers carry nothing the suite checks
        }
        return body.toByteArray();
      }
      if (size < 0 || body.size() + (long) size > MAX_BODY) {
        throw new ProtocolException("the chunked response body runs past " + MAX_BODY / (1024 * 1024) + " MiB (endless?)");
      }
      body.write(readExactly(in, size));
      if (!readLine(in, false).isEmpty()) {
        throw new ProtocolException("chunk not followed by CRLF");
      }
    }
  }

  private static byte[] readExactly(InputStream in, int length) throws IOException {
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException("connection closed after " + bytes.length + " of " + length + " body bytes");
    }
    return bytes;
  }

  /** One line without its CRLF (or bare LF), as ISO-8859-1. */
  private static String readLine(InputStream in, boolean first) throws IOException {
    return readLine(in, first, null);
  }

  /** {@link #readLine(InputStream, boolean)}, adding the line's bytes as sent, its end included, to {@code raw} if given. */
  private static String readLine(InputStream in, boolean first, ByteArrayOutputStream raw) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b == -1) {
        if (first && line.size() == 0) {
          throw new NoResponseException("the server closed the connection without answering");
        }
        throw new EOFException("connection closed in the middle of the response head");
      }
      if (b == '\n') {
        break;
      }
      line.write(b);
      if (line.size() > MAX_HEAD_BYTES) {
        throw new ProtocolException("response line longer than " + MAX_HEAD_BYTES + " bytes");
      }
    }
    byte[] bytes = line.toByteArray();
    if (raw != null) {
      raw.write(bytes);
      raw.write('\n');
    }
    int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
    return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
  }

  public static byte[] concat(byte[] a, byte[] b) {
    byte[] all = new byte[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
