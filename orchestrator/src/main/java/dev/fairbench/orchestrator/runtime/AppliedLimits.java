package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * A started server's limits as the kernel or the engine reports them, in one form for every
 * runtime, so that servers of two runtimes in one run can be checked to have the same ones.
 *
 * @param serverCpus  the CPU set (cpuset list syntax), as read back
 * @param memoryBytes the memory limit in bytes; -1 for none ("max")
 * @param openFiles   the open-file limit of its first process; null when it could not be read
 * @param source      where they were read, e.g. "cgroup-v1 files", "docker inspect"
 */
public record AppliedLimits(String serverCpus, long memoryBytes, OpenFileLimit openFiles, String source) {
  /** The kernel keeps memory limits in whole pages: a limit within one page of the one asked is that limit. */
  static final long PAGE = 4096;

  /** What differs from the limits asked for (and the open-file limit every server gets); empty when nothing does. */
  public List<String> differences(Limits asked) {
    List<String> out = new ArrayList<>();
    if (!sameCpus(serverCpus, asked.serverCpus())) {
      out.add("CPU set " + serverCpus + " instead of " + asked.serverCpus());
    }
    if (memoryBytes < 0 || Math.abs(memoryBytes - asked.memoryBytes()) >= PAGE) {
      out.add("memory limit " + (memoryBytes < 0 ? "none" : memoryBytes + " B") + " instead of " + asked.memoryBytes() + " B");
    }
    if (openFiles == null || !openFiles.is(Defaults.OPEN_FILES)) {
      out.add("open-file limit " + (openFiles == null ? "unknown" : openFiles.describe()) + " instead of "
          + Defaults.OPEN_FILES + ":" + Defaults.OPEN_FILES);
    }
    return out;
  }

  private static boolean sameCpus(String a, String b) {
    try {
      return CpuSet.parse(a).equals(CpuSet.parse(b));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Read from a cgroup's CPU-set and memory-limit files; empty when either cannot be read. */
  static java.util.Optional<AppliedLimits> ofCgroupFiles(java.nio.file.Path cpus, java.nio.file.Path memoryLimit,
      String source) {
    try {
      return java.util.Optional.of(new AppliedLimits(java.nio.file.Files.readString(cpus).trim(),
          memoryValue(java.nio.file.Files.readString(memoryLimit)), null, source));
    } catch (java.io.IOException | NumberFormatException e) {
      return java.util.Optional.empty();
    }
  }

  /** A memory limit file's value ("536870912", or "max" under cgroup v2); -1 for none. */
  static long memoryValue(String text) {
    String value = text.trim();
    return value.equals("max") ? -1 : Long.parseLong(value);
  }
}
