package dev.fairbench.orchestrator.config;

/**
 * What every server gets, identical for all entries: its CPU set, a memory limit and the WORKERS
 * count; and the disjoint CPU set of the load client.
 *
 * @param serverCpus  a cpuset list such as "1" or "2-3"
 * @param clientCpus  a cpuset list disjoint from serverCpus
 * @param memoryBytes the server's memory limit
 * @param workers     the WORKERS value every entry is started with
 */
public record Limits(String serverCpus, String clientCpus, long memoryBytes, int workers) {
  public Limits {
    CpuSet.parse(serverCpus);
    CpuSet.parse(clientCpus);
    if (memoryBytes < 16L * 1024 * 1024) {
      throw new IllegalArgumentException("memory limit must be at least 16 MiB, got " + memoryBytes + " bytes");
    }
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    }
    if (CpuSet.overlap(serverCpus, clientCpus)) {
      throw new IllegalArgumentException(
          "server CPUs (" + serverCpus + ") and client CPUs (" + clientCpus + ") must be disjoint");
    }
  }
}
