package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How far one cell got. */
public enum CellStatus implements WireName {
  /** Every round produced a run (a run may still be flagged). */
  MEASURED("measured"),
  /** Some rounds produced a run, then the cell could not go on (the server died, the load failed). */
  PARTIAL("partial"),
  /** No run could be made; the reason says why. */
  FAILED("failed"),
  /** Rounds are still to come (seen only in a file written during the run, or left by a crash). */
  PENDING("pending");

  private final String wireName;

  CellStatus(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static CellStatus parse(String value) {
    return WireName.parse(CellStatus.class, value, "cell status");
  }
}
