package dev.fairbench.conformance.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One request and the response it got, whichever client sent it.
 *
 * @param request what was sent, on one line, e.g. {@code POST /validate {"age":"30"}}
 * @param status  the response status code
 * @param headers response headers, names case-insensitive
 * @param body    the response body as received (after any transfer decoding)
 */
public record Exchange(String request, int status, Map<String, List<String>> headers, byte[] body) {
  public Exchange {
    TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((name, values) -> copy.computeIfAbsent(name, k -> new ArrayList<>()).addAll(values));
    copy.replaceAll((name, values) -> List.copyOf(values));
    headers = Collections.unmodifiableMap(copy);
  }

  public Optional<String> header(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
  }

  /** The Content-Type header as sent, or "(none)". */
  public String contentType() {
    return header("Content-Type").orElse("(none)");
  }

  /** The media type without parameters, lower case, or "" when there is no Content-Type. */
  public String mediaType() {
    return header("Content-Type").map(v -> v.split(";", 2)[0].trim().toLowerCase(Locale.ROOT)).orElse("");
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** Status, Content-Type and the start of the body, on one line: what a finding shows as "got". */
  public String summary() {
    String shown = body.length == 0 ? "(empty body)" : Text.preview(body, 200);
    return status + " " + contentType() + " " + shown;
  }
}
