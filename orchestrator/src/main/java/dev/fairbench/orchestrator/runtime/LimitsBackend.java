package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * How a native server is confined: a cgroup (v1 or v2, detected at run time), or taskset alone
 * when no cgroup hierarchy is writable (then memory is not limited, and the results say so).
 */
public sealed interface LimitsBackend permits CgroupV1, CgroupV2, TasksetOnly {
  Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  /** "cgroup-v1", "cgroup-v2" or "taskset". */
  String mode();

  /** Why a better mode was not used; empty when cgroups are in use. */
  String note();

  /** Prepares a group for one server; {@code name} is unique per server. */
  Group create(String name, Limits limits) throws IOException;

  /** One confined server. */
  interface Group {
    /** The command that puts itself in the group with its limits, then executes {@code command}. */
    List<String> wrap(List<String> command);

    /** Every process in the group (empty for taskset: the caller walks the process tree). */
    Set<Long> pids();

    /** CPU seconds of everything that ran in the group, or -1 when the group does not count it. */
    double cpuSeconds();

    /** Peak memory use of the group in bytes, or -1 when unknown. */
    long memoryPeakBytes();

    /** Removes the group; call once its processes are gone. */
    void destroy();
  }

  /** The best backend this machine offers to this user. */
  static LimitsBackend detect() {
    StringBuilder notes = new StringBuilder();
    if (Files.exists(CGROUP_ROOT.resolve("cgroup.controllers"))) {
      try {
        return CgroupV2.open(CGROUP_ROOT);
      } catch (IOException | RuntimeException e) {
        notes.append("cgroup v2 not usable: ").append(e.getMessage());
      }
    } else if (Files.isDirectory(CGROUP_ROOT.resolve("memory")) && Files.isDirectory(CGROUP_ROOT.resolve("cpuset"))) {
      try {
        return CgroupV1.open(CGROUP_ROOT);
      } catch (IOException | RuntimeException e) {
        notes.append("cgroup v1 not usable: ").append(e.getMessage());
      }
    } else {
      notes.append("no cgroup hierarchy found under ").append(CGROUP_ROOT);
    }
    return new TasksetOnly(notes + "; CPUs pinned with taskset, memory NOT limited");
  }

  /** A shell prelude that moves the shell into each cgroup.procs file, then replaces itself with the command. */
  static List<String> joinThenExec(List<Path> procsFiles, List<String> command) {
    StringBuilder script = new StringBuilder();
    for (Path procs : procsFiles) {
      script.append("echo $$ > '").append(procs.toString().replace("'", "'\\''")).append("' || exit 125; ");
    }
    script.append("exec \"$@\"");
    List<String> argv = new java.util.ArrayList<>(List.of("sh", "-c", script.toString(), "fairbench-server"));
    argv.addAll(command);
    return argv;
  }
}
