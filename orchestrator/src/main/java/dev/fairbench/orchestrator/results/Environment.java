package dev.fairbench.orchestrator.results;

import java.time.Instant;
import java.util.List;

/**
 * Where and how a run was measured, so results describe themselves.
 *
 * @param limitsMode   how the server limits were enforced: "cgroup-v1", "cgroup-v2" or "taskset"
 * @param limitsNote   why the limits are weaker than a cgroup; empty when a cgroup was used
 * @param orchestratorPlacement where the orchestrator's own threads ran while cells were measured, as checked
 */
public record Environment(
    Instant timestamp,
    String hostname,
    String cpuModel,
    int cores,
    String kernel,
    String cgroupVersion,
    String limitsMode,
    String limitsNote,
    String runtime,
    String loadGenerator,
    String javaVersion,
    String gitCommit,
    boolean gitDirty,
    LimitsRecord limits,
    LoadSettings load,
    List<String> endpoints,
    String orchestratorPlacement) {

  public Environment withOrchestratorPlacement(String placement) {
    return new Environment(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime,
        loadGenerator, javaVersion, gitCommit, gitDirty, limits, load, endpoints, placement);
  }

  /** The limits every server got. */
  public record LimitsRecord(String serverCpus, String clientCpus, long memoryBytes, int workers) {}

  /** The load profile of every cell. */
  public record LoadSettings(
      double durationSeconds,
      double warmupSeconds,
      int connections,
      int threads,
      double timeoutSeconds) {}
}
