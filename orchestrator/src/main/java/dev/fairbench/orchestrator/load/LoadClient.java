package dev.fairbench.orchestrator.load;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where the load tools (wrk, oha) run and how one of their runs is executed and its CPU counted:
 * on this machine pinned with taskset ({@link LocalLoadClient}), or in a long-lived container on
 * a client host's Docker engine ({@code runtime.ClientContainer}, `--client-host`). The load
 * generators build the same command lines and parse the same output either way.
 */
public interface LoadClient extends AutoCloseable {
  /** How one command ended: its output, and the client's CPU time and wall time around it. */
  record Execution(int exitCode, String stdout, String stderr, double cpuSeconds, double wallSeconds) {
    public double cpuUtilisation() {
      return wallSeconds > 0 ? cpuSeconds / wallSeconds : 0;
    }
  }

  /** The client CPU set (a cpuset list on the client's host). */
  String cpus();

  /** For messages: "this machine" or "container fairbench-client-… on docker at URL". */
  String describe();

  /** Whether {@code tool} can be run there. */
  boolean has(String tool);

  /** A short command's output (stdout and stderr), e.g. a version; empty when it failed. */
  Optional<String> output(List<String> command);

  /**
   * Makes a file the tools read (the wrk script, a request body) available there.
   *
   * @return its path as the tools see it
   * @throws LoadException when it cannot be written
   */
  String stage(String name, byte[] content) throws LoadException;

  /**
   * Runs {@code command} (the tool and its arguments) on the client CPU set and waits at most
   * {@code limit}; the CPU time is the client's, counted exactly around this one command.
   *
   * @throws LoadException when it cannot start or does not finish within the limit
   */
  Execution run(String tool, List<String> command, Duration limit) throws LoadException, InterruptedException;

  /** Stops what the client keeps (its container); idempotent. */
  @Override
  void close();
}
