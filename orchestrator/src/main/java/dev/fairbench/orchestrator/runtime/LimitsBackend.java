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

  /**
   * Kills what is left in the groups of orchestrators that died without cleaning up (kill -9) and
   * removes those groups. Group names start with the owning orchestrator's pid.
   */
  default void sweepStale() {
    sweepLeftovers();
  }

  /**
   * Does what {@link #sweepStale} does and says what: one line per group thawed, process killed
   * (pid and command) and group removed or left busy. Empty when nothing was left.
   */
  default List<String> sweepLeftovers() {
    return List.of();
  }

  /** Prepares a group for one server; {@code name} is unique per server. */
  Group create(String name, Limits limits) throws IOException;

  /** The value of {@code key} in a "key value" file such as memory.events; 0 when absent. */
  static long counter(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        String[] f = line.trim().split("\\s+");
        if (f.length == 2 && f[0].equals(key)) {
          return Long.parseLong(f[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // an older kernel without the counter
    }
    return 0;
  }

  /** One confined server. */
  interface Group {
    /** The command that puts itself in the group with its limits, then executes {@code command}. */
    List<String> wrap(List<String> command);

    /** Every process in the group (empty for taskset: the caller walks the process tree). */
    Set<Long> pids();

    /**
     * The processes that are in every hierarchy of the group (a process that wrote itself into another
     * cgroup of one hierarchy is missing here); empty for taskset, which has no membership to check.
     */
    default java.util.Optional<Set<Long>> members() {
      return java.util.Optional.empty();
    }

    /** CPU seconds of everything that ran in the group, or -1 when the group does not count it. */
    double cpuSeconds();

    /** Peak memory use of the group in bytes, or -1 when unknown. */
    long memoryPeakBytes();

    /** The anonymous memory charged to the group now; unknown when the group does not count it (taskset). */
    default MemoryReading memoryNow() {
      return MemoryReading.UNKNOWN;
    }

    /**
     * The kernel freezer of the group; empty when the backend has none, and then the server is
     * frozen with SIGSTOP to its process tree.
     */
    default java.util.Optional<CgroupFreezer> freezer() {
      return java.util.Optional.empty();
    }

    /** How many processes of the group the kernel's OOM killer killed; 0 when unknown. */
    default long oomKills() {
      return 0;
    }

    /** Removes the group; call once its processes are gone. */
    void destroy();

    /**
     * The group's CPU set and memory limit as the kernel reports them (the open-file limit is the
     * process's: null here); empty when the group has none (taskset) or its files cannot be read.
     */
    default java.util.Optional<AppliedLimits> applied() {
      return java.util.Optional.empty();
    }

    /** The limits as the kernel reports them for this group, e.g. "cpuset.cpus=1, memory.limit_in_bytes=536870912". */
    default String readBack() {
      return "";
    }
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

  /** Whether a group named "<pid>-..." belongs to an orchestrator that is gone. */
  static boolean ownerGone(Path group) {
    String name = group.getFileName().toString();
    int dash = name.indexOf('-');
    try {
      long owner = Long.parseLong(dash < 0 ? name : name.substring(0, dash));
      return owner != ProcessHandle.current().pid() && ProcessHandle.of(owner).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** SIGKILL to every process listed in the cgroup.procs files, then remove the group folders. */
  static void killAndRemove(List<Path> groups) {
    thawKillAndRemove(groups);
  }

  /**
   * Thaws the groups (a frozen task cannot die under cgroup v1 until it is thawed), SIGKILLs
   * every process listed in their cgroup.procs files, removes the group folders, and says what it
   * did, one line each.
   */
  static List<String> thawKillAndRemove(List<Path> groups) {
    List<String> done = new java.util.ArrayList<>();
    for (Path group : groups) {
      if (thaw(group)) {
        done.add("thawed cgroup " + group);
      }
    }
    Set<Long> killed = new java.util.HashSet<>();
    for (int attempt = 0; attempt < 20; attempt++) {
      Set<Long> pids = new java.util.TreeSet<>();
      groups.forEach(g -> pids.addAll(ProcFs.readPids(g.resolve("cgroup.procs"))));
      if (pids.isEmpty()) {
        break;
      }
      for (long pid : pids) {
        if (killed.add(pid)) {
          done.add("killed pid " + pid + " (" + ProcFs.commandLine(pid) + ")");
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
      groups.forEach(LimitsBackend::thaw); // a task that joined meanwhile
      Commands.sleep(100);
    }
    for (Path group : groups) {
      try {
        if (Files.deleteIfExists(group)) {
          done.add("removed cgroup " + group);
        }
      } catch (IOException e) {
        done.add("could not remove cgroup " + group + " (" + e.getMessage() + "); the next sweep tries again");
      }
    }
    return done;
  }

  /** Writes THAWED (v1) or 0 (v2) when the group is frozen; whether it was. */
  private static boolean thaw(Path group) {
    try {
      Path state = group.resolve("freezer.state");
      if (Files.exists(state) && !Files.readString(state).trim().equals("THAWED")) {
        CgroupV1.write(state, "THAWED");
        return true;
      }
      Path freeze = group.resolve("cgroup.freeze");
      if (Files.exists(freeze) && Files.readString(freeze).trim().equals("1")) {
        CgroupV1.write(freeze, "0");
        return true;
      }
    } catch (IOException e) {
      // gone meanwhile
    }
    return false;
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
