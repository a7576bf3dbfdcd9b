package dev.fairbench.reference;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The four endpoints of docs/SPEC.md. Main deploys one instance per event loop; Vert.x shares
 * the listening port between them and spreads connections over the loops.
 */
final class HttpVerticle extends VerticleBase {

  /** SPEC 4.6, 4.7: over 1 MiB is too large, exactly 1 MiB is accepted. */
  static final long MAX_BODY_BYTES = 1_048_576;

  record Message(String message) {}

  record User(String id, String name) {}

  record ValidationResult(String name, int age, boolean valid) {}

  record ErrorBody(String error) {}

  private final String host;
  private final int port;

  HttpVerticle(String host, int port) {
    this.host = host;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);

    router.get("/plaintext").handler(ctx -> ctx.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end("Hello, World!"));

    router.get("/json").handler(ctx -> ctx.json(new Message("Hello, World!")));

    // Vert.x percent-decodes path parameters as UTF-8 and keeps '+' literal (SPEC 3.3, 3.4).
    router.get("/user/:id").handler(ctx -> {
      if (!isUsAscii(ctx.request().uri())) {
        ctx.fail(400, new InvalidInputException("the request target must be US-ASCII; percent-encode other bytes"));
        return;
      }
      String id = ctx.pathParam("id");
      ctx.json(new User(id, "User " + id));
    });

    // 415 before any byte of the body is read (SPEC 4.4, 4.5), so in a route of its own: Vert.x
    // runs a route's BodyHandler before its other handlers. Then BodyHandler answers 413 (SPEC 4.6).
    router.post("/validate").handler(HttpVerticle::requireJson);
    router.post("/validate")
        .handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
        .handler(HttpVerticle::validate);

    router.errorHandler(400, errorResponse(400, "malformed request"));
    router.errorHandler(404, errorResponse(404, "not found"));
    router.errorHandler(405, errorResponse(405, "method not allowed"));
    router.errorHandler(413, errorResponse(413, "request body is larger than 1 MiB (1048576 bytes)"));
    router.errorHandler(415, errorResponse(415, "Content-Type must be application/json"));
    router.errorHandler(500, errorResponse(500, "internal server error"));

    return vertx.createHttpServer(new HttpServerOptions())
        .requestHandler(router)
        .invalidRequestHandler(HttpVerticle::invalidRequest)
        .listen(port, host);
  }

  /**
   * SPEC 12.5: a request-target is US-ASCII (RFC 9112 3.2, RFC 3986 2). Netty reads the request line
   * as ISO-8859-1, so raw bytes above 0x7F would reach the route as Latin-1 characters: the UTF-8 of
   * {@code é}, sent unencoded, would be served as the id {@code "Ã©"}.
   */
  static boolean isUsAscii(String target) {
    for (int i = 0; i < target.length(); i++) {
      if (target.charAt(i) > 0x7F) {
        return false;
      }
    }
    return true;
  }

  /**
   * Requests Netty cannot decode never reach the router. Vert.x's default handler answers them
   * with an empty body; this one keeps its statuses and closing, and adds the JSON error body.
   */
  private static void invalidRequest(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    int status;
    String message;
    if (cause instanceof TooLongHttpLineException) {
      status = 414;
      message = "request line is too long";
    } else if (cause instanceof TooLongHttpHeaderException) {
      status = 431;
      message = "request headers are too large";
    } else {
      status = 400;
      message = "malformed HTTP request";
    }
    request.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(Json.encodeToBuffer(new ErrorBody(message)));
    request.connection().close();
  }

  /**
   * SPEC 4.1-4.5: the media type must be application/json, parameters allowed, compared
   * case-insensitively. Route.consumes() would compare it case-sensitively.
   */
  private static void requireJson(RoutingContext ctx) {
    String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    int parameters = contentType == null ? -1 : contentType.indexOf(';');
    String mediaType = parameters < 0 ? contentType : contentType.substring(0, parameters);
    if (mediaType != null && mediaType.strip().equalsIgnoreCase("application/json")) {
      ctx.next();
    } else {
      ctx.fail(415);
    }
  }

  private static void validate(RoutingContext ctx) {
    try {
      Buffer body = ctx.body().buffer();
      UserInput input = UserInput.from(StrictJson.readObject(body == null ? null : body.getBytes()));
      ctx.json(new ValidationResult(input.name(), input.age(), true));
    } catch (InvalidInputException e) {
      ctx.fail(400, e);
    }
  }

  /** SPEC 9.1: every error is {@code {"error": "..."}}; only our own messages reach the client. */
  private static Handler<RoutingContext> errorResponse(int status, String fallback) {
    return ctx -> {
      String message =
          ctx.failure() instanceof InvalidInputException invalid ? invalid.getMessage() : fallback;
      ctx.response().setStatusCode(status);
      ctx.json(new ErrorBody(message));
    };
  }
}
