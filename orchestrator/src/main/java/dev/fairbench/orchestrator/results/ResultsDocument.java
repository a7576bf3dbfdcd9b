package dev.fairbench.orchestrator.results;

import java.util.List;

/** The results file: the environment, then every entry in the order they ran. */
public record ResultsDocument(int schemaVersion, Environment environment, List<EntryResult> entries) {
  public static final int SCHEMA_VERSION = 1;

  public ResultsDocument {
    entries = List.copyOf(entries);
  }
}
