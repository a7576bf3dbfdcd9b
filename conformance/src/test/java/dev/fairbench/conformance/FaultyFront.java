package dev.fairbench.conformance;

import dev.fairbench.conformance.FaultyServer.Deviation;
import dev.fairbench.conformance.http.RawHttp;
import dev.fairbench.conformance.http.RawResponse;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The HTTP/1.1 layer of a {@link FaultyServer}, for the deviations that live there: how a request
 * is parsed and framed, and how connections are handled. It reads each request off the client's
 * connection itself (request line, headers, a body by {@code Content-Length} or chunked), forwards it
 * to the server as a clean request on a connection of its own, and writes the answer back with a
 * {@code Content-Length}, keeping the client's connection open unless the client asked to close it.
 * With no deviation it is transparent: the suite must PASS the correct server behind it. A request
 * whose framing is ambiguous is forwarded without a body, so that the server's own parser refuses
 * it, and the client's connection is then closed: what the body holds is never read as a request.
 */
final class FaultyFront implements AutoCloseable {
  /** CONNECTION_LIMIT: connections served at once; more wait, unserved, until one closes. */
  static final int CONNECTION_LIMIT = 256;
  /** LARGE_HEADER_BLOCKS_500: a request head larger than this answers 500. */
  static final int LARGE_HEAD = 32 * 1024;
  private static final int MAX_HEAD = 1024 * 1024;
  /** CONTENT_TYPE_DROPPED_UNDER_LOAD: connections open at once past which answers lose their Content-Type. */
  static final int LOADED = 64;
  /** PIPELINED_BURST_CUT_AFTER_32: the requests of a burst it answers before it closes. */
  static final int PIPELINE_QUEUE = 32;

  /** A % not followed by two hex digits (RFC 3986 2.1). */
  private static final Pattern MALFORMED_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");
  /** The same % and the letter or digit after it, if any: what Bun's router turns into U+FFFD. */
  private static final Pattern MALFORMED_ESCAPE_AND_NEXT = Pattern.compile("%(?![0-9A-Fa-f]{2})[0-9A-Za-z]?");

  private final ServerSocket listener;
  private final InetSocketAddress backend;
  private final Deviation deviation;
  /** SERIALISES_REQUEST_HEADS: one request head read at a time, as a blocking single-threaded parser does. */
  private final ReentrantLock headLock = new ReentrantLock();
  private final Semaphore slots = new Semaphore(CONNECTION_LIMIT);
  /** LOAD_SHEDDING_429: connections open now. */
  private final java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();

