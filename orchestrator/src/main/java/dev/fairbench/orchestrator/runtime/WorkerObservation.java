package dev.fairbench.orchestrator.runtime;

/**
 * What the running server showed of its WORKERS while under load.
 *
 * @param model              the manifest's workers.model
 * @param requested          the WORKERS value it was started with
 * @param observed           processes (model "processes") or threads (model "threads") that burned
 *                           at least {@link #BUSY_SHARE} of the wall time during the sampled window
 * @param processes          processes of the server
 * @param listeningProcesses processes holding the listening socket
 * @param threads            threads of all the server's processes
 * @param busyThreads        threads that burned at least {@link #BUSY_SHARE} of the wall time
 * @param matches            observed equals requested
 */
public record WorkerObservation(
    String model,
    int requested,
    int observed,
    int processes,
    int listeningProcesses,
    int threads,
    int busyThreads,
    boolean matches) {
  /** A thread or process is busy when it used at least this share of one core over the window. */
  public static final double BUSY_SHARE = 0.2;
}
