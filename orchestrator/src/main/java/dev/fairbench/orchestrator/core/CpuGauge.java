package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a constant-rate run's CPU-µs/request is read against. At a fixed rate the load client does the
 * same work in every run of a cell (the same requests, at the same rate, with the same answers), so its
 * own CPU time for them gauges how fast the machine ran during that very run.
 */
public enum CpuGauge implements WireName {
  /** Each run divided by its round's effect only (every run before 2026-12-05 21:10 UTC). */
  NONE("none"),
  /**
   * Each run divided by its own client's gauge: (the client's CPU per request in the run ÷ its median over
   * the cell) to the power of the slope the run's constant-rate cells show ({@code results.ClientGauge}).
   */
  CLIENT("client");

  private final String wireName;

  CpuGauge(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static CpuGauge parse(String value) {
    return WireName.parse(CpuGauge.class, value, "CPU gauge");
  }
}
