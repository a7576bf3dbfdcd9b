package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** No writable cgroups: CPUs pinned with taskset, memory not limited, CPU and memory read from /proc. */
public record TasksetOnly(String note) implements LimitsBackend {
  @Override
  public String mode() {
    return "taskset";
  }

  @Override
  public Group create(String name, Limits limits) {
    return new Group() {
      @Override
      public List<String> wrap(List<String> command) {
        List<String> argv = new ArrayList<>(List.of("taskset", "-c", limits.serverCpus()));
        argv.addAll(command);
        return argv;
      }

      @Override
      public Set<Long> pids() {
        return Set.of();
      }

      @Override
      public double cpuSeconds() {
        return -1;
      }

      @Override
      public long memoryPeakBytes() {
        return -1;
      }

      @Override
      public void destroy() {}
    };
  }
}
