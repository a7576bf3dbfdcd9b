package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * cgroup v1: one group under each of the cpuset, memory and cpuacct hierarchies (and freezer,
 * when it is mounted), in a {@code fairbench/} parent. cpuset.cpus and cpuset.mems pin the
 * server, memory.limit_in_bytes limits it; cpuacct.usage and memory.max_usage_in_bytes are read
 * back; freezer.state freezes it.
 */
public final class CgroupV1 implements LimitsBackend {
  private static final String PARENT = "fairbench";
  private final Path cpuset;
  private final Path memory;
  private final Path cpuacct;
  /** The fairbench parent in the freezer hierarchy, null when that hierarchy is not mounted. */
  private final Path freezer;

  private CgroupV1(Path cpuset, Path memory, Path cpuacct, Path freezer) {
    this.cpuset = cpuset;
    this.memory = memory;
    this.cpuacct = cpuacct;
    this.freezer = freezer;
  }

  static CgroupV1 open(Path root) throws IOException {
    Path cpusetRoot = root.resolve("cpuset");
    Path memoryRoot = root.resolve("memory");
    Path cpuacctRoot = Files.isDirectory(root.resolve("cpuacct")) ? root.resolve("cpuacct") : root.resolve("cpu,cpuacct");
    for (Path hierarchy : List.of(cpusetRoot, memoryRoot, cpuacctRoot)) {
      if (!Files.isRegularFile(hierarchy.resolve("cgroup.procs"))) {
        throw new IOException(hierarchy + " is not a mounted cgroup v1 hierarchy");
      }
    }
    Path cpusetParent = makeDir(cpusetRoot.resolve(PARENT));
    // A new v1 cpuset starts with no CPUs and no memory nodes: the parent takes the root's.
    copyIfEmpty(cpusetRoot, cpusetParent, "cpuset.cpus");
    copyIfEmpty(cpusetRoot, cpusetParent, "cpuset.mems");
    Path freezerRoot = root.resolve("freezer");
    Path freezerParent = Files.isRegularFile(freezerRoot.resolve("cgroup.procs")) ? makeDir(freezerRoot.resolve(PARENT)) : null;
    return new CgroupV1(cpusetParent, makeDir(memoryRoot.resolve(PARENT)), makeDir(cpuacctRoot.resolve(PARENT)), freezerParent);
  }

  /** The fairbench parents, one per hierarchy. */
  private List<Path> parents() {
    return freezer == null ? List.of(memory, cpuset, cpuacct) : List.of(freezer, memory, cpuset, cpuacct);
  }

  @Override
  public String mode() {
    return "cgroup-v1";
  }

  @Override
  public String note() {
    return "";
  }

  @Override
  public List<String> sweepLeftovers() {
    java.util.SortedSet<String> names = new java.util.TreeSet<>();
    for (Path parent : parents()) {
      try (var groups = Files.list(parent)) {
        groups.filter(Files::isDirectory).filter(LimitsBackend::ownerGone).forEach(g -> names.add(g.getFileName().toString()));
      } catch (IOException e) {
        // nothing to sweep there
      }
    }
    List<String> done = new java.util.ArrayList<>();
    for (String name : names) {
      done.addAll(LimitsBackend.thawKillAndRemove(parents().stream().map(p -> p.resolve(name)).filter(Files::isDirectory).toList()));
    }
    return done;
  }

