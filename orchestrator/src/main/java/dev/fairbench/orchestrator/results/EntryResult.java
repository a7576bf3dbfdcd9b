package dev.fairbench.orchestrator.results;

import java.util.List;
import java.util.Map;

/**
 * One entry variant in a run.
 *
 * @param versions    framework_version plus the first output line of each [versions] command
 * @param reason      why the status is not measured/conformant; empty otherwise
 * @param logTail     the last lines of the build or server log when it failed
 * @param conformance null when the suite did not run
 */
public record EntryResult(
    String id,
    String entry,
    String variant,
    String language,
    String framework,
    Map<String, String> versions,
    String workersModel,
    EntryStatus status,
    String reason,
    String logTail,
    ConformanceSummary conformance,
    List<CellResult> cells,
    String limitsReadBack) {
  /** An entry whose server never ran, so no limits were read back. */
  public EntryResult(String id, String entry, String variant, String language, String framework,
      Map<String, String> versions, String workersModel, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<CellResult> cells) {
    this(id, entry, variant, language, framework, versions, workersModel, status, reason, logTail, conformance, cells, "");
  }

  public EntryResult {
    limitsReadBack = limitsReadBack == null ? "" : limitsReadBack;
    cells = List.copyOf(cells);
    versions = Map.copyOf(versions);
  }
}
