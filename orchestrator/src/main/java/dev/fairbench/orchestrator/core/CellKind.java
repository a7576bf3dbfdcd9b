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
  RATE("rate"),
  /**
   * A ladder cell: a constant rate shared by a baseline and every framework on it (a share of the
   * slowest one's maximum in the same run), so their CPU per request can be subtracted.
   */
  LADDER("ladder");

  private final String wireName;

  CellKind(String wireName) {
    this.wireName = wireName;
  }

  /** Rate and ladder cells: a fixed request rate with oha, every server doing the same work. */
  public boolean constantRate() {
    return this != THROUGHPUT;
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
