package dev.fairbench.conformance;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;

/**
 * A small real HTTP server implementing docs/SPEC.md correctly, unless told to deviate: each
 * {@link Deviation} is a mistake a real entry could make (several are the seed code's known
 * divergences), so the suite can prove it notices.
 */
final class FaultyServer implements AutoCloseable {
  static final int MIB = 1024 * 1024;

  enum Deviation {
    /** FastAPI and Elysia: validation errors answer 422. */
    VALIDATION_ERRORS_AS_422,
    /** BlackSheep: malformed JSON, an empty body, null or [] answer 500. */
    MALFORMED_JSON_500,
    /** Gin's binding:"required": age 0 looks missing. */
    REJECTS_AGE_ZERO,
    /** Go's encoding/json: keys match case-insensitively. */
    CASE_INSENSITIVE_KEYS,
    /** FastAPI and Elysia: "30" is coerced to 30. */
    COERCES_NUMERIC_STRINGS,
    /** BlackSheep: true is an age. */
    ACCEPTS_BOOLEAN_AGE,
    /** Gin: the request Content-Type is not looked at. */
    IGNORES_CONTENT_TYPE,
    CHARSET_PARAMETER_REJECTED,
    /** Only "application/json; charset=utf-8" is JSON, compared as a string. */
    REQUIRES_CHARSET_PARAMETER,
    MEDIA_TYPE_CASE_SENSITIVE,
    /**
     * Rocket's media-type parser: a ';' right after the subtype and a name=value after every ';', so
     * RFC 9110's whitespace before ';' and empty parameters (application/json;;) are refused with 415.
     */
    MEDIA_TYPE_PARAMETERS_STRICT,
    NO_BODY_LIMIT,
    /** 413 already at exactly 1 MiB. */
    LIMIT_AT_EXACTLY_ONE_MEBIBYTE,
    TRIMS_NAMES,
    TEXT_PLAIN_ERRORS,
    STACK_TRACE_IN_ERRORS,
    EXTRA_KEYS_IN_RESPONSES,
    /** The age echoed as 30.0. */
    AGE_AS_FLOAT,
    /** 30.5 accepted (and truncated). */
    ACCEPTS_FRACTIONS,
    /** 1e400 and other numbers beyond 64 bits answer 500. */
    HUGE_NUMBERS_500,
    ACCEPTS_TRAILING_GARBAGE,
    /** Invalid UTF-8 replaced by U+FFFD instead of rejected, as Go does. */
    LENIENT_UTF8,
    /** /user/42 answers "id": 42, a number. */
    USER_ID_AS_NUMBER,
    /** + in the path decoded as a space, as in a query string. */
    PLUS_AS_SPACE,
    USER_WITHOUT_ID_ROUTED,
    NESTED_USER_PATH_ROUTED,
    INVALID_PERCENT_ENCODING_500,
    /** An id whose percent-decoded bytes are not UTF-8 is echoed with those bytes raw: a body that is not UTF-8. */
    NOT_UTF8_IDS_ECHOED_RAW,
    /** An id whose percent-decoded bytes are not UTF-8 answers 500 (a decoder that throws, uncaught). */
    NOT_UTF8_IDS_500,
    /** Implementation-defined (WARN): raw bytes above 0x7F in the target read as UTF-8 and served, as Go's parser does. */
    NON_ASCII_TARGET_AS_UTF8,
    /** Raw bytes above 0x7F in the target read as ISO-8859-1 and served: the bytes C3 A9 become the id "Ã©". */
    NON_ASCII_TARGET_AS_LATIN1,
    /** Connection: close on every response. */
    KEEP_ALIVE_DISABLED,
    /** Stops answering altogether (the process dies) when a body nests too deeply. */
    CRASHES_ON_DEEP_NESTING,
    /** Accepts connections but never answers again once a body nests too deeply. */
    HANGS_ON_DEEP_NESTING,
    /** Correct, but every answer waits {@link #SLOW_ANSWER} first: far slower than any entry, never timing out. */
    SLOW_ANSWERS,
    /** GET /plaintext redirects to /plaintext/, as frameworks with trailing-slash routes do. */
    PLAINTEXT_REDIRECTS,
    /** "Hello, World!\n": one byte too many. */
    PLAINTEXT_TRAILING_NEWLINE,
    PLAINTEXT_AS_HTML,
    /** The /json route was never registered. */
    JSON_ROUTE_MISSING,
    JSON_AS_TEXT_PLAIN,
    /** The id is the raw path segment, still percent-encoded. */
    NO_PERCENT_DECODING,
    /** A lenient parser: raw control characters inside strings are accepted. */
    ACCEPTS_UNESCAPED_CONTROL_CHARACTERS,
    /** Only the Basic Multilingual Plane, as MySQL's utf8mb3: emoji are rejected. */
    REJECTS_CHARACTERS_OUTSIDE_THE_BMP,
    /** Names are NFC-normalised: e + U+0301 comes back as é. */
    NORMALISES_NAMES,
    /** max_length=1000. */
    REJECTS_LONG_NAMES,
    /** A missing age is the zero value. */
    MISSING_AGE_IS_ZERO,
    /** null is coerced to 0, as JavaScript's Number(null). */
    NULL_AGE_IS_ZERO,
    /** Jackson's UNWRAP_SINGLE_VALUE_ARRAYS: [30] is 30 and ["a"] is "a". */
    UNWRAPS_SINGLE_ELEMENT_ARRAYS,
    /** Implementation-defined (WARN): 30.0 answers 400. */
    INTEGRAL_FLOATS_REJECTED,
    /** Implementation-defined (WARN): the first of duplicate keys wins. */
    DUPLICATE_KEYS_FIRST_WINS,
    /** Implementation-defined (WARN): duplicate keys answer 400. */
    DUPLICATE_KEYS_REJECTED,
    /** A strict parser whose duplicate-key error is not handled: 500. */
    DUPLICATE_KEYS_500,
    /** Implementation-defined (WARN): a known path with another method answers 404. */
    WRONG_METHOD_404,
    /** Python's json by default: NaN, Infinity and -Infinity are parsed (a non-finite age is still 400). */
    ACCEPTS_NON_FINITE_NUMBERS,
    /** JSON5, and Jackson's ALLOW_JAVA_COMMENTS and ALLOW_YAML_COMMENTS: comments are skipped. */
    ACCEPTS_COMMENTS,
    /** Jackson's ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER: {@code \q} is q, {@code \'} is '. */
    ACCEPTS_ANY_ESCAPE,
    /** JSON5's numbers: a decimal point with no digit after it ({@code 30.}) or before it ({@code .3e2}). */
    ACCEPTS_BARE_DECIMAL_POINTS,
    /** The body stripped of whitespace before it is parsed, as String.strip does: a form feed or vertical tab around the value is not refused. */
    BODY_STRIPPED,
    /** The 1 MiB limit is checked against Content-Length only: a chunked body of any size is read. */
    LIMIT_ON_CONTENT_LENGTH_ONLY,
    /** "Lenient JSON": text/json and any application/*+json count as JSON. */
    ACCEPTS_JSON_SUFFIX_MEDIA_TYPES,
    /** The body is parsed before the media type is checked: {@code {} or [] as text/plain answer 400. */
    PARSES_BEFORE_MEDIA_TYPE,
    /** The body gathered as a string and the limit counted in UTF-16 code units, as JavaScript's length. */
    LIMIT_COUNTS_CHARACTERS,
    /** The id percent-decoded twice: /user/100%2541 gives "100A". */
    DECODES_IDS_TWICE,
    /** Implementation-defined (WARN): paths match routes case-insensitively, /PLAINTEXT is /plaintext. */
    CASE_INSENSITIVE_ROUTES,
    /**
     * BlackSheep on the standard library's json: a name holding a lone surrogate ("\\ud800") is
     * parsed, then the response cannot be encoded as UTF-8: 500.
     */
    LONE_SURROGATE_NAMES_500,
    /** The response encoder writes a lone surrogate as its three raw bytes (ED A0 80, WTF-8): not UTF-8. */
    LONE_SURROGATES_AS_RAW_BYTES,