  @Override
  public Group create(String name, Limits limits) throws IOException {
    Path cpusetGroup = makeDir(cpuset.resolve(name));
    Path memoryGroup = makeDir(memory.resolve(name));
    Path cpuacctGroup = makeDir(cpuacct.resolve(name));
    Path freezerGroup = freezer == null ? null : makeDir(freezer.resolve(name));
    List<Path> groups = freezerGroup == null ? List.of(cpusetGroup, memoryGroup, cpuacctGroup)
        : List.of(freezerGroup, cpusetGroup, memoryGroup, cpuacctGroup);
    try {
      write(cpusetGroup.resolve("cpuset.cpus"), limits.serverCpus());
      write(cpusetGroup.resolve("cpuset.mems"), Files.readString(cpuset.resolve("cpuset.mems")).trim());
      write(memoryGroup.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
      Path swap = memoryGroup.resolve("memory.memsw.limit_in_bytes");
      if (Files.exists(swap)) {
        write(swap, Long.toString(limits.memoryBytes()));
      }
    } catch (IOException e) {
      for (Path group : groups) {
        Files.deleteIfExists(group);
      }
      throw e;
    }
    return new Group() {
      @Override
      public List<String> wrap(List<String> command) {
        return LimitsBackend.joinThenExec(groups.stream().map(g -> g.resolve("cgroup.procs")).toList(), command);
      }

      @Override
      public java.util.Optional<CgroupFreezer> freezer() {
        return java.util.Optional.ofNullable(freezerGroup).map(g -> new CgroupFreezer(g, false));
      }

      @Override
      public java.util.Optional<Set<Long>> members() {
        Set<Long> members = ProcFs.readPids(groups.getFirst().resolve("cgroup.procs"));
        for (Path group : groups.subList(1, groups.size())) {
          members.retainAll(ProcFs.readPids(group.resolve("cgroup.procs")));
        }
        return java.util.Optional.of(members);
      }

      @Override
      public Set<Long> pids() {
        Set<Long> pids = ProcFs.readPids(memoryGroup.resolve("cgroup.procs"));
        pids.addAll(ProcFs.readPids(cpusetGroup.resolve("cgroup.procs")));
        return pids;
      }

      @Override
      public double cpuSeconds() {
        try {
          return Long.parseLong(Files.readString(cpuacctGroup.resolve("cpuacct.usage")).trim()) / 1e9;
        } catch (IOException | NumberFormatException e) {
          return -1;
        }
      }

      @Override
      public long memoryPeakBytes() {
        try {
          return Long.parseLong(Files.readString(memoryGroup.resolve("memory.max_usage_in_bytes")).trim());
        } catch (IOException | NumberFormatException e) {
          return -1;
        }
      }

      @Override
      public long oomKills() {
        return LimitsBackend.counter(memoryGroup.resolve("memory.oom_control"), "oom_kill");
      }

      @Override
      public MemoryReading memoryNow() {
        return MemoryReading.ofCgroup(memoryGroup.resolve("memory.stat"), false);
      }

      @Override
      public java.util.Optional<AppliedLimits> applied() {
        return AppliedLimits.ofCgroupFiles(cpusetGroup.resolve("cpuset.cpus"),
            memoryGroup.resolve("memory.limit_in_bytes"), "cgroup-v1 cpuset.cpus and memory.limit_in_bytes");
      }

      @Override
      public String readBack() {
        try {
          return "cpuset.cpus=" + Files.readString(cpusetGroup.resolve("cpuset.cpus")).trim()
              + ", memory.limit_in_bytes=" + Files.readString(memoryGroup.resolve("memory.limit_in_bytes")).trim();
        } catch (IOException e) {
          return "";
        }
      }

      @Override
      public void destroy() {
        for (Path group : groups) {
          try {
            Files.deleteIfExists(group);
          } catch (IOException e) {
            // still busy: a later run's sweep removes it
          }
        }
      }
    };
  }

  private static Path makeDir(Path dir) throws IOException {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IOException("cannot create " + dir + " (" + e.getMessage() + ")", e);
    }
  }

  private static void copyIfEmpty(Path from, Path to, String file) throws IOException {
    if (Files.readString(to.resolve(file)).isBlank()) {
      write(to.resolve(file), Files.readString(from.resolve(file)).trim());
    }
  }

  static void write(Path file, String value) throws IOException {
    try {
      Files.writeString(file, value);
    } catch (IOException e) {
      throw new IOException("cannot write " + value + " to " + file + " (" + e.getMessage() + ")", e);
    }
  }
}
