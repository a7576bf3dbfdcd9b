package dev.fairbench.orchestrator.events;

import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.RunRecord;
import java.nio.file.Path;

/** Hooks into a run's progress; every method does nothing unless overridden. */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  /** Preparing (build, start, conformance) entry {@code index} of {@code total}. */
  default void preparing(String id, int index, int total) {}

  default void building(String id) {}

  default void serverReady(String id, String baseUrl) {}

  default void conformanceFinished(String id, SuiteReport report, Path jsonReport) {}

  /** The suite did not run: an earlier check's verdict was reused, its content hash unchanged. */
  default void conformanceReused(String id, SuiteReport report, Path jsonReport, ConformanceSummary.Reused reused) {}

  /** The entry is prepared (kept running, frozen) or failed; its status says which. */
  default void prepared(EntryResult entry) {}

  /** The warm-up of every cell before round 1. */
  default void warmingUp(String id, String cell) {}

  default void roundStarted(int round, int rounds, int visits, String probe) {}

  /** Extra round {@code extra} of at most {@code extraRounds}, for {@code wide} cells still too wide. */
  default void extraRoundStarted(int extra, int extraRounds, int wide, int visits) {}

  /**
   * One measured visit; {@code requeued} when it was disturbed and will be repeated later in the round (a
   * disturbed first visit not requeued had no time left for a repeat within the run's time limit, and counts).
   */
  default void visitFinished(int round, int visit, int visits, String id, String cell, RunRecord run, boolean requeued) {}

  /** A cell that can no longer be measured (its server died, the load failed). */
  default void cellFailed(String id, String cell, String reason) {}

  default void note(String message) {}
}
