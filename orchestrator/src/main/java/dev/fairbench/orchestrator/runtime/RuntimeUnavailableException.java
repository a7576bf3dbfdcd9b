package dev.fairbench.orchestrator.runtime;

/** A runtime a run asked for cannot run servers here (no Docker engine answers, say); the message says why. */
public final class RuntimeUnavailableException extends RuntimeException {
  public RuntimeUnavailableException(String message) {
    super(message);
  }
}
