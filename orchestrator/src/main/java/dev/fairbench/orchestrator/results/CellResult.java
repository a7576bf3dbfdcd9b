package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.util.List;

/**
 * One entry × variant × endpoint (× rate, for a rate cell).
 *
 * @param kind    throughput or rate; cells of different kinds are never compared
 * @param rate    for a rate cell, the rate as asked ("90%" of the cell's own max, or "1000" req/s); for a
 *                ladder cell, the share of the slowest rung's max ("50%"); else ""
 * @param status  measured, partial, failed (with the reason) or pending
 * @param runs    every visit, counted or not, in the order they were made
 * @param stats   null until a run was counted
 * @param workers what the server showed of its workers during the last counted run
 * @param flags   derived by report.Quality from the stats
 * @param answerBytes the size of the answer to the load client's own request, checked correct before
 *                the runs, counted as that client counts: on the wire (status line, headers, body)
 *                for wrk's throughput cells, the body for oha's rate and ladder cells; null where
 *                none was checked (a run made before the check existed)
 * @param warmup  the req/s of each warm-up run before round 1, in order, at full speed; empty where
 *                none was made or recorded (a run before 2026-12-06 17:00 UTC)
 */
public record CellResult(
    String endpoint,
    CellKind kind,
    String rate,
    CellStatus status,
    String reason,
    List<RunRecord> runs,
    CellStats stats,
    WorkerObservation workers,
    List<Flag> flags,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer answerBytes,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> warmup) {

  /** A cell with no warm-up recorded. */
  public CellResult(String endpoint, CellKind kind, String rate, CellStatus status, String reason, List<RunRecord> runs,
      CellStats stats, WorkerObservation workers, List<Flag> flags, Integer answerBytes) {
    this(endpoint, kind, rate, status, reason, runs, stats, workers, flags, answerBytes, List.of());
  }

  /** A cell with no answer checked. */
  public CellResult(String endpoint, CellKind kind, String rate, CellStatus status, String reason, List<RunRecord> runs,
      CellStats stats, WorkerObservation workers, List<Flag> flags) {
    this(endpoint, kind, rate, status, reason, runs, stats, workers, flags, null);
  }

  public CellResult {
    kind = kind == null ? CellKind.THROUGHPUT : kind;
    rate = rate == null ? "" : rate;
    reason = reason == null ? "" : reason;
    runs = List.copyOf(runs);
    flags = List.copyOf(flags);
    warmup = warmup == null ? List.of() : List.copyOf(warmup);
  }

  /** The cell's name within its entry: the endpoint, and the rate for a rate cell ("json@90%"). */
  public String name() {
    return switch (kind) {
      case THROUGHPUT -> endpoint;
      case RATE -> endpoint + "@" + rate;
      case LADDER -> endpoint + "@ladder";
    };
  }

  public boolean measured() {
    return stats != null && (status == CellStatus.MEASURED || status == CellStatus.PARTIAL);
  }

  /** The runs the statistics use. */
  public List<RunRecord> countedRuns() {
    return runs.stream().filter(RunRecord::counted).toList();
  }
}
