package dev.fairbench.orchestrator.discovery;

import java.util.List;

/** The user named an entry or variant that is not under impls/. */
public class UnknownEntryException extends Exception {
  public UnknownEntryException(List<String> unknown, List<String> known) {
    super("unknown entr" + (unknown.size() == 1 ? "y " : "ies ") + String.join(", ", unknown)
        + "; known: " + (known.isEmpty() ? "(none)" : String.join(", ", known)));
  }
}
