package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Disturbed visits counted without the repeat a disturbed visit otherwise gets: near the end of a run
 * whose repeats would have taken it past its time limit (`--time-limit`), a disturbed first visit
 * counts as it is. Each is in the runs as it was measured (visit 1, counted, disturbed).
 */
public final class UnrepeatedVisits {
  private UnrepeatedVisits() {}

  public static long count(ResultsDocument document) {
    return runs(document).filter(RunRecord::countedThoughDisturbed).count();
  }

  public static long inRound(ResultsDocument document, int round) {
    return runs(document).filter(r -> r.round() == round).filter(RunRecord::countedThoughDisturbed).count();
  }

  /** " (12 disturbed visits counted without one: …)", or "" when every disturbed visit was repeated. */
  public static String clause(ResultsDocument document) {
    long count = count(document);
    if (count == 0) {
      return "";
    }
    String within = document.invocation() == null ? " within the run's time limit"
        : " within the run's time limit (" + document.invocation().config().timeLimitText() + ")";
    return String.format(Locale.ROOT, " (%d disturbed visit%s counted without one: no time was left for a repeat%s)",
        count, count == 1 ? " was" : "s were", within);
  }

  private static Stream<RunRecord> runs(ResultsDocument document) {
    return document.entries().stream().map(EntryResult::cells).flatMap(java.util.List::stream)
        .map(CellResult::runs).flatMap(java.util.List::stream);
  }
}
