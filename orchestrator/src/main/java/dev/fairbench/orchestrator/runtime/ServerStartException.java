package dev.fairbench.orchestrator.runtime;

/** A server that could not be brought up, with the stage that failed and the evidence. */
public class ServerStartException extends Exception {
  /** Where starting a server can fail; the wire names go into the results. */
  public enum Stage {
    BUILD_FAILED("build-failed"),
    PORT_IN_USE("port-in-use"),
    EXITED_AT_START("exited-at-start"),
    NOT_READY("not-ready"),
    LIMITS_FAILED("limits-failed");

    private final String wireName;

    Stage(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }

  private final Stage stage;
  private final String logTail;

  public ServerStartException(Stage stage, String message, String logTail) {
    super(message);
    this.stage = stage;
    this.logTail = logTail == null ? "" : logTail;
  }

  public Stage stage() {
    return stage;
  }

  public String logTail() {
    return logTail;
  }
}
