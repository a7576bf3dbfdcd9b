package dev.fairbench.orchestrator.core;

/**
 * What the running server showed of its WORKERS while under load.
 *
 * @param model              the manifest's workers.model
 * @param requested          the WORKERS value it was started with
 * @param observed           processes (model "processes") or threads (model "threads") busy at the
 *                           same time: the median over the run's 500 ms intervals of those that used
 *                           at least {@link #BUSY_SHARE} of the server's CPU in the interval
 * @param processes          processes of the server
 * @param listeningProcesses processes holding the listening socket
 * @param threads            threads of all the server's processes
 * @param busyThreads        threads that burned at least {@link #BUSY_SHARE} of the server's CPU time
 * @param matches            observed equals requested
 * @param busy               the busy threads, "name (share of the server's CPU)", busiest first:
 *                           shows whether a busy thread is a worker or, say, a JIT compiler
 */
public record WorkerObservation(
    String model,
    int requested,
    int observed,
    int processes,
    int listeningProcesses,
    int threads,
    int busyThreads,
    boolean matches,
    java.util.List<String> busy) {
  /**
   * A thread or process is busy when it used at least this share of all the CPU the server used in
   * the window. Relative, not a share of wall time, so a server starved by a busy machine still
   * shows its workers; 10% keeps up to 8 evenly loaded workers above it and GC or JIT threads below.
   */
  public static final double BUSY_SHARE = 0.1;

  public WorkerObservation {
    busy = busy == null ? java.util.List.of() : java.util.List.copyOf(busy);
  }

  /** Without thread names (a runtime that cannot see them). */
  public WorkerObservation(String model, int requested, int observed, int processes, int listeningProcesses,
      int threads, int busyThreads, boolean matches) {
    this(model, requested, observed, processes, listeningProcesses, threads, busyThreads, matches, java.util.List.of());
  }
}
