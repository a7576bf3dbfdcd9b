package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.runtime.ServerRuntime;

/**
 * One server of a run: a selected entry variant and the runtime it is built, started, frozen,
 * measured and stopped by. A server in the run's default runtime keeps the selection's id
 * (`go-gin`); one in another runtime carries that runtime in its id (`go-gin@docker`), so that the
 * two are two entries of the results, compared with `compare --entries go-gin,go-gin@docker`.
 *
 * @param suffixed true when the runtime is not the run's default one
 */
public record Placement(Selection selection, ServerRuntime runtime, boolean suffixed) {
  /** In the run's default runtime. */
  public static Placement inDefault(Selection selection, ServerRuntime runtime) {
    return new Placement(selection, runtime, false);
  }

  public String id() {
    return withSuffix(selection.id());
  }

  /**
   * The baseline this framework stands on, in the same runtime: a framework in Docker is measured
   * over its baseline in Docker, never over the native one. Empty for none.
   */
  public String standsOn() {
    String base = selection.variant().map(EntryVariant::standsOn).orElse("");
    return base.isEmpty() ? "" : withSuffix(base);
  }

  private String withSuffix(String id) {
    return suffixed ? id + ServerSelector.RUNTIME_MARK + runtime.kind().wireName() : id;
  }
}
