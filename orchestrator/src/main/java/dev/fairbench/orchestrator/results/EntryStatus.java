package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonValue;

/** How far an entry got. */
public enum EntryStatus {
  /** Conformance passed and every cell was measured (a cell may still carry flags). */
  MEASURED("measured"),
  /** Conformance passed; some cells could not be measured (see their status). */
  PARTIAL("partial"),
  /** A required tool is missing, its probe failed, or its manifest is invalid. */
  UNAVAILABLE("unavailable"),
  BUILD_FAILED("build-failed"),
  PORT_IN_USE("port-in-use"),
  EXITED_AT_START("exited-at-start"),
  NOT_READY("not-ready"),
  LIMITS_FAILED("limits-failed"),
  /** The suite found a FAIL: not benchmarked. */
  CONFORMANCE_FAILED("conformance-failed"),
  /** The suite could not reach the server, or something else went wrong. */
  FAILED("failed"),
  /** The run stopped while this entry was being measured (seen only in a file a crash left behind). */
  INTERRUPTED("interrupted"),
  /** Only conformance was asked for, and it did not FAIL. */
  CONFORMANT("conformant");

  private final String wireName;

  EntryStatus(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  public boolean failed() {
    return this != MEASURED && this != CONFORMANT;
  }
}
