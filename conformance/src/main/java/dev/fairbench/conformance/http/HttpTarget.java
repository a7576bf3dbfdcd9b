package dev.fairbench.conformance.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * The server under test: its base URL and the clients that talk to it. Every request times out
 * after {@link #TIMEOUT}; a request that gets no answer becomes an {@link AssertionError} naming the
 * request, so it is reported as a finding instead of crashing the run.
 */
public final class HttpTarget implements AutoCloseable {
  public static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final int PREVIEW = 120;
  /** The statuses of clause 9.1's error responses. */
  private static final Set<Integer> ERROR_STATUSES = Set.of(400, 404, 405, 413, 415);

  /**
   * An endpoint whose requests timed out this many times in a row, while the server still answers
   * {@code GET /plaintext}, gets no more requests for {@link #ENDPOINT_RETRY_INTERVAL} (then one more
   * is tried): a server that hangs on one endpoint costs the run seconds, not 10 s for each of its checks.
   */
  static final int ENDPOINT_TIMEOUTS = 3;
  static final Duration ENDPOINT_RETRY_INTERVAL = Duration.ofSeconds(30);

  /** After a timeout, how long a liveness probe may take, and how often one is tried while the server is silent. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

  private final URI base;
  private final String basePath;
  private final Duration timeLimit;
  private final long deadlineNanos;
  private final OkHttpClient client;
  private final OkHttpClient probeClient;

  // Set when a request timed out: a server that stopped answering would otherwise cost every
  // remaining check a full timeout.
  private volatile String silentSince;
  private volatile long nextProbeNanos;
  private final List<String> serverErrors = new CopyOnWriteArrayList<>();
  /** Per endpoint ("POST /validate", "GET /user/{id}"): its requests that timed out in a row, and when one may be tried again. */
  private final Map<String, int[]> endpointTimeouts = new ConcurrentHashMap<>();
  private final Map<String, Long> endpointRetryNanos = new ConcurrentHashMap<>();
  private final List<Exchange> errorResponses = new CopyOnWriteArrayList<>();

  /** The largest response body read; a longer one (an endless body) is a finding, not a run out of memory. */
  public static final int MAX_BODY = 8 * 1024 * 1024;

  /** No time limit: every check runs, however long the server takes. */
  public HttpTarget(URI base) {
    this(base, null);
  }

  /**
   * {@code timeLimit}: once it has passed since this target was made, no request is sent any more
   * (see {@link #requireWithinTimeLimit}); null for none.
   */
  public HttpTarget(URI base, Duration timeLimit) {
    this.timeLimit = timeLimit;
    this.deadlineNanos = timeLimit == null ? 0 : System.nanoTime() + timeLimit.toNanos();
    this.base = base;
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    this.basePath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.client = new OkHttpClient.Builder()
        .connectTimeout(TIMEOUT)
        .readTimeout(TIMEOUT)
        .writeTimeout(TIMEOUT)
        .callTimeout(TIMEOUT.multipliedBy(2))
        .followRedirects(false)
        .followSslRedirects(false)
        .build();
    this.probeClient = client.newBuilder()
        .connectTimeout(PROBE_TIMEOUT)
        .readTimeout(PROBE_TIMEOUT)
        .callTimeout(PROBE_TIMEOUT)
        .retryOnConnectionFailure(false)
        .build();
  }

  public URI base() {
    return base;
  }

  /** The request target for a contract path such as {@code /user/42}, below the base URL's path. */
  public String target(String path) {
    return basePath + path;
  }

  /** The full URL of a contract path, kept exactly as written (percent-escapes included). */
  public HttpUrl url(String path) {
    HttpUrl url = HttpUrl.parse(base.getScheme() + "://" + RawHttp.to(base, TIMEOUT).hostHeader() + target(path));
    if (url == null) {
      throw new IllegalArgumentException("not a valid URL: " + base + path);
    }
    return url;
  }

  /** A builder sharing this target's settings, for checks that need their own pool or listener. */
  public OkHttpClient.Builder newClientBuilder() {
    return client.newBuilder();
  }

  public RawHttp raw() {
    return raw(TIMEOUT);
  }

  public RawHttp raw(Duration timeout) {
    requireWithinTimeLimit("a raw connection");
    return RawHttp.to(base, timeout);
  }

  /** Whether the suite's time limit has passed: no check should begin after it. */
  public boolean pastTimeLimit() {
    return timeLimit != null && System.nanoTime() - deadlineNanos >= 0;
  }

  /** Why a check was not judged once the time limit passed: the finding of every clause left. */
  public static String timeLimitFinding(Duration timeLimit) {
    return "not judged: the suite's time limit of " + Text.duration(timeLimit) + " had passed (a healthy server "
        + "is judged in seconds; this one answered too slowly for every clause to be checked)";
  }

  /** Fails at once, without sending anything, once the suite's time limit has passed. */
  public void requireWithinTimeLimit(String request) {
    if (pastTimeLimit()) {
      throw new AssertionError(request + ": not sent: " + timeLimitFinding(timeLimit));
    }
  }

  public Exchange get(String path) {
    return send("GET", path, null, null);
  }

  /** POST /validate with {@code Content-Type: application/json} and the JSON text as UTF-8. */
  public Exchange postJson(String json) {
    return send("POST", "/validate", "application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  /** POST /validate with the given Content-Type (null: none) and body bytes. */
  public Exchange postValidate(String contentType, byte[] body) {
    return send("POST", "/validate", contentType, body);
  }

  /**
   * Sends one request through OkHttp. A null content type sends no Content-Type header; a null body
   * sends none (methods that require one get an empty body).
   */
  public Exchange send(String method, String path, String contentType, byte[] body) {
    String description = describe(method, path, contentType, body);
    requireResponsive(description);
    requireEndpointResponsive(description);
    RequestBody requestBody = null;
    if (body != null) {
      requestBody = RequestBody.create(body, contentType == null ? null : MediaType.parse(contentType));
    } else if (List.of("POST", "PUT", "PATCH").contains(method)) {
      requestBody = RequestBody.create(new byte[0], null);
    }
    Request.Builder request = new Request.Builder().url(url(path)).method(method, requestBody);
    if (contentType != null && MediaType.parse(contentType) == null) {
      request.header("Content-Type", contentType);
    }
    try (Response response = client.newCall(request.build()).execute()) {
      byte[] bytes = response.body() == null ? new byte[0] : boundedBody(response.body().source());
      return recorded(new Exchange(description, response.code(), response.headers().toMultimap(), bytes));
    } catch (IOException e) {
      throw noAnswer(description, e);
    }
  }

  /** Sends raw request bytes (one request, one connection) and reads the whole response. */
  public Exchange sendRaw(String description, byte[] request) {
    requireResponsive(description);
    requireEndpointResponsive(description);
    try {
      return recorded(raw().exchange(request).toExchange(description));
    } catch (IOException e) {
      throw noAnswer(description, e);
    }
  }

  /** The whole body, or a {@link ProtocolException} when it runs past {@link #MAX_BODY} (an endless body). */
  public static byte[] boundedBody(BufferedSource source) throws IOException {
    if (source.request(MAX_BODY + 1L)) {
      throw new ProtocolException("the response body runs past " + MAX_BODY / (1024 * 1024) + " MiB (endless?)");
    }
    return source.readByteArray();
  }

  /**
   * Every exchange so far, through {@link #send} or {@link #sendRaw}, answered with a status of
   * clause 9.1's error responses (400, 404, 405, 413, 415): their bodies are judged by 9.1.
   */
  public List<Exchange> errorResponses() {
    return List.copyOf(errorResponses);
  }

  /** Every exchange so far, through {@link #send} or {@link #sendRaw}, that was answered with a 5xx. */
  public List<String> serverErrors() {
    return List.copyOf(serverErrors);
  }

  private Exchange recorded(Exchange exchange) {
    endpointTimeouts.remove(endpoint(exchange.request()));
    if (exchange.status() >= 500) {
      serverErrors.add(exchange.request() + ": got " + exchange.summary());
    }
    if (ERROR_STATUSES.contains(exchange.status())) {
      errorResponses.add(exchange);
    }
    return exchange;
  }

  /** POST with a Content-Length body over a raw socket, for bodies the server may stop reading. */
  public Exchange postRaw(String path, String contentType, byte[] body) {
    String description = describe("POST", path, contentType, body);
    return sendRaw(description, raw().request("POST", target(path), contentType, body));
  }

  /** What a request was, on one line: method, path, Content-Type when not plain JSON, body start. */
  public static String describe(String method, String path, String contentType, byte[] body) {
    StringBuilder out = new StringBuilder(method).append(' ').append(Text.preview(path, PREVIEW));
    if (body != null || contentType != null) {
      if (contentType == null) {
        out.append(" (no Content-Type)");
      } else if (!contentType.equals("application/json")) {
        out.append(" (Content-Type: ").append(contentType).append(')');
      }
    }
    if (body != null) {
      out.append(' ').append(body.length == 0 ? "(empty body)" : Text.preview(body, PREVIEW));
    }
    return out.toString();
  }

  /**
   * Turns "no response" into a finding that names the request and the reason. A timeout also marks
   * the server as possibly silent: see {@link #requireResponsive}.
   */
  public AssertionError noAnswer(String request, IOException e) {
    if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
      silentSince = request;
      nextProbeNanos = System.nanoTime();
      String endpoint = endpoint(request);
      endpointTimeouts.computeIfAbsent(endpoint, k -> new int[1])[0]++;
      endpointRetryNanos.put(endpoint, System.nanoTime() + ENDPOINT_RETRY_INTERVAL.toNanos());
    }
    return new AssertionError(request + ": no answer (" + reason(e) + ")", e);
  }

  /**
   * Fails at once, without sending anything, while a server whose last request timed out still does
   * not answer {@code GET /plaintext} within {@link #PROBE_TIMEOUT}; it is probed again at most every
   * {@link #PROBE_INTERVAL}. A server that answers again is checked normally.
   */
  public void requireResponsive(String request) {
    requireWithinTimeLimit(request);
    String silent = silentSince;
    if (silent == null) {
      return;
    }
    long now = System.nanoTime();
    if (now - nextProbeNanos >= 0) {
      if (answersProbe()) {
        silentSince = null;
        return;
      }
      nextProbeNanos = System.nanoTime() + PROBE_INTERVAL.toNanos();
    }
    throw new AssertionError(request + ": not sent: the server stopped answering (" + silent
        + " timed out, and GET /plaintext gets no answer within " + PROBE_TIMEOUT.toSeconds() + " s)");
  }

  /**
   * Fails at once, without sending anything, while the request's endpoint has timed out
   * {@link #ENDPOINT_TIMEOUTS} times in a row (the server answering other requests meanwhile); one
   * request is let through every {@link #ENDPOINT_RETRY_INTERVAL}.
   */
  private void requireEndpointResponsive(String request) {
    String endpoint = endpoint(request);
    int[] timeouts = endpointTimeouts.get(endpoint);
    if (timeouts == null || timeouts[0] < ENDPOINT_TIMEOUTS) {
      return;
    }
    if (System.nanoTime() - endpointRetryNanos.getOrDefault(endpoint, 0L) >= 0) {
      endpointRetryNanos.put(endpoint, System.nanoTime() + ENDPOINT_RETRY_INTERVAL.toNanos());
      return;
    }
    throw new AssertionError(request + ": not sent: the server stopped answering " + endpoint + " (its last "
        + timeouts[0] + " requests timed out after " + TIMEOUT.toSeconds() + " s each)");
  }

  /** The endpoint of a request description: its method and path, with any id as {id}. */
  static String endpoint(String request) {
    String[] parts = request.split(" ", 3);
    if (parts.length < 2) {
      return request;
    }
    String path = parts[1];
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    return parts[0] + " " + (path.matches(".*/user/[^/]+") ? path.replaceFirst("/user/[^/]+$", "/user/{id}") : path);
  }

  private boolean answersProbe() {
    try (Response ignored = probeClient.newCall(new Request.Builder().url(url("/plaintext")).build()).execute()) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public static String reason(IOException e) {
    if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
      return "timed out after " + TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof NoResponseException) {
      return e.getMessage();
    }
    String message = e.getMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    return message.toLowerCase(Locale.ROOT).contains("reset") ? "connection reset: " + message : message;
  }

  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
    probeClient.connectionPool().evictAll();
  }
}
