package dev.fairbench.orchestrator.results;

import dev.fairbench.orchestrator.runtime.WorkerObservation;
import java.util.List;

/**
 * One entry × variant × endpoint.
 *
 * @param status  "measured", or "failed" with the reason
 * @param stats   null unless measured
 * @param workers what the server showed of its workers during the last measured run
 */
public record CellResult(
    String endpoint,
    String status,
    String reason,
    List<RunRecord> runs,
    CellStats stats,
    WorkerObservation workers,
    List<String> flags) {
  public static final String MEASURED = "measured";
  public static final String FAILED = "failed";

  public CellResult {
    runs = List.copyOf(runs);
    flags = List.copyOf(flags);
  }
}
