package dev.fairbench.orchestrator.runtime;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a native server stays inside the limits it was started in. Its processes run as the
 * orchestrator's user (root, for cgroups), so one can write itself into another cgroup, or — without
 * a cgroup (taskset) — widen its own CPU affinity: it would then run on the load client's CPU, and its
 * CPU time would not be counted. Neither the limits read back from the group nor readiness sees that.
 */
final class Confinement {
  private Confinement() {}

  /**
   * @param processes  the server's processes and those holding its listening socket
   * @param members    the processes in every hierarchy of its cgroup; empty when it has none (taskset)
   * @param serverCpus the CPUs the server may run on
   * @return one line for each process outside, empty when all are inside
   */
  static List<String> outside(Collection<Long> processes, Optional<Set<Long>> members, BitSet serverCpus) {
    List<String> outside = new ArrayList<>();
    for (long pid : processes) {
      BitSet allowed = ProcFs.cpusAllowed(pid);
      if (allowed.isEmpty()) {
        continue; // gone meanwhile
      }
      String who = "pid " + pid + " (" + ProcFs.commandLine(pid) + ")";
      if (members.isPresent() && !members.get().contains(pid)) {
        outside.add(who + " is not in the server's cgroups");
        continue;
      }
      BitSet beyond = (BitSet) allowed.clone();
      beyond.andNot(serverCpus);
      if (!beyond.isEmpty()) {
        outside.add(who + " may run on CPUs " + list(allowed) + ", beyond the server's " + list(serverCpus));
      }
    }
    return outside;
  }

  static String list(BitSet cpus) {
    return cpus.stream().mapToObj(Integer::toString).reduce((a, b) -> a + "," + b).orElse("none");
  }
}