  /** {@code deviation} may be null: a transparent front. */
  FaultyFront(URI backend, Deviation deviation) throws IOException {
    this.backend = new InetSocketAddress(backend.getHost(), backend.getPort());
    this.deviation = deviation;
    this.listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("faulty-front").start(this::acceptLoop);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  private boolean has(Deviation d) {
    return deviation == d;
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Thread.ofVirtual().start(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    boolean limited = has(Deviation.CONNECTION_LIMIT);
    if (limited) {
      slots.acquireUninterruptibly();
    }
    open.incrementAndGet();
    try (client) {
      client.setTcpNoDelay(true);
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      Burst burst = new Burst();
      for (Request request = readRequest(in); request != null; request = readRequest(in)) {
        // Bytes after the head are its body or pipelined requests: the answers wait, so reversing them is safe.
        if (in.available() > 0 && has(Deviation.PIPELINED_ANSWERS_REVERSED)) {
          if (!answerReversed(request, in, out, burst)) {
            return;
          }
          continue;
        }
        if (!answer(request, in, out, burst) || burst.closeAfterThis) {
          return;
        }
      }
    } catch (IOException e) {
      // the client or the server went away
    } finally {
      open.decrementAndGet();
      if (limited) {
        slots.release();
      }
    }
  }

  /** A request head as read: the request line and the header lines, unparsed beyond name and value. */
  private record Request(String line, List<String> headerLines, int size) {
    String target() {
      int first = line.indexOf(' ');
      int last = line.lastIndexOf(' ');
      return first < 0 || last <= first ? "" : line.substring(first + 1, last);
    }

    List<String> values(String name) {
      List<String> values = new ArrayList<>();
      for (String header : headerLines) {
        int colon = header.indexOf(':');
        if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase(name)) {
          values.add(header.substring(colon + 1).strip());
        }
      }
      return values;
    }

    boolean has(String name, String value) {
      return values(name).stream().anyMatch(v -> v.equalsIgnoreCase(value));
    }

    boolean hasToken(String name, String token) {
      return holdsToken(values(name), token);
    }
  }

  /** Whether the values of a comma-separated list header (Connection) hold the token, in any letter case. */
  static boolean holdsToken(List<String> values, String token) {
    return values.stream().flatMap(v -> Arrays.stream(v.split(","))).anyMatch(t -> t.strip().equalsIgnoreCase(token));
  }

  /** The next request head, or null at the end of the stream before one starts. Empty lines before it are skipped. */
  private Request readRequest(InputStream in) throws IOException {
    int b = in.read();
    while (b == '\r' || b == '\n') {
      b = in.read();
    }
    if (b == -1) {
      return null;
    }
    boolean locked = has(Deviation.SERIALISES_REQUEST_HEADS);
    if (locked) {
      headLock.lock();
    }
    try {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      head.write(b);
      int last4 = b; // the last four bytes read, to see the empty line that ends the head
      while (last4 != 0x0d0a0d0a) {
        int next = in.read();
        if (next == -1) {
          throw new EOFException("the client closed the connection in the middle of a request head");
        }
        head.write(next);
        last4 = last4 << 8 | next;
        if (head.size() > MAX_HEAD) {
          throw new IOException("request head larger than " + MAX_HEAD + " bytes");
        }
      }
      String text = head.toString(StandardCharsets.ISO_8859_1);
      List<String> lines = new ArrayList<>(List.of(text.substring(0, text.length() - 4).split("\r\n", -1)));
      return new Request(lines.removeFirst(), lines, head.size());
    } finally {
      if (locked) {
        headLock.unlock();
      }
    }
  }

  /**
   * PIPELINED_ANSWERS_REVERSED: answers this request and every one already sent after it, then writes
   * the answers in the reverse order. False when the client's connection must be closed.
   */
  private boolean answerReversed(Request first, InputStream in, OutputStream out, Burst burst) throws IOException {
    List<byte[]> answers = new ArrayList<>();
    boolean open;
    Request request = first;
    while (true) {
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      open = answer(request, in, answer, burst);
      answers.add(answer.toByteArray());
      if (!open || in.available() == 0 || (request = readRequest(in)) == null) {
        break;
      }
    }
    for (byte[] answer : answers.reversed()) {
      out.write(answer);
    }
    out.flush();
    return open;
  }

  /**
   * What a connection knows of pipelining. Whether more was sent after a request is looked at once
   * the request is read and before it is answered: the client cannot have sent anything in reply to
   * an answer yet, so what is there was pipelined.
   */
  private static final class Burst {
    /** The last request answered had more sent after it. */
    boolean pipelined;
    /** CLOSES_AFTER_A_PIPELINED_BURST: close once this answer is written. */
    boolean closeAfterThis;
    /** Requests of the burst answered so far, this one included: 1 for a request nothing was sent after. */
    int depth;
  }

  /** Answers one request; false when the client's connection must be closed. */
  private boolean answer(Request request, InputStream in, OutputStream out, Burst burst) throws IOException {
    String target = request.target();
    if (has(Deviation.CONTROL_BYTES_IN_TARGET_505) && hasControlByte(target)) {
      // What Bun's parser writes (HttpErrors.h), then it closes.
      out.write("HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      return false;
    }
    if (has(Deviation.GARBAGE_FOR_MALFORMED_REQUESTS) && !request.line().matches("[A-Z]+ \\S+ HTTP/1\\.[01]")) {
      out.write("ERROR: malformed request\n".getBytes(StandardCharsets.US_ASCII));
      return false;
    }
    if (has(Deviation.CONTROL_BYTES_IN_HEADER_VALUES_500) && request.headerLines().stream().anyMatch(FaultyFront::hasControlByte)) {
      writeError(out, 500, "header value with a control character", true);
      return false;
    }
    if (has(Deviation.LOAD_SHEDDING_429) && open.get() > CONNECTION_LIMIT) {
      writeError(out, 429, "too many connections", true);
      return false;
    }
    if (has(Deviation.LARGE_HEADER_BLOCKS_500) && request.size() > LARGE_HEAD) {
      writeError(out, 500, "request head too large for the buffer", true);
      return false;
    }
    String line = request.line();
    if (has(Deviation.CONTROL_BYTES_IN_TARGET_KEPT) && hasControlByte(target)) {
      line = line.replace(target, percentEncodeControlBytes(target));
    }
    // The server's own parser (the JDK's HttpServer) refuses malformed percent-encoding with 400; these
    // deviations turn it into an escape the server decodes to what the deviating parser makes of it.
    if (has(Deviation.MALFORMED_ESCAPES_KEPT)) {
      line = line.replace(target, MALFORMED_ESCAPE.matcher(target).replaceAll("%25"));
    }
    if (has(Deviation.MALFORMED_ESCAPES_REPLACED)) {
      line = line.replace(target, MALFORMED_ESCAPE_AND_NEXT.matcher(target).replaceAll("%EF%BF%BD"));
    }
    if (has(Deviation.CONTROL_BYTES_IN_TARGET_CUT) && hasControlByte(target)) {
      // A C string: the target ends at the control byte.
      line = line.replace(target, target.substring(0, firstControlByte(target)));
    }

    List<String> lengths = request.values("Content-Length");
    List<String> codings = request.values("Transfer-Encoding");
    boolean chunked = codings.size() == 1 && codings.getFirst().equalsIgnoreCase("chunked");
    boolean ambiguous = !lengths.isEmpty() && !codings.isEmpty() || lengths.size() > 1
        || lengths.size() == 1 && !isLength(lengths.getFirst()) || !codings.isEmpty() && !chunked;
    Long length = null;
    boolean decided = true;
    if (has(Deviation.CONTENT_LENGTH_OVER_TRANSFER_ENCODING) && lengths.size() == 1 && codings.size() == 1
        && isLength(lengths.getFirst())) {
      length = Long.parseLong(lengths.getFirst());
      chunked = false;
    } else if (has(Deviation.FIRST_CONTENT_LENGTH_WINS) && codings.isEmpty()
        && (lengths.size() > 1 || lengths.size() == 1 && lengths.getFirst().contains(","))
        && isLength(lengths.getFirst().split(",")[0].strip())) {
      length = Long.parseLong(lengths.getFirst().split(",")[0].strip());
    } else if (has(Deviation.INVALID_CONTENT_LENGTH_IS_ZERO) && lengths.size() == 1 && codings.isEmpty()
        && !isLength(lengths.getFirst())) {
      length = 0L;
    } else {
      decided = false;
    }
    if (!decided && ambiguous) {
      if (has(Deviation.FRAMING_ERROR_KEEPS_THE_CONNECTION)) {
        writeError(out, 400, "ambiguous message framing", false);
        return true; // and whatever the body held is read as the next request
      }
      return forward(line, request, null, out, true);
    }
    if (!decided && lengths.size() == 1) {
      length = Long.parseLong(lengths.getFirst());
    }

    if (has(Deviation.OVERSIZED_BODY_LEFT_UNREAD) && length != null && length > FaultyServer.MIB) {
      writeError(out, 413, "the body is larger than 1 MiB", false);
      return true; // and the unread body is read as the next request
    }
    if (has(Deviation.EXPECT_OTHER_LETTER_CASE_400) && !request.values("Expect").isEmpty()
        && !request.values("Expect").equals(List.of("100-continue"))) {
      writeError(out, 400, "unsupported expectation", true);
      return false;
    }
    boolean expectsContinue = has(Deviation.EXPECT_CONTINUE_CASE_SENSITIVE)
        ? request.values("Expect").contains("100-continue") : request.has("Expect", "100-continue");
    if ((chunked || length != null) && expectsContinue && !has(Deviation.IGNORES_EXPECT_CONTINUE)) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
    byte[] body;
    if (chunked) {
      body = readChunked(in);
    } else if (length != null) {
      if (length > Integer.MAX_VALUE - 8) {
        return false; // more than an array holds: closed unanswered, as a server that cannot take it may do
      }
      body = in.readNBytes(Math.toIntExact(length));
      if (body.length < length) {
        return false; // the client closed in the middle of the body
      }
      if (has(Deviation.PIPELINED_BODIES_RUN_TOGETHER) && in.available() > 0) {
        body = RawHttp.concat(body, in.readNBytes(in.available()));
      }
    } else {
      body = null;
    }
    boolean more = in.available() > 0;
    if (has(Deviation.PIPELINED_REQUESTS_DROPPED) && more) {
      in.skipNBytes(in.available());
    }
    burst.depth = burst.pipelined ? burst.depth + 1 : 1;
    burst.closeAfterThis = has(Deviation.CLOSES_AFTER_A_PIPELINED_BURST) && burst.pipelined && !more
        || has(Deviation.PIPELINED_BURST_CUT_AFTER_32) && more && burst.depth == PIPELINE_QUEUE;
    burst.pipelined = more;
    // RFC 9112 9.3: an HTTP/1.0 connection persists only with the keep-alive option.
    boolean close = !has(Deviation.IGNORES_CONNECTION_CLOSE) && (request.hasToken("Connection", "close")
        || line.endsWith(" HTTP/1.0") && !request.hasToken("Connection", "keep-alive"));
    return forward(line, request, body, out, close);
  }

  /** Sends the request to the server on a connection of its own and writes its answer back. */
  private boolean forward(String line, Request request, byte[] body, OutputStream out, boolean close) throws IOException {
    StringBuilder head = new StringBuilder(line).append("\r\n");
    for (String header : request.headerLines()) {
      String name = header.contains(":") ? header.substring(0, header.indexOf(':')).trim().toLowerCase(Locale.ROOT) : "";
      boolean framing = name.equals("content-length") || name.equals("transfer-encoding");
      if (body != null && framing || name.equals("connection") || name.equals("expect")) {
        continue;
      }
      head.append(header).append("\r\n");
    }
    if (body != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    RawResponse response;
    try (Socket server = new Socket()) {
      server.setTcpNoDelay(true);
      server.connect(backend);
      OutputStream toServer = server.getOutputStream();
      byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
      byte[] all = body == null ? bytes : RawHttp.concat(bytes, body);
      Thread writer = Thread.ofVirtual().start(() -> {
        try {
          toServer.write(all);
          toServer.flush();
        } catch (IOException ignored) {
          // the server answered (413) without reading everything
        }
      });
      try {
        response = RawHttp.read(server.getInputStream(), true);
      } finally {
        server.close();
        try {
          writer.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    StringBuilder reply = new StringBuilder(response.statusLine()).append("\r\n");
    for (Map.Entry<String, List<String>> header : response.headers().entrySet()) {
      String name = header.getKey();
      if (name.equalsIgnoreCase("Date") && has(Deviation.OBSOLETE_DATE_FORMAT)) {
        header.getValue().forEach(value -> reply.append(name).append(": ").append(rfc850(value)).append("\r\n"));
      } else if (name.equalsIgnoreCase("Content-Type") && has(Deviation.CONTENT_TYPE_DROPPED_UNDER_LOAD)
          && open.get() > LOADED) {
        continue;
      } else if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")
          && !name.equalsIgnoreCase("Connection")) {
        header.getValue().forEach(value -> reply.append(name).append(": ").append(value).append("\r\n"));
      }
    }
    byte[] answer = has(Deviation.EMPTY_BODY_AFTER_CONTINUE) && request.has("Expect", "100-continue")
        ? new byte[0] : response.body();
    if (has(Deviation.CHUNKED_FOR_HTTP10) && line.endsWith(" HTTP/1.0")) {
      reply.append("Transfer-Encoding: chunked\r\n");
      answer = chunked(answer);
    } else {
      reply.append("Content-Length: ").append(response.body().length).append("\r\n");
    }
    if (has(Deviation.DUPLICATE_CONTENT_LENGTH)) {
      reply.append("Content-Length: ").append(response.body().length).append("\r\n");
    }
    if (has(Deviation.CONTENT_LENGTH_WITH_CHUNKED_RESPONSES)) {
      reply.append("Transfer-Encoding: chunked\r\n");
      answer = chunked(answer);
    }
    if (close) {
      reply.append("Connection: close\r\n");
    }
    String replyHead = reply.append("\r\n").toString();
    if (has(Deviation.BARE_LF_RESPONSE_HEADS)) {
      replyHead = replyHead.replace("\r\n", "\n");
    }
    out.write(RawHttp.concat(replyHead.getBytes(StandardCharsets.ISO_8859_1), answer));
    out.flush();
    return !close;
  }

  /** OBSOLETE_DATE_FORMAT: an IMF-fixdate in RFC 850's format, which recipients read and senders must not generate. */
  private static String rfc850(String imfFixdate) {
    return ZonedDateTime.parse(imfFixdate, DateTimeFormatter.RFC_1123_DATE_TIME)
        .format(DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US));
  }

  /** The body in the chunked transfer coding: one chunk, then the last. */
  private static byte[] chunked(byte[] body) {
    return RawHttp.concat(RawHttp.concat((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII), body),
        (body.length == 0 ? "\r\n" : "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in);
      int size;
      try {
        size = Integer.parseInt(sizeLine.split(";", 2)[0].strip(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("invalid chunk size: " + sizeLine);
      }
      if (size == 0) {
        while (!readLine(in).isEmpty()) {
          // trailers
        }
        return body.toByteArray();
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length < size || !readLine(in).isEmpty()) {
        throw new EOFException("chunk cut short");
      }
      body.writeBytes(chunk);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b == -1) {
        throw new EOFException("the client closed the connection in the middle of a chunked body");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  private static boolean isLength(String value) {
    return value.matches("[0-9]{1,18}");
  }

  private static boolean hasControlByte(String text) {
    return text.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f);
  }

  private static int firstControlByte(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (hasControlByte(text.substring(i, i + 1))) {
        return i;
      }
    }
    return text.length();
  }

  private static String percentEncodeControlBytes(String target) {
    StringBuilder out = new StringBuilder();
    target.chars().forEach(c -> out.append(c < 0x20 || c == 0x7f ? String.format("%%%02X", c) : String.valueOf((char) c)));
    return out.toString();
  }

  private static void writeError(OutputStream out, int status, String message, boolean close) throws IOException {
    byte[] body = ("{\"error\":\"" + message + "\"}").getBytes(StandardCharsets.US_ASCII);
    String head = "HTTP/1.1 " + status + (status == 400 ? " Bad Request" : status == 413 ? " Payload Too Large" : status == 429 ? " Too Many Requests" : " Internal Server Error") + "\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n"
        + (close ? "Connection: close\r\n" : "") + "\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
