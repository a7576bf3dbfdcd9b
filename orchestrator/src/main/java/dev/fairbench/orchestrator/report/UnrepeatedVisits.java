package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Disturbed visits counted without the repeat a disturbed visit otherwise gets: near the end of a run
 * whose repeats would have taken it past its time limit (`--time-limit`), a disturbed first visit
 * counts as it is. Each is in the runs as it was measured (visit 1, counted, disturbed).
 */
public final class UnrepeatedVisits {
  private UnrepeatedVisits() {}

  public static boolean isOne(RunRecord run) {
    return run.counted() && run.visit() == 1 && run.disturbance() != null && run.disturbance().disturbed();
  }

  public static long count(ResultsDocument document) {
    return runs(document).filter(UnrepeatedVisits::isOne).count();
  }

  public static long inRound(ResultsDocument document, int round) {
    return runs(document).filter(r -> r.round() == round).filter(UnrepeatedVisits::isOne).count();
  }

  /** " (12 disturbed visits counted without one: …)", or "" when every disturbed visit was repeated. */
  public static String clause(ResultsDocument document) {
    long count = count(document);
    if (count == 0) {
      return "";
    }
    Duration limit = document.invocation() == null ? Duration.ZERO : document.invocation().config().extraTimeLimit();
    String within = limit.isPositive()
        ? " within the run's time limit (" + (limit.toSeconds() % 60 == 0 ? limit.toMinutes() + " min" : limit.toSeconds() + " s") + ")"
        : " within the run's time limit";
    return String.format(Locale.ROOT, " (%d disturbed visit%s counted without one: no time was left for a repeat%s)",
        count, count == 1 ? " was" : "s were", within);
  }

  private static Stream<RunRecord> runs(ResultsDocument document) {
    return document.entries().stream().map(EntryResult::cells).flatMap(java.util.List::stream)
        .map(CellResult::runs).flatMap(java.util.List::stream);
  }
}
