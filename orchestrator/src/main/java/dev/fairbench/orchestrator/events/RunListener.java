package dev.fairbench.orchestrator.events;

import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.orchestrator.load.LoadResult;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import java.nio.file.Path;

/** Hooks into a run's progress; every method does nothing unless overridden. */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  default void entryStarted(String id, int index, int total) {}

  default void building(String id) {}

  default void serverReady(String id, String baseUrl) {}

  default void conformanceFinished(String id, SuiteReport report, Path jsonReport) {}

  default void cellStarted(String id, String endpoint) {}

  default void runFinished(String id, String endpoint, int run, int runs, LoadResult result) {}

  default void cellFinished(String id, CellResult cell) {}

  default void entryFinished(EntryResult entry) {}
}
