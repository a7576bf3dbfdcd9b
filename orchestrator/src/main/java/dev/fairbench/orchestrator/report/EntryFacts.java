package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an entry's manifest says about its fairness (production-mode facts, departures from idiom),
 * by entry id ("entry" or "entry:variant"), for the fairness review.
 */
public record EntryFacts(String description, List<String> production, List<String> departures) {
  public EntryFacts {
    production = List.copyOf(production);
    departures = List.copyOf(departures);
  }

  /** Facts of every entry that has a readable manifest under {@code implsDir}; none if it is absent. */
  public static Map<String, EntryFacts> load(Path implsDir) {
    Map<String, EntryFacts> facts = new HashMap<>();
    if (implsDir == null || !Files.isDirectory(implsDir)) {
      return facts;
    }
    try {
      for (EntryCatalog.Selection selection : EntryCatalog.load(implsDir).select(List.of())) {
        selection.variant().ifPresent(v -> facts.put(v.id(),
            new EntryFacts(v.description(), v.fairnessProduction(), v.fairnessDepartures())));
      }
    } catch (UnknownEntryException e) {
      throw new IllegalStateException("selecting every entry cannot name an unknown one", e);
    }
    return facts;
  }
}
