package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** A started server. Closing it stops its whole process tree. */
public interface RunningServer extends AutoCloseable {
  /** e.g. http://127.0.0.1:18080 */
  URI baseUrl();

  /** CPU seconds and memory since start. */
  ResourceUsage usage();

  /** Per-thread CPU time now; pass it to {@link #observeWorkers} after a load window. */
  ThreadSample sampleThreads();

  /** The workers seen since {@code since}, compared with what was requested. */
  WorkerObservation observeWorkers(ThreadSample since);

  boolean isAlive();

  /** Why the server is gone, when it is. */
  Optional<String> exitReason();

  /** The server's stdout and stderr. */
  Path log();

  /**
   * {@link System#nanoTime()} just before the start command was launched (native) or the container
   * was created and started (docker): the origin of the start-time figures. -1 when unknown.
   */
  default long launchedAt() {
    return -1;
  }

  /**
   * {@link System#nanoTime()} when GET /plaintext first answered 200 during the start (polled
   * every {@code Readiness.POLL_MILLIS} ms); -1 when unknown.
   */
  default long readyAt() {
    return -1;
  }

  /** The memory the server holds now, each page counted once across its processes (see {@link MemoryReading}). */
  default MemoryReading memory() {
    return MemoryReading.UNKNOWN;
  }

  /** The server's limits as read back from the kernel or the engine after the start; empty when unknown. */
  default String limitsReadBack() {
    return "";
  }

  /**
   * The server's CPU set, memory limit and open-file limit as the kernel or the engine reports them,
   * in one form for every runtime; empty when they cannot be read back (taskset: no cgroup).
   */
  default Optional<AppliedLimits> appliedLimits() {
    return Optional.empty();
  }

  /**
   * The processes of the server, or holding its listening socket, that run outside its limits — in
   * another cgroup, or allowed CPUs beyond its set — one line each; empty when every one runs inside,
   * or when the runtime confines them itself (a container's processes cannot leave its cgroups).
   */
  default List<String> outsideLimits() {
    return List.of();
  }

  /** The open-file limit the server runs with, as read back; empty when unknown. */
  default Optional<OpenFileLimit> openFiles() {
    return Optional.empty();
  }

  /**
   * Freezes every process of the server: none runs until {@link #thaw}, so an idle server kept
   * for later uses no CPU while another one is measured. Its listening socket stays open (the
   * kernel may still complete TCP handshakes) but nothing answers. Returns once the kernel or the
   * engine reports the server frozen; freezing a frozen server only checks that it still is.
   *
   * @throws FreezeException when it is not frozen within a few seconds (it is thawed again
   *     then), or the server is closed
   */
  FreezeTiming freeze();

  /**
   * Lets a frozen server run again; requests that arrived meanwhile are then answered. Returns
   * once every process runs; thawing a running server only checks that it runs.
   *
   * @throws FreezeException when it is not thawed within a few seconds, or the server is closed
   */
  FreezeTiming thaw();

  /** Whether the server was frozen (and not thawed since). */
  boolean frozen();

  /** The last lines of the log, for messages. */
  String logTail(int lines);

  /** Stops every process of the server, a frozen one too (it is thawed first); never throws. */
  @Override
  void close();
}
