package dev.fairbench.orchestrator.cli;

/** The CLI's exit codes, the same for every command. */
public final class ExitCodes {
  private ExitCodes() {}

  /** Everything ran and nothing FAILed. */
  public static final int OK = 0;
  /** A conformance FAIL, or a run in which an entry could not be built, started or measured. */
  public static final int FAILED = 1;
  /** A usage error (bad option, unknown entry) or a server that cannot be reached. */
  public static final int USAGE = 2;

  /** Stopped by an interruption, as a shell reports a program ended by SIGINT (128 + 2). */
  public static final int INTERRUPTED = 130;
}
