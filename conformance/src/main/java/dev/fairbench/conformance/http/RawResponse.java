package dev.fairbench.conformance.http;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A response read off a raw socket.
 *
 * @param statusLine the first line, e.g. {@code HTTP/1.1 413 Payload Too Large}
 * @param status     the status code
 * @param headers    header names (case-insensitive) to their values in order
 * @param body       the body after removing chunked framing; empty when only the head was read
 * @param framing    how the response says where its body ends
 * @param head       the head's bytes as sent, from the status line through the empty line after the headers
 */
public record RawResponse(String statusLine, int status, Map<String, List<String>> headers, byte[] body, Framing framing,
    byte[] head) {

  /** How a response delimits its body (RFC 9112 section 6). */
  public enum Framing {
    CONTENT_LENGTH,
    CHUNKED,
    /** No Content-Length and not chunked: the body runs until the server closes the connection. */
    UNTIL_CLOSE,
    /** A status that never has a body (1xx, 204, 304). */
    NO_BODY
  }

  public RawResponse {
    TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    copy.putAll(headers);
    headers = Collections.unmodifiableMap(copy);
  }

  public Optional<String> header(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
  }

  static Framing framingOf(int status, Map<String, List<String>> headers) {
    if (status / 100 == 1 || status == 204 || status == 304) {
      return Framing.NO_BODY;
    }
    List<String> encodings = headers.getOrDefault("Transfer-Encoding", List.of());
    if (encodings.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"))) {
      return Framing.CHUNKED;
    }
    if (headers.containsKey("Content-Length")) {
      return Framing.CONTENT_LENGTH;
    }
    return Framing.UNTIL_CLOSE;
  }

  public Exchange toExchange(String request) {
    return new Exchange(request, status, headers, body);
  }
}
