package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a cell measures. Cells of different kinds are never compared with, ranked beside or
 * normalised by each other.
 */
public enum CellKind implements WireName {
  /** Maximum throughput: wrk as fast as the server answers, keep-alive connections. */
  THROUGHPUT("throughput"),
  /** A fixed request rate with oha, latency corrected for coordinated omission. */
  RATE("rate");

  private final String wireName;

  CellKind(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static CellKind parse(String value) {
    return WireName.parse(CellKind.class, value, "mode");
  }
}