    // Found by the suite's own audit (docs/CONFORMANCE-VALIDATION.md, "An audit for deviations the suite missed").

    /** GET /plaintext carries two Content-Types, text/plain and then text/html: a browser believes the last. */
    TWO_CONTENT_TYPES,
    /** FastAPI's HTTPException in a range check: an age out of range answers 400 {"detail": ...}, other errors {"error": ...}. */
    RANGE_ERRORS_AS_DETAIL,
    /** The query parameters are merged into the user: /user/42?x=1 answers {"id":"42","name":"User 42","x":"1"}. */
    QUERY_PARAMETERS_ECHOED,
    /** /validate is routed for every method with a body: PUT and PATCH are validated like POST. */
    VALIDATE_ANY_METHOD_WITH_A_BODY,
    /** A name longer than 65,535 characters answers 400 (a 64 KiB string limit). */
    NAMES_LIMITED_TO_64_KIB,
    /** A body without Content-Length (chunked) answers 413, whatever its size: the limit wants a declared length. */
    CHUNKED_BODIES_413,
    /** The id or name being answered is kept in a field shared by all requests: concurrent requests answer each other's. */
    SHARED_REQUEST_STATE,
    /** GET /json streams an endless chunked body: the suite must say so and go on, not run out of memory. */
    ENDLESS_JSON_BODY,
    /** Every JSON body is encoded as UTF-16 with its byte order mark, as Java's "UTF-16" writes: not UTF-8 (RFC 8259 §8.1). */
    JSON_IN_UTF16,
    /** Every JSON body begins with the UTF-8 byte order mark EF BB BF, which RFC 8259 §8.1 forbids: a Windows encoder's habit. */
    JSON_WITH_BYTE_ORDER_MARK,

    // Found by the entries' audit with hostile input (docs/CONFORMANCE-VALIDATION.md).

    /** Implementation-defined (WARN): numbers read as 64-bit floats, so 30.000000000000001 is 30 and 1e-400 is 0. */
    FRACTIONS_READ_AS_DOUBLES,
    /** Implementation-defined (WARN): a number beyond a 64-bit float's range anywhere in the body answers 400. */
    NUMBERS_LIMITED_TO_DOUBLE_RANGE,
    /** A number beyond a 64-bit float's range anywhere in the body fails the handler: 500. */
    NUMBERS_BEYOND_DOUBLE_RANGE_500,
    /** echo's BodyLimit middleware before the media-type check: an oversized text/plain body answers 413, not 415. */
    SIZE_CHECKED_BEFORE_MEDIA_TYPE,
    /** Echo's router: a trailing :id takes the rest of the path, so PUT /user/a/b is the route's 405 (GET's 404 is right). */
    NESTED_USER_PATH_405,
    /** Jackson's default StreamReadConstraints: an object key over 50,000 characters answers 400. */
    LONG_KEYS_REJECTED,
    /** Python's Decimal as parse_float: an exponent beyond 999,999,999,999,999,999 raises InvalidOperation, uncaught: 500. */
    EXPONENTS_BEYOND_DECIMAL_500,
    /** Bun.serve's maxRequestBodySize (128 MiB): a larger declared Content-Length gets a bare 413, no headers, no body. */
    HUGE_DECLARED_BODY_BARE_413,

    // Found by an audit with faulty servers of the suite (docs/CONFORMANCE-VALIDATION.md, 2026-12-04).

