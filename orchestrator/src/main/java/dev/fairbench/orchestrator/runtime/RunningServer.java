package dev.fairbench.orchestrator.runtime;

import java.net.URI;
import java.nio.file.Path;
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

  /** The server's limits as read back from the kernel or the engine after the start; empty when unknown. */
  default String limitsReadBack() {
    return "";
  }

  /**
   * Stops every process of the server from running until {@link #thaw}; returns once the kernel or
   * the engine confirms it.
   *
   * @throws UnsupportedOperationException where the runtime cannot freeze
   */
  default FreezeTiming freeze() {
    throw new UnsupportedOperationException("this runtime cannot freeze a server");
  }

  /** Lets a frozen server run again; returns once confirmed. */
  default FreezeTiming thaw() {
    throw new UnsupportedOperationException("this runtime cannot thaw a server");
  }

  /** The last lines of the log, for messages. */
  String logTail(int lines);

  /** Stops every process of the server; never throws. */
  @Override
  void close();
}
