package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a server runs. A run has a default runtime (`--runtime`); a selector may name another one
 * (`go-gin@docker`), and then both are measured in the same rounds.
 */
public enum RuntimeKind implements WireName {
  /** A local process confined by a cgroup (or taskset). */
  NATIVE("native"),
  /** A container on a Docker engine (this machine's, or a server host's with --server-host). */
  DOCKER("docker");

  private final String wireName;

  RuntimeKind(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static RuntimeKind parse(String value) {
    return WireName.parse(RuntimeKind.class, value, "runtime");
  }
}
