package dev.fairbench.conformance;

import java.net.URI;

/** The server at the target URL does not answer HTTP at all; the suite cannot judge it. */
public class UnreachableServerException extends Exception {
  private final URI target;

  public UnreachableServerException(URI target, String reason, Throwable cause) {
    super("cannot reach " + target + ": " + reason, cause);
    this.target = target;
  }

  public URI target() {
    return target;
  }
}
