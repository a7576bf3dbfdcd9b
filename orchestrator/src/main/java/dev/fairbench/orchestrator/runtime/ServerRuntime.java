package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import java.util.Map;

/**
 * Builds and starts entries. Implementations: {@link NativeRuntime} (local processes in a
 * cgroup); a Docker runtime can implement the same contract.
 */
public interface ServerRuntime {
  /** The name used on the command line and in results, e.g. "native". */
  String name();

  /** Which runtime this is (a remote Docker engine is {@link RuntimeKind#DOCKER} too). */
  RuntimeKind kind();

  /** Why the limits are weaker than a cgroup here (taskset: memory not limited); empty when they are not. */
  default String limitsNote() {
    return "";
  }

  /** Whether this runtime can build and start the variant here, and if not, why. */
  Availability availability(EntryVariant variant);

  /**
   * The servers run on another machine (a remote Docker engine): this machine's /proc says nothing
   * about their CPUs, so the disturbance and the CPU probe are not measured.
   */
  default boolean remote() {
    return false;
  }

  /** How the limits are enforced by this runtime on this machine, e.g. "cgroup-v1". */
  String limitsMode();

  /**
   * Builds the variant, starts it under the limits on 127.0.0.1:port and waits until it is ready.
   *
   * @throws ServerStartException with the stage that failed and the log tail
   */
  RunningServer start(EntryVariant variant, Limits limits, int port) throws ServerStartException;

  /**
   * The variant's framework_version and the first output line of each of its [versions] commands,
   * probed where its server runs: natively on this machine in the entry folder; under Docker in a
   * throwaway container of the server's image (never the server's own container, whose cgroup's
   * figures are the server's).
   *
   * @param server the variant's server when it started, null when it did not
   */
  default Map<String, String> versions(EntryVariant variant, RunningServer server) {
    return EnvironmentProbe.versions(variant);
  }

  /**
   * What the engine applies to the servers' containers (security profiles, cgroup driver and
   * version), for the results' environment; null when the servers are not containers.
   */
  default dev.fairbench.orchestrator.results.Environment.EngineSettings engineSettings(Limits limits) {
    return null;
  }

  /** The size of the variant's image, for runtimes whose servers are images; empty otherwise. */
  default java.util.Optional<ImageSize> imageSize(EntryVariant variant) {
    return java.util.Optional.empty();
  }

  /**
   * Starts the variant like {@link #start} but without building it: the caller has started it
   * once with {@link #start} in this run, so its build output (or image) is there. For repeated
   * starts (start-time figures, a fresh process for each block of rounds with --forks) that must
   * not pay for a build each time.
   */
  default RunningServer startBuilt(EntryVariant variant, Limits limits, int port) throws ServerStartException {
    return start(variant, limits, port);
  }
}
