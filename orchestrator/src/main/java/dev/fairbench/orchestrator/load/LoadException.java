package dev.fairbench.orchestrator.load;

/** The load generator could not run or its output could not be read. */
public class LoadException extends Exception {
  public LoadException(String message) {
    super(message);
  }
}
