package dev.fairbench.orchestrator.load;

/** Puts load on a server and reports what it measured. */
public interface LoadGenerator {
  String name();

  /** e.g. "wrk 4.1.0"; recorded in the results' environment. */
  String version();

  LoadResult run(LoadSpec spec) throws LoadException, InterruptedException;
}
