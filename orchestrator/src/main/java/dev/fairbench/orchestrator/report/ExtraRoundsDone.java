package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The extra rounds a run made after its rounds (docs/ORCHESTRATOR.md, "Extra rounds"), as the
 * reports name them.
 *
 * @param rounds how many were made
 * @param visits their visits, repeats of disturbed ones included
 * @param cells  the cells they visited: those still too wide after the rounds, and the anchors beside them
 */
public record ExtraRoundsDone(int rounds, int visits, int cells) {
  /** Whether round {@code index} of the run is one of its extra rounds. */
  public static boolean isExtra(ResultsDocument document, int index) {
    return document.method() != null && index > document.method().rounds();
  }

  /** "10 (extra)" for an extra round, "3" for a round. */
  public static String label(ResultsDocument document, RoundRecord round) {
    return round.index() + (isExtra(document, round.index()) ? " (extra)" : "");
  }

  /** Empty when the run made none. */
  public static Optional<ExtraRoundsDone> of(ResultsDocument document) {
    List<RoundRecord> extra = document.rounds().stream().filter(r -> isExtra(document, r.index())).toList();
    if (extra.isEmpty()) {
      return Optional.empty();
    }
    int visits = extra.stream().mapToInt(r -> r.order().size()).sum();
    int cells = (int) extra.stream().flatMap(r -> r.order().stream()).map(o -> o.replace(" (repeat)", "")).distinct().count();
    return Optional.of(new ExtraRoundsDone(extra.size(), visits, cells));
  }

  /** One sentence for the reports. */
  public String describe() {
    return String.format(Locale.ROOT, "Then %d extra round%s (%d visits) over %d cells: those whose 95%% interval was "
        + "still wider than ±%.0f%% after the rounds, and anchors beside them so that a round's effect is the machine's.",
        rounds, rounds == 1 ? "" : "s", visits, cells, Quality.THRESHOLDS.intervalHalfWidth() * 100);
  }
}
