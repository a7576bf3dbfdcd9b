package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * cgroup v2: one group in a {@code fairbench/} parent with cpuset.cpus and memory.max (swap
 * off); cpu.stat usage_usec and memory.peak are read back; cgroup.freeze freezes it.
 */
public final class CgroupV2 implements LimitsBackend {
  private final Path parent;

  private CgroupV2(Path parent) {
    this.parent = parent;
  }

  static CgroupV2 open(Path root) throws IOException {
    String available = Files.readString(root.resolve("cgroup.controllers"));
    for (String controller : List.of("cpuset", "memory", "cpu")) {
      if (!available.contains(controller)) {
        throw new IOException("the cgroup v2 controller " + controller + " is not available (" + available.trim() + ")");
      }
    }
    CgroupV1.write(root.resolve("cgroup.subtree_control"), "+cpuset +memory +cpu");
    Path parent = Files.createDirectories(root.resolve("fairbench"));
    CgroupV1.write(parent.resolve("cgroup.subtree_control"), "+cpuset +memory +cpu");
    return new CgroupV2(parent);
  }

  @Override
  public String mode() {
    return "cgroup-v2";
  }

  @Override
  public String note() {
    return "";
  }

  @Override
  public List<String> sweepLeftovers() {
    List<String> done = new java.util.ArrayList<>();
    try (var groups = Files.list(parent)) {
      for (Path group : groups.filter(Files::isDirectory).filter(LimitsBackend::ownerGone).toList()) {
        done.addAll(LimitsBackend.thawKillAndRemove(List.of(group)));
      }
    } catch (IOException e) {
      // nothing to sweep
    }
    return done;
  }

  @Override
  public Group create(String name, Limits limits) throws IOException {
    Path group = Files.createDirectories(parent.resolve(name));
    try {
      CgroupV1.write(group.resolve("cpuset.cpus"), limits.serverCpus());
      CgroupV1.write(group.resolve("memory.max"), Long.toString(limits.memoryBytes()));
      if (Files.exists(group.resolve("memory.swap.max"))) {
        CgroupV1.write(group.resolve("memory.swap.max"), "0");
      }
    } catch (IOException e) {
      Files.deleteIfExists(group);
      throw e;
    }
    return new Group() {
      @Override
      public List<String> wrap(List<String> command) {
        return LimitsBackend.joinThenExec(List.of(group.resolve("cgroup.procs")), command);
      }

      @Override
      public java.util.Optional<CgroupFreezer> freezer() {
        return java.util.Optional.of(new CgroupFreezer(group, true));
      }

      @Override
      public Set<Long> pids() {
        return ProcFs.readPids(group.resolve("cgroup.procs"));
      }

      @Override
      public java.util.Optional<Set<Long>> members() {
        return java.util.Optional.of(pids());
      }

      @Override
      public double cpuSeconds() {
        try {
          for (String line : Files.readAllLines(group.resolve("cpu.stat"))) {
            if (line.startsWith("usage_usec ")) {
              return Long.parseLong(line.substring("usage_usec ".length()).trim()) / 1e6;
            }
          }
        } catch (IOException | NumberFormatException e) {
          // fall through
        }
        return -1;
      }

      @Override
      public long memoryPeakBytes() {
        try {
          return Long.parseLong(Files.readString(group.resolve("memory.peak")).trim());
        } catch (IOException | NumberFormatException e) {
          return -1; // memory.peak exists from Linux 5.19 on
        }
      }

      @Override
      public long oomKills() {
        return LimitsBackend.counter(group.resolve("memory.events"), "oom_kill");
      }

      @Override
      public MemoryReading memoryNow() {
        return MemoryReading.ofCgroup(group.resolve("memory.stat"), true);
      }

      @Override
      public java.util.Optional<AppliedLimits> applied() {
        return AppliedLimits.ofCgroupFiles(group.resolve("cpuset.cpus"), group.resolve("memory.max"),
            "cgroup-v2 cpuset.cpus and memory.max");
      }

      @Override
      public String readBack() {
        try {
          return "cpuset.cpus=" + Files.readString(group.resolve("cpuset.cpus")).trim()
              + ", memory.max=" + Files.readString(group.resolve("memory.max")).trim();
        } catch (IOException e) {
          return "";
        }
      }

      @Override
      public void destroy() {
        try {
          Files.deleteIfExists(group);
        } catch (IOException e) {
          // still busy
        }
      }
    };
  }
}
