package dev.fairbench.orchestrator.cli;

/** A mistake in what the user asked for: exit 2 with the message and a pointer to --help. */
public class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
