package dev.fairbench.orchestrator.runtime;

/** A server did not reach the frozen (or thawed) state in time, or could not be asked to. */
public final class FreezeException extends RuntimeException {
  private final String server;
  private final String seen;

  /** @param seen what was seen, e.g. "freezer.state reads FREEZING 5000 ms after the request" */
  public FreezeException(String server, String seen) {
    this(server, seen, null);
  }

  public FreezeException(String server, String seen, Throwable cause) {
    super(server + ": " + seen, cause);
    this.server = server;
    this.seen = seen;
  }

  /** What was seen, without the server's name. */
  public String seen() {
    return seen;
  }

  /** The variant id of the server, e.g. "go-gin:default". */
  public String server() {
    return server;
  }
}
