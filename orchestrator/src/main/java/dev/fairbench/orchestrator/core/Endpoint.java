package dev.fairbench.orchestrator.core;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The four benchmarked endpoints, by their wire names on the command line and in results. */
public enum Endpoint {
  PLAINTEXT("plaintext", "GET", "/plaintext", null),
  JSON("json", "GET", "/json", null),
  USER("user", "GET", "/user/42", null),
  VALIDATE("validate", "POST", "/validate", "{\"name\":\"Alice\",\"age\":30}");

  private final String wireName;
  private final String method;
  private final String path;
  private final String body;

  Endpoint(String wireName, String method, String path, String body) {
    this.wireName = wireName;
    this.method = method;
    this.path = path;
    this.body = body;
  }

  public String wireName() {
    return wireName;
  }

  public String method() {
    return method;
  }

  public String path() {
    return path;
  }

  /** The JSON request body, or null for a GET. */
  public String body() {
    return body;
  }

  public static Endpoint parse(String name) {
    for (Endpoint endpoint : values()) {
      if (endpoint.wireName.equals(name)) {
        return endpoint;
      }
    }
    throw new IllegalArgumentException("unknown endpoint \"" + name + "\"; known: "
        + Arrays.stream(values()).map(Endpoint::wireName).collect(Collectors.joining(", ")));
  }
}