    /** A Node stack frame (no heading) in the 400 error messages. */
    JS_STACK_FRAMES_IN_ERRORS,
    /** Python stack frames without their "Traceback" line in the 400 error messages. */
    PYTHON_FRAMES_IN_ERRORS,
    /** Error responses say application/json; charset=utf-16 (their bytes are UTF-8). */
    ERRORS_CHARSET_UTF16,
    /** The body ends at its first NUL, as a parser handed a C string reads it. */
    NUL_ENDS_THE_BODY,
    /** Keys compared as written: {"n\u0061me":...} is not name. */
    KEYS_MATCHED_AS_WRITTEN,
    /** Any surrogate escape refused, so an escaped pair (a valid character outside the BMP) answers 400. */
    SURROGATE_ESCAPES_REJECTED,
    /** The id cut at ';', as servlet containers cut matrix parameters: /user/a;b is "a". */
    IDS_CUT_AT_SEMICOLON,
    /** Ids HTML-escaped before they are echoed: /user/%3Cb%3E is "&lt;b&gt;". */
    IDS_HTML_ESCAPED,
    /** The GET routes answer every method as GET: POST /json is 200. */
    ANY_METHOD_ON_GET_ROUTES,
    /** GET / answers 200 with an HTML page. */
    ROOT_SERVED,
    /** The media type matched as application/json followed by a word boundary: application/json-seq is JSON. */
    JSON_MEDIA_TYPE_BY_PREFIX,
    /** A media type with more than one parameter is refused with 415. */
    ONE_PARAMETER_ONLY,
    /** A success echoing a name outside ASCII says text/plain; charset=utf-8. */
    SUCCESS_AS_TEXT_FOR_NON_ASCII_NAMES,
    /** "valid": false for the age 0. */
    VALID_FALSE_FOR_AGE_ZERO,
    /** From the 41st GET /user/{id} on, every id is answered with the first one's body: a cache keyed on the route. */
    USER_ANSWERS_CACHED,

    // The HTTP layer's deviations: a FaultyFront in front of the server has them.

    /** Implementation-defined (WARN): Bun's parser, a control byte in the target answers 505. */
    CONTROL_BYTES_IN_TARGET_505(true),
    /** Implementation-defined (WARN): Netty's parser, a control byte is kept in the path and served. */
    CONTROL_BYTES_IN_TARGET_KEPT(true),
    /** The target is cut at the control byte, as a C string: /plaintext\\0 is served as /plaintext. */
    CONTROL_BYTES_IN_TARGET_CUT(true),
    /** Implementation-defined (WARN): malformed percent-encoding kept as written, as Python's unquote does: /user/%zz is "%zz". */
    MALFORMED_ESCAPES_KEPT(true),
    /** Malformed percent-encoding replaced by U+FFFD, as Bun's router does: /user/%zz is "\uFFFDz". */
    MALFORMED_ESCAPES_REPLACED(true),
    /** A control byte in a header value answers 500. */
    CONTROL_BYTES_IN_HEADER_VALUES_500(true),
    /** A request head over 32 KiB answers 500 instead of 431. */
    LARGE_HEADER_BLOCKS_500(true),
    /** Content-Length is believed over Transfer-Encoding: chunked (CL.TE request smuggling). */
    CONTENT_LENGTH_OVER_TRANSFER_ENCODING(true),
    /** Of two Content-Lengths (or a list), the first is believed. */
    FIRST_CONTENT_LENGTH_WINS(true),
    /** A negative or non-numeric Content-Length is read as 0, so the body is read as the next request. */
    INVALID_CONTENT_LENGTH_IS_ZERO(true),
    /** Ambiguous framing answers 400 but the connection stays open and its body is read as the next request. */
    FRAMING_ERROR_KEEPS_THE_CONNECTION(true),
    /** Expect: 100-continue is ignored: no 100 Continue, the server waits for the body. */
    IGNORES_EXPECT_CONTINUE(true),
    /** Bun: 100 Continue only for the exact value 100-continue; 100-Continue is ignored and the server waits for the body. */
    EXPECT_CONTINUE_CASE_SENSITIVE(true),
    /** A strict parser: an Expect value other than exactly 100-continue (100-Continue too) is a bad request, answered 400 at once. */
    EXPECT_OTHER_LETTER_CASE_400(true),
    /** At most 256 connections are served at once; the others wait unserved. */
    CONNECTION_LIMIT(true),
    /** One request head is read at a time, as a blocking single-threaded server does: a slow client holds up all. */
    SERIALISES_REQUEST_HEADS(true),
    /** Answers the first request of a pipelined burst and drops the rest of what was read with it, as a server doing one read per request. */
    PIPELINED_REQUESTS_DROPPED(true),
    /** Answers the requests of a pipelined burst together, in the reverse order, as one answering each as it completes. */
    PIPELINED_ANSWERS_REVERSED(true),
    /** Answers every request of a pipelined burst, then closes the connection. */
    CLOSES_AFTER_A_PIPELINED_BURST(true),
    /** Answers the first 32 requests of a pipelined burst, then closes the connection (a queue of fixed size that gives up). */
    PIPELINED_BURST_CUT_AFTER_32(true),
    /** A body is read by its Content-Length and then whatever else was already read, so a pipelined request runs into it. */
    PIPELINED_BODIES_RUN_TOGETHER(true),
    /** Connections past 256 open at once answer 429 Too Many Requests instead of being served. */
    LOAD_SHEDDING_429(true),
    /** Every response carries its Content-Length twice, two identical header lines (a handler's and the framework's). */
    DUPLICATE_CONTENT_LENGTH(true),
    /** Every response is chunked and carries Content-Length too (RFC 9112 6.2: a sender must not). */
    CONTENT_LENGTH_WITH_CHUNKED_RESPONSES(true),
    /** A Content-Length over 1 MiB answers 413 from the head, the connection kept and the body left unread: it is read as requests. */
    OVERSIZED_BODY_LEFT_UNREAD(true),
    /** A request line that is not HTTP/1.x is answered with a line of text, not an HTTP response, then closed. */
    GARBAGE_FOR_MALFORMED_REQUESTS(true),
    /** Connection: close is ignored: the answer says nothing of it and the connection stays open. */
    IGNORES_CONNECTION_CLOSE(true),
    /** An HTTP/1.0 request is answered in the chunked transfer coding, which HTTP/1.0 does not know. */
    CHUNKED_FOR_HTTP10(true),
    /** With more than 64 connections open, answers carry no Content-Type (a header cache that runs dry under load). */
    CONTENT_TYPE_DROPPED_UNDER_LOAD(true),
    /** Every response head ends its lines in a bare LF, not CRLF: lenient clients read it, strict ones refuse it. */
    BARE_LF_RESPONSE_HEADS(true),
    /** Date in RFC 850's obsolete format (Saturday, 05-Dec-26 ...), which recipients read and senders must not generate. */
    OBSOLETE_DATE_FORMAT(true),
    /** After 100 Continue and the body, the final answer has the usual status and headers but an empty body. */
    EMPTY_BODY_AFTER_CONTINUE(true);

