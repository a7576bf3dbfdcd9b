package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import java.nio.charset.StandardCharsets;

/**
 * One request of each kind the contract answers, successes first, then errors, sent over a raw
 * socket so that every response, including 413, can be read and its framing seen.
 */
enum Probe {
  PLAINTEXT("GET", "/plaintext", null, null),
  JSON("GET", "/json", null, null),
  USER("GET", "/user/42", null, null),
  VALID_PERSON("POST", "/validate", "application/json", "{\"name\":\"Ada\",\"age\":36}"),
  MALFORMED_JSON("POST", "/validate", "application/json", "{\"name\":\"a\",\"age\":"),
  STRING_AGE("POST", "/validate", "application/json", "{\"name\":\"a\",\"age\":\"30\"}"),
  MISSING_NAME("POST", "/validate", "application/json", "{\"age\":30}"),
  NOT_AN_OBJECT("POST", "/validate", "application/json", "[]"),
  UNKNOWN_PATH("GET", "/nope", null, null),
  USER_WITHOUT_ID("GET", "/user/", null, null),
  POST_PLAINTEXT("POST", "/plaintext", "application/json", "{}"),
  GET_VALIDATE("GET", "/validate", null, null),
  TEXT_PLAIN_BODY("POST", "/validate", "text/plain", "{\"name\":\"a\",\"age\":1}"),
  NO_CONTENT_TYPE("POST", "/validate", null, "{\"name\":\"a\",\"age\":1}"),
  OVER_ONE_MEBIBYTE("POST", "/validate", "application/json", null);

  private final String method;
  private final String path;
  private final String contentType;
  private final String body;

  Probe(String method, String path, String contentType, String body) {
    this.method = method;
    this.path = path;
    this.contentType = contentType;
    this.body = body;
  }

  byte[] body() {
    if (this == OVER_ONE_MEBIBYTE) {
      return Json.validBodyOfSize(Json.MIB + 1);
    }
    return body == null ? null : body.getBytes(StandardCharsets.UTF_8);
  }

  String describe() {
    return HttpTarget.describe(method, path, contentType, body());
  }

  /** The request bytes; {@code close} asks the server to close the connection after answering. */
  byte[] bytes(HttpTarget server, boolean close) {
    return server.raw().request(method, server.target(path), contentType, body(), close);
  }

  /** Sends the probe on its own connection and reads the whole response. */
  Exchange send(HttpTarget server) {
    return server.sendRaw(describe(), bytes(server, true));
  }
}
