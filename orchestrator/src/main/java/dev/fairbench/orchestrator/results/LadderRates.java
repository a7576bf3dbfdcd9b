package dev.fairbench.orchestrator.results;

import dev.fairbench.orchestrator.config.HeldLadderRates;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Endpoint;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** The rates a run's ladders ran at, to be held by a later run (`run --ladder-rates-from`). */
public final class LadderRates {
  private LadderRates() {}

  /** Every ladder of {@code document} at the rate its floor (the baseline's ladder cell) ran at. */
  public static HeldLadderRates of(ResultsDocument document, String name) {
    Map<String, Double> rates = new LinkedHashMap<>();
    for (EntryResult base : document.entries()) {
      if (!base.baseline()) {
        continue;
      }
      for (CellResult floor : base.cells()) {
        if (floor.kind() != CellKind.LADDER) {
          continue;
        }
        floor.countedRuns().stream().filter(r -> r.rate() != null && r.rate().targetRate() >= 1).findFirst()
            .ifPresent(r -> rates.put(HeldLadderRates.key(base.id(), Endpoint.parse(floor.endpoint())),
                r.rate().targetRate()));
      }
    }
    if (rates.isEmpty()) {
      throw new IllegalArgumentException(name + " has no ladder that ran: no rate to hold");
    }
    String started = document.environment() == null || document.environment().timestamp() == null ? ""
        : " (the run of " + document.environment().timestamp().truncatedTo(ChronoUnit.SECONDS) + ")";
    return new HeldLadderRates(name + started, rates);
  }
}
