package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.discovery.EntryVariant;
import java.nio.file.Path;

/** What `fairbench test-entries` needs of a runtime: whether an entry can be built here, and its build. */
public interface EntryBuilder {
  Availability availability(EntryVariant variant);

  /** Runs the variant's build steps in its folder, the output to {@code log}. */
  void build(EntryVariant variant, Path log) throws ServerStartException;
}