    /** True when the deviation is in the HTTP layer, so a {@link FaultyFront} has it. */
    final boolean atTheFront;

    Deviation() {
      this(false);
    }

    Deviation(boolean atTheFront) {
      this.atTheFront = atTheFront;
    }
  }

  private final Set<Deviation> deviations;
  private final String prefix;
  private final HttpServer server;
  /** The HTTP layer in front of the server, or null when the client talks to the server directly. */
  private final FaultyFront front;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final JsonMapper mapper;
  /** SLOW_ANSWERS: how long every answer waits. */
  static final Duration SLOW_ANSWER = Duration.ofMillis(300);
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile boolean hung;
  private volatile JsonNode sharedAnswer;
  private final java.util.concurrent.atomic.AtomicInteger userRequests = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicReference<String> firstUserId = new java.util.concurrent.atomic.AtomicReference<>();
  private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();

  private FaultyServer(String prefix, Set<Deviation> deviations, boolean behindAFront) throws IOException {
    this.prefix = prefix;
    this.deviations = deviations.isEmpty() ? EnumSet.noneOf(Deviation.class) : EnumSet.copyOf(deviations);
    // A key as long as the body allows (SPEC 8.4); Jackson's default refuses one over 50,000 characters.
    JsonFactory factory = has(Deviation.LONG_KEYS_REJECTED) ? new JsonFactory()
        : JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder().maxNameLength(MIB).build()).build();
    JsonMapper.Builder json = JsonMapper.builder(factory).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    if (!has(Deviation.ACCEPTS_TRAILING_GARBAGE)) {
      json.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }
    if (has(Deviation.DUPLICATE_KEYS_REJECTED) || has(Deviation.DUPLICATE_KEYS_500)) {
      json.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }
    if (has(Deviation.ACCEPTS_UNESCAPED_CONTROL_CHARACTERS)) {
      json.enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS);
    }
    if (has(Deviation.ACCEPTS_NON_FINITE_NUMBERS)) {
      json.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
    }
    if (has(Deviation.ACCEPTS_COMMENTS)) {
      json.enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_YAML_COMMENTS);
    }
    if (has(Deviation.ACCEPTS_ANY_ESCAPE)) {
      json.enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER);
    }
    if (has(Deviation.ACCEPTS_BARE_DECIMAL_POINTS)) {
      json.enable(JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS, JsonReadFeature.ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS);
    }
    this.mapper = json.build();
    // A backlog for clause 11.4's 512 connections opened at once.
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
    Deviation atTheFront = this.deviations.stream().filter(d -> d.atTheFront).findFirst().orElse(null);
    this.front = behindAFront || atTheFront != null ? new FaultyFront(serverUrl(), atTheFront) : null;
  }

  static FaultyServer correct() throws IOException {
    return new FaultyServer("", Set.of(), false);
  }

  /** A correct server whose paths all sit below a prefix such as {@code /api}. */
  static FaultyServer correctUnder(String prefix) throws IOException {
    return new FaultyServer(prefix, Set.of(), false);
  }

  /** A correct server behind a {@link FaultyFront} with no deviation: the front alone must change nothing. */
  static FaultyServer correctBehindAFront() throws IOException {
    return new FaultyServer("", Set.of(), true);
  }

  static FaultyServer with(Deviation deviation) throws IOException {
    return new FaultyServer("", Set.of(deviation), false);
  }

  URI url() {
    return front != null ? front.url() : serverUrl();
  }

  private URI serverUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + prefix);
  }

  @Override
  public void close() {
    closed.countDown();
    if (front != null) {
      try {
        front.close();
      } catch (IOException ignored) {
        // closing
      }
    }
    server.stop(0);
    executor.shutdownNow();
  }

  private boolean has(Deviation deviation) {
    return deviations.contains(deviation);
  }

  /** The JDK's HttpServer closes on Connection: close only as the header's whole value; in a list it is missed. */
  private static boolean asksToClose(HttpExchange exchange) {
    List<String> values = exchange.getRequestHeaders().get("Connection");
    return values != null && FaultyFront.holdsToken(values, "close");
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (hung) {
        hang();
        return;
      }
      if (has(Deviation.SLOW_ANSWERS)) {
        try {
          Thread.sleep(SLOW_ANSWER);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      if (has(Deviation.KEEP_ALIVE_DISABLED) || asksToClose(exchange)) {
        exchange.getResponseHeaders().set("Connection", "close");
      }
      String path = exchange.getRequestURI().getRawPath();
      // The request line arrives as ISO-8859-1: a char above 0x7F is a raw byte of the target (SPEC 12.5).
      if (path.chars().anyMatch(c -> c > 0x7F)) {
        if (has(Deviation.NON_ASCII_TARGET_AS_UTF8)) {
          path = new String(path.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        } else if (!has(Deviation.NON_ASCII_TARGET_AS_LATIN1)) {
          error(exchange, 400, "the request target is not US-ASCII");
          return;
        }
      }
      if (!path.startsWith(prefix + "/")) {
        error(exchange, 404, "no such path: " + path);
        return;
      }
      path = path.substring(prefix.length());
      String method = exchange.getRequestMethod();
      String route = has(Deviation.CASE_INSENSITIVE_ROUTES) ? path.toLowerCase(Locale.ROOT) : path;
      switch (route) {
        case "/" -> {
          if (has(Deviation.ROOT_SERVED)) {
            send(exchange, 200, "text/html", "<h1>It works</h1>".getBytes(StandardCharsets.US_ASCII));
          } else {
            error(exchange, 404, "no such path: /");
          }
        }
        case "/plaintext" -> {
          if (has(Deviation.PLAINTEXT_REDIRECTS)) {
            exchange.getResponseHeaders().set("Location", prefix + "/plaintext/");
            exchange.sendResponseHeaders(301, -1);
          } else if (allowed(exchange, method, "GET")) {
            String body = has(Deviation.PLAINTEXT_TRAILING_NEWLINE) ? "Hello, World!\n" : "Hello, World!";
            if (has(Deviation.TWO_CONTENT_TYPES)) {
              exchange.getResponseHeaders().add("Content-Type", "text/plain");
              exchange.getResponseHeaders().add("Content-Type", "text/html");
              exchange.sendResponseHeaders(200, body.length());
              try (OutputStream out = exchange.getResponseBody()) {
                out.write(body.getBytes(StandardCharsets.US_ASCII));
              }
              return;
            }
            send(exchange, 200, has(Deviation.PLAINTEXT_AS_HTML) ? "text/html" : "text/plain",
                body.getBytes(StandardCharsets.US_ASCII));
          }
        }
        case "/json" -> {
          if (has(Deviation.JSON_ROUTE_MISSING)) {
            error(exchange, 404, "no such path: /json");
          } else if (allowed(exchange, method, "GET") && has(Deviation.ENDLESS_JSON_BODY)) {
            endless(exchange);
          } else if (method.equals("GET")) {
            ObjectNode body = JsonNodeFactory.instance.objectNode().put("message", "Hello, World!");
            if (has(Deviation.EXTRA_KEYS_IN_RESPONSES)) {
              body.put("server", "faulty");
            }
            if (has(Deviation.JSON_AS_TEXT_PLAIN)) {
              send(exchange, 200, "text/plain", mapper.writeValueAsBytes(body));
            } else {
              sendJson(exchange, 200, body);
            }
          }
        }
        case "/validate" -> {
          if (has(Deviation.VALIDATE_ANY_METHOD_WITH_A_BODY) && (method.equals("PUT") || method.equals("PATCH"))
              || allowed(exchange, method, "POST")) {
            validate(exchange);
          }
        }
        default -> {
          if (route.startsWith("/user/")) {
            user(exchange, method, path.substring("/user/".length()));
          } else {
            error(exchange, 404, "no such path: " + path);
          }
        }
      }
    }
  }

  private boolean allowed(HttpExchange exchange, String method, String expected) throws IOException {
    if (method.equals(expected) || expected.equals("GET") && has(Deviation.ANY_METHOD_ON_GET_ROUTES)) {
      return true;
    }
    if (has(Deviation.WRONG_METHOD_404)) {
      error(exchange, 404, "not found");
    } else {
      exchange.getResponseHeaders().set("Allow", expected);
      error(exchange, 405, method + " is not allowed here; use " + expected);
    }
    return false;
  }

  private void user(HttpExchange exchange, String method, String segment) throws IOException {
    boolean routed = !segment.isEmpty() && !segment.contains("/")
        || segment.isEmpty() && has(Deviation.USER_WITHOUT_ID_ROUTED)
        || segment.contains("/") && has(Deviation.NESTED_USER_PATH_ROUTED);
    if (!routed) {
      if (segment.contains("/") && !method.equals("GET") && has(Deviation.NESTED_USER_PATH_405)) {
        error(exchange, 405, method + " is not allowed here; use GET");
        return;
      }
      error(exchange, 404, "no such path: /user/" + segment);
      return;
    }
    if (!allowed(exchange, method, "GET")) {
      return;
    }
    if (has(Deviation.IDS_CUT_AT_SEMICOLON) && segment.contains(";")) {
      segment = segment.substring(0, segment.indexOf(';'));
    }
    String id = has(Deviation.NO_PERCENT_DECODING) ? segment : percentDecode(segment);
    if (id != null && has(Deviation.USER_ANSWERS_CACHED)) {
      firstUserId.compareAndSet(null, id);
      if (userRequests.incrementAndGet() > 40) {
        id = firstUserId.get();
      }
    }
    if (id != null && has(Deviation.IDS_HTML_ESCAPED)) {
      id = id.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
    if (id != null && has(Deviation.DECODES_IDS_TWICE)) {
      id = percentDecode(id);
    }
    if (id == null && !malformedEscape(segment) && has(Deviation.NOT_UTF8_IDS_500)) {
      send(exchange, 500, "text/plain", "Internal Server Error".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    if (id == null && !malformedEscape(segment) && has(Deviation.NOT_UTF8_IDS_ECHOED_RAW)) {
      byte[] raw = percentDecodedBytes(segment);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes("{\"id\":\"".getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(raw);
      out.writeBytes("\",\"name\":\"User ".getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(raw);
      out.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
      send(exchange, 200, "application/json", out.toByteArray());
      return;
    }
    if (id == null) {
      if (has(Deviation.INVALID_PERCENT_ENCODING_500)) {
        send(exchange, 500, "text/plain", "Internal Server Error".getBytes(StandardCharsets.US_ASCII));
      } else {
        error(exchange, 400, "the id is not valid percent-encoded UTF-8");
      }
      return;
    }
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    if (has(Deviation.USER_ID_AS_NUMBER) && id.matches("-?\\d+(\\.\\d+)?")) {
      body.put("id", new BigDecimal(id));
    } else {
      body.put("id", id);
    }
    body.put("name", "User " + id);
    if (has(Deviation.EXTRA_KEYS_IN_RESPONSES)) {
      body.put("extra", true);
    }
    String query = exchange.getRequestURI().getRawQuery();
    if (has(Deviation.QUERY_PARAMETERS_ECHOED) && query != null) {
      for (String pair : query.split("&")) {
        String[] keyValue = pair.split("=", 2);
        if (!body.has(keyValue[0])) {
          body.put(keyValue[0], keyValue.length > 1 ? keyValue[1] : "");
        }
      }
    }
    if (has(Deviation.SHARED_REQUEST_STATE)) {
      body = (ObjectNode) shared(body);
    }
    sendJson(exchange, 200, body);
  }

  /** A % not followed by two hex digits (RFC 3986 2.1). */
  private static boolean malformedEscape(String segment) {
    return Pattern.compile("%(?![0-9A-Fa-f]{2})").matcher(segment).find();
  }

  /** The bytes of the segment percent-decoded, well-formed escapes only (ASCII otherwise). */
  private static byte[] percentDecodedBytes(String segment) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '%' && i + 2 < segment.length() && Character.digit(segment.charAt(i + 1), 16) >= 0
          && Character.digit(segment.charAt(i + 2), 16) >= 0) {
        bytes.write(Integer.parseInt(segment.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return bytes.toByteArray();
  }

  private String percentDecode(String segment) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '%') {
        if (i + 2 >= segment.length()) {
          return null;
        }
        int high = Character.digit(segment.charAt(i + 1), 16);
        int low = Character.digit(segment.charAt(i + 2), 16);
        if (high < 0 || low < 0) {
          return null;
        }
        bytes.write(high * 16 + low);
        i += 2;
      } else if (c == '+' && has(Deviation.PLUS_AS_SPACE)) {
        bytes.write(' ');
      } else {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return utf8(bytes.toByteArray(), false);
  }

  private void validate(HttpExchange exchange) throws IOException {
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    boolean mediaTypeChecked = has(Deviation.IGNORES_CONTENT_TYPE) || isJson(contentType);
    String wrongMediaType = "Content-Type must be application/json, got " + (contentType == null ? "none" : contentType);
    String declaredLength = exchange.getRequestHeaders().getFirst("Content-Length");
    if (has(Deviation.SIZE_CHECKED_BEFORE_MEDIA_TYPE) && declaredLength != null && Long.parseLong(declaredLength) > MIB) {
      error(exchange, 413, "the body is larger than 1 MiB");
      return;
    }
    if (!mediaTypeChecked && !has(Deviation.PARSES_BEFORE_MEDIA_TYPE)) {
      error(exchange, 415, wrongMediaType);
      return;
    }
    long limit = has(Deviation.NO_BODY_LIMIT) ? Long.MAX_VALUE
        : has(Deviation.LIMIT_AT_EXACTLY_ONE_MEBIBYTE) ? MIB - 1 : MIB;
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null && Long.parseLong(declared) > 128 * MIB && has(Deviation.HUGE_DECLARED_BODY_BARE_413)) {
      exchange.getResponseHeaders().set("Connection", "close");
      exchange.sendResponseHeaders(413, -1);
      exchange.close();
      return;
    }
    if (declared != null && Long.parseLong(declared) > limit && !has(Deviation.LIMIT_COUNTS_CHARACTERS)) {
      error(exchange, 413, "the body is larger than 1 MiB");
      return;
    }
    if (declared == null && has(Deviation.CHUNKED_BODIES_413)) {
      error(exchange, 413, "the body is larger than 1 MiB (no Content-Length)");
      return;
    }
    boolean readAll = declared == null && has(Deviation.LIMIT_ON_CONTENT_LENGTH_ONLY) || has(Deviation.LIMIT_COUNTS_CHARACTERS);
    byte[] body = readAtMost(exchange.getRequestBody(), readAll ? Long.MAX_VALUE : limit);
    if (body == null) {
      error(exchange, 413, "the body is larger than 1 MiB");
      return;
    }
    String text = utf8(body, has(Deviation.LENIENT_UTF8));
    if (text == null) {
      badJson(exchange, "the body is not valid UTF-8");
      return;
    }
    if (has(Deviation.LIMIT_COUNTS_CHARACTERS) && text.length() > limit) {
      error(exchange, 413, "the body is longer than 1 Mi characters");
      return;
    }
    if (has(Deviation.BODY_STRIPPED)) {
      text = text.strip();
    }
    if (has(Deviation.NUL_ENDS_THE_BODY) && text.indexOf('\0') >= 0) {
      text = text.substring(0, text.indexOf('\0'));
    }
    if (has(Deviation.KEYS_MATCHED_AS_WRITTEN) && !(text.contains("\"name\"") && text.contains("\"age\""))) {
      badJson(exchange, "name and age are required");
      return;
    }
    if (has(Deviation.SURROGATE_ESCAPES_REJECTED) && text.matches("(?s).*\\\\u[dD][89a-fA-F].*")) {
      badJson(exchange, "surrogate escapes are not allowed");
      return;
    }
    JsonNode json;
    try {
      try {
        json = has(Deviation.DUPLICATE_KEYS_FIRST_WINS) ? readFirstKeyWins(text) : mapper.readTree(text);
      } catch (NumberFormatException beyondBigDecimal) {
        // An exponent beyond an int (1e99999999999999999999): read as a 64-bit float, it is infinite or 0.
        if (has(Deviation.EXPONENTS_BEYOND_DECIMAL_500)) {
          send(exchange, 500, "text/plain", "Internal Server Error: decimal.InvalidOperation".getBytes(StandardCharsets.US_ASCII));
          return;
        }
        json = mapper.reader().without(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(text);
      }
    } catch (StreamConstraintsException e) {
      if (has(Deviation.CRASHES_ON_DEEP_NESTING)) {
        crash();
        return;
      }
      if (has(Deviation.HANGS_ON_DEEP_NESTING)) {
        hung = true;
        hang();
        return;
      }
      badJson(exchange, "the body nests too deeply");
      return;
    } catch (JsonProcessingException e) {
      if (has(Deviation.DUPLICATE_KEYS_500) && e.getOriginalMessage().startsWith("Duplicate field")) {
        send(exchange, 500, "text/plain", "Internal Server Error".getBytes(StandardCharsets.US_ASCII));
        return;
      }
      badJson(exchange, "the body is not JSON: " + e.getOriginalMessage());
      return;
    }
    if (json == null || !json.isObject()) {
      badJson(exchange, "the body must be a JSON object");
      return;
    }
    if (has(Deviation.NUMBERS_BEYOND_DOUBLE_RANGE_500) && beyondDoubleRange(json)) {
      send(exchange, 500, "text/plain", "Internal Server Error".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    if (has(Deviation.NUMBERS_LIMITED_TO_DOUBLE_RANGE) && beyondDoubleRange(json)) {
      badJson(exchange, "a number is out of range");
      return;
    }
    if (!mediaTypeChecked) {
      error(exchange, 415, wrongMediaType);
      return;
    }
    int invalid = has(Deviation.VALIDATION_ERRORS_AS_422) ? 422 : 400;

    JsonNode name = unwrapped(field(json, "name"));
    if (name == null || !name.isTextual()) {
      error(exchange, invalid, "name must be a string");
      return;
    }
    String nameText = has(Deviation.TRIMS_NAMES) ? name.asText().strip() : name.asText();
    if (has(Deviation.NORMALISES_NAMES)) {
      nameText = Normalizer.normalize(nameText, Normalizer.Form.NFC);
    }
    int length = nameText.codePointCount(0, nameText.length());
    if (length < 1) {
      error(exchange, invalid, "name must not be empty");
      return;
    }
    if (has(Deviation.REJECTS_CHARACTERS_OUTSIDE_THE_BMP) && length != nameText.length()) {
      error(exchange, invalid, "name has characters outside the Basic Multilingual Plane");
      return;
    }
    if (has(Deviation.REJECTS_LONG_NAMES) && length > 1000) {
      error(exchange, invalid, "name is too long");
      return;
    }
    if (has(Deviation.NAMES_LIMITED_TO_64_KIB) && length > 65_535) {
      error(exchange, invalid, "name is longer than 65,535 characters");
      return;
    }

    JsonNode age = unwrapped(field(json, "age"));
    if (age == null && has(Deviation.MISSING_AGE_IS_ZERO) || age != null && age.isNull() && has(Deviation.NULL_AGE_IS_ZERO)) {
      age = JsonNodeFactory.instance.numberNode(0);
    }
    if (age != null && age.isTextual() && has(Deviation.COERCES_NUMERIC_STRINGS) && age.asText().matches("-?\\d+")) {
      age = JsonNodeFactory.instance.numberNode(new BigInteger(age.asText()));
    }
    if (age != null && age.isBoolean() && has(Deviation.ACCEPTS_BOOLEAN_AGE)) {
      age = JsonNodeFactory.instance.numberNode(age.booleanValue() ? 1 : 0);
    }
    if (age == null || !age.isNumber() || age.isDouble() && !Double.isFinite(age.doubleValue())) {
      error(exchange, invalid, "age must be an integer");
      return;
    }
    BigDecimal value = age.decimalValue();
    if (has(Deviation.FRACTIONS_READ_AS_DOUBLES) && !age.isIntegralNumber()) {
      double rounded = value.doubleValue();
      if (!Double.isFinite(rounded)) {
        error(exchange, invalid, "age must be an integer");
        return;
      }
      value = BigDecimal.valueOf(rounded);
    }
    if (!age.isIntegralNumber()) {
      if (has(Deviation.INTEGRAL_FLOATS_REJECTED)) {
        error(exchange, invalid, "age must be written as an integer");
        return;
      }
      if (has(Deviation.ACCEPTS_FRACTIONS)) {
        value = value.setScale(0, RoundingMode.DOWN);
      } else if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
        error(exchange, invalid, "age must be an integer");
        return;
      }
    }
    if (has(Deviation.HUGE_NUMBERS_500) && value.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      send(exchange, 500, "text/plain", "Internal Server Error: integer overflow".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    int lowest = has(Deviation.REJECTS_AGE_ZERO) ? 1 : 0;
    if (value.compareTo(BigDecimal.valueOf(lowest)) < 0 || value.compareTo(BigDecimal.valueOf(150)) > 0) {
      if (has(Deviation.RANGE_ERRORS_AS_DETAIL)) {
        sendJson(exchange, invalid, JsonNodeFactory.instance.objectNode().put("detail", "age must be between 0 and 150"));
        return;
      }
      error(exchange, invalid, "age must be between 0 and 150");
      return;
    }

    if (has(Deviation.LONE_SURROGATE_NAMES_500) && !nameText.equals(withoutLoneSurrogates(nameText))) {
      send(exchange, 500, "text/plain",
          "Internal Server Error: 'utf-8' codec can't encode character: surrogates not allowed".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    ObjectNode result = JsonNodeFactory.instance.objectNode().put("name", nameText);
    if (has(Deviation.AGE_AS_FLOAT)) {
      result.put("age", value.doubleValue());
    } else {
      result.put("age", value.intValueExact());
    }
    result.put("valid", !(has(Deviation.VALID_FALSE_FOR_AGE_ZERO) && value.signum() == 0));
    if (has(Deviation.EXTRA_KEYS_IN_RESPONSES)) {
      result.put("checked", true);
    }
    if (has(Deviation.SUCCESS_AS_TEXT_FOR_NON_ASCII_NAMES) && !nameText.chars().allMatch(c -> c < 0x80)) {
      send(exchange, 200, "text/plain; charset=utf-8", mapper.writeValueAsBytes(result));
      return;
    }
    if (has(Deviation.LONE_SURROGATES_AS_RAW_BYTES)) {
      send(exchange, 200, "application/json", wtf8(mapper.writeValueAsString(result)));
      return;
    }
    sendJson(exchange, 200, has(Deviation.SHARED_REQUEST_STATE) ? shared(result) : result);
  }

  /**
   * SHARED_REQUEST_STATE: the answer goes through a field all requests share. Alone a request gets its
   * own back; while another is in flight, whichever wrote last.
   */
  private JsonNode shared(JsonNode answer) {
    sharedAnswer = answer;
    // Alone, a request reads its own answer back; the pause is the window in which a concurrent one
    // overwrites it, long enough to be hit on a loaded machine (a mere yield was missed there).
    try {
      Thread.sleep(inFlight.incrementAndGet() > 1 ? 20 : 5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    inFlight.decrementAndGet();
    return sharedAnswer;
  }

  /** ENDLESS_JSON_BODY: a chunked body of spaces that never ends, until the client goes away. */
  private static void endless(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0);
    byte[] spaces = " ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write('{');
      while (true) {
        out.write(spaces);
      }
    } catch (IOException e) {
      // the client stopped reading
    }
  }

  private static boolean beyondDoubleRange(JsonNode node) {
    if (node.isNumber()) {
      return !Double.isFinite(node.isDouble() ? node.doubleValue() : node.decimalValue().doubleValue());
    }
    for (JsonNode child : node) {
      if (beyondDoubleRange(child)) {
        return true;
      }
    }
    return false;
  }

  private JsonNode field(JsonNode object, String name) {
    if (!has(Deviation.CASE_INSENSITIVE_KEYS)) {
      return object.get(name);
    }
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      if (field.getKey().equalsIgnoreCase(name)) {
        return field.getValue();
      }
    }
    return null;
  }

  private JsonNode unwrapped(JsonNode value) {
    if (has(Deviation.UNWRAPS_SINGLE_ELEMENT_ARRAYS) && value != null && value.isArray() && value.size() == 1) {
      return value.get(0);
    }
    return value;
  }

  /** Reads a top-level object keeping the first of duplicate keys; anything else as usual. */
  private JsonNode readFirstKeyWins(String text) throws IOException {
    try (JsonParser parser = mapper.createParser(text)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return mapper.readTree(text);
      }
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String key = parser.currentName();
        parser.nextToken();
        JsonNode value = mapper.readerFor(JsonNode.class)
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(parser);
        if (!object.has(key)) {
          object.set(key, value);
        }
      }
      if (parser.nextToken() != null) {
        throw new com.fasterxml.jackson.core.JsonParseException(parser, "trailing tokens");
      }
      return object;
    }
  }

  private void badJson(HttpExchange exchange, String message) throws IOException {
    if (has(Deviation.MALFORMED_JSON_500)) {
      send(exchange, 500, "text/plain", "Internal Server Error".getBytes(StandardCharsets.US_ASCII));
    } else {
      error(exchange, 400, message);
    }
  }

  private void hang() {
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void crash() {
    Thread.ofVirtual().start(() -> server.stop(0));
  }

  private boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    if (has(Deviation.CHARSET_PARAMETER_REJECTED) && contentType.contains(";")) {
      return false;
    }
    if (has(Deviation.MEDIA_TYPE_PARAMETERS_STRICT) && !contentType.matches("[^;\\s]+(;[ \\t]*[^;=\\s]+=[^;]*)*")) {
      return false;
    }
    if (has(Deviation.REQUIRES_CHARSET_PARAMETER)) {
      return contentType.equals("application/json; charset=utf-8");
    }
    if (has(Deviation.ONE_PARAMETER_ONLY) && contentType.split(";", -1).length > 2) {
      return false;
    }
    if (has(Deviation.JSON_MEDIA_TYPE_BY_PREFIX)) {
      return contentType.toLowerCase(Locale.ROOT).matches("application/json\\b.*");
    }
    String type = contentType.split(";", 2)[0].trim();
    if (has(Deviation.ACCEPTS_JSON_SUFFIX_MEDIA_TYPES)) {
      String lower = type.toLowerCase(Locale.ROOT);
      return lower.equals("application/json") || lower.equals("text/json")
          || lower.startsWith("application/") && lower.endsWith("+json");
    }
    return has(Deviation.MEDIA_TYPE_CASE_SENSITIVE) ? type.equals("application/json") : type.equalsIgnoreCase("application/json");
  }

  /** The whole body, or null when it is longer than {@code limit}. */
  private static byte[] readAtMost(InputStream in, long limit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[64 * 1024];
    for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
      out.write(buffer, 0, n);
      if (out.size() > limit) {
        return null;
      }
    }
    return out.toByteArray();
  }

  /** The text with each lone surrogate replaced by U+FFFD: equal to the text when it has none. */
  private static String withoutLoneSurrogates(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints().forEach(cp -> out.appendCodePoint(Character.isSurrogate((char) cp) && cp < 0x10000 ? 0xFFFD : cp));
    return out.toString();
  }

  /** UTF-8, except that a lone surrogate is written as the three bytes of its code point (WTF-8). */
  private static byte[] wtf8(String json) {
    // The generator may have escaped lone surrogates; put them back as characters first.
    String text = Pattern.compile("\\\\u([dD][89a-fA-F][0-9a-fA-F]{2})").matcher(json)
        .replaceAll(m -> String.valueOf((char) Integer.parseInt(m.group(1), 16)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    text.codePoints().forEach(cp -> {
      if (cp >= 0xD800 && cp <= 0xDFFF) {
        out.write(0xE0 | cp >> 12);
        out.write(0x80 | cp >> 6 & 0x3F);
        out.write(0x80 | cp & 0x3F);
      } else {
        out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
      }
    });
    return out.toByteArray();
  }

  private static String utf8(byte[] bytes, boolean lenient) {
    CodingErrorAction action = lenient ? CodingErrorAction.REPLACE : CodingErrorAction.REPORT;
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(action).onUnmappableCharacter(action)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private void error(HttpExchange exchange, int status, String message) throws IOException {
    if (has(Deviation.STACK_TRACE_IN_ERRORS) && status == 400) {
      message += "\nTraceback (most recent call last):\n  File \"app.py\", line 12, in validate";
    }
    if (has(Deviation.JS_STACK_FRAMES_IN_ERRORS) && status == 400) {
      message += "\n    at validate (/app/server.js:41:23)";
    }
    if (has(Deviation.PYTHON_FRAMES_IN_ERRORS) && status == 400) {
      message += "\n  File \"/app/server.py\", line 212, in validate";
    }
    if (has(Deviation.ERRORS_CHARSET_UTF16)) {
      send(exchange, status, "application/json; charset=utf-16",
          mapper.writeValueAsBytes(JsonNodeFactory.instance.objectNode().put("error", message)));
      return;
    }
    if (has(Deviation.TEXT_PLAIN_ERRORS)) {
      send(exchange, status, "text/plain", message.getBytes(StandardCharsets.UTF_8));
    } else {
      sendJson(exchange, status, JsonNodeFactory.instance.objectNode().put("error", message));
    }
  }

  private void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = mapper.writeValueAsBytes(body);
    if (has(Deviation.JSON_IN_UTF16)) {
      bytes = new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16);
    } else if (has(Deviation.JSON_WITH_BYTE_ORDER_MARK)) {
      bytes = java.nio.ByteBuffer.allocate(bytes.length + 3).put(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF})
          .put(bytes).array();
    }
    send(exchange, status, "application/json", bytes);
  }

  private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public String toString() {
    return "FaultyServer" + (deviations.isEmpty() ? "(correct)" : deviations.toString().toLowerCase(Locale.ROOT));
  }
}
