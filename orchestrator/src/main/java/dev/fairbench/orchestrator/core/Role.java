package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Why a server is in a run. */
public enum Role implements WireName {
  /** A framework entry: ranked, compared. */
  ENTRY("entry"),
  /**
   * A runtime's bare server (seed 002's ladder): measured and shown as the floor its frameworks
   * stand on, never ranked with the frameworks.
   */
  BASELINE("baseline"),
  /**
   * The calibration server (nginx): measured in every round like an entry, never ranked; it gives
   * the load client's ceiling and the floor each cell is shown against.
   */
  CALIBRATION("calibration");

  private final String wireName;

  Role(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static Role parse(String value) {
    return WireName.parse(Role.class, value, "role");
  }
}
