package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;

/**
 * The memory a server holds at one moment, each physical page counted once however many of its
 * processes map it: the anonymous memory its cgroup is charged for (cgroup v1 memory.stat
 * total_rss, v2 memory.stat anon; page cache and the files it maps left out), or, without a
 * cgroup, the sum over its processes of the proportional set size of their anonymous memory
 * (/proc/PID/smaps_rollup Pss_Anon, a shared page split between its sharers).
 *
 * @param bytes  -1 when unknown
 * @param method e.g. "cgroup-v1 memory.stat total_rss", "cgroup-v2 memory.stat anon", "smaps_rollup Pss_Anon"
 */
public record MemoryReading(long bytes, String method) {
  public static final MemoryReading UNKNOWN = new MemoryReading(-1, "unknown");

  public static final String V1_METHOD = "cgroup-v1 memory.stat total_rss";
  public static final String V2_METHOD = "cgroup-v2 memory.stat anon";
  public static final String PSS_METHOD = "smaps_rollup Pss_Anon";

  public boolean known() {
    return bytes >= 0;
  }

  /** The value of one key of a memory.stat file ("total_rss 123" lines), empty when absent. */
  static OptionalLong statValue(String memoryStat, String key) {
    for (String line : memoryStat.split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0 && line.substring(0, space).equals(key)) {
        try {
          return OptionalLong.of(Long.parseLong(line.substring(space + 1).trim()));
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  /**
   * From a cgroup's memory.stat: total_rss under v1 (the hierarchical figure; rss alone leaves out
   * child groups), anon under v2. Unknown when the file cannot be read.
   */
  static MemoryReading ofCgroup(Path memoryStat, boolean v2) {
    try {
      String text = Files.readString(memoryStat);
      OptionalLong value = v2 ? statValue(text, "anon") : statValue(text, "total_rss");
      return value.isPresent() ? new MemoryReading(value.getAsLong(), v2 ? V2_METHOD : V1_METHOD) : UNKNOWN;
    } catch (IOException e) {
      return UNKNOWN;
    }
  }

  /** The Pss_Anon line of a smaps_rollup file, in bytes; empty when absent (kernels before 5.7). */
  static OptionalLong pssAnonBytes(List<String> smapsRollup) {
    for (String line : smapsRollup) {
      if (line.startsWith("Pss_Anon:")) {
        String[] parts = line.substring("Pss_Anon:".length()).trim().split("\\s+");
        try {
          return OptionalLong.of(Long.parseLong(parts[0]) * 1024);
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  /** The Pss_Anon of the processes summed; processes gone meanwhile count nothing. */
  static MemoryReading ofProcesses(Collection<Long> pids) {
    long total = 0;
    boolean any = false;
    for (long pid : pids) {
      try {
        OptionalLong pss = pssAnonBytes(Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup")));
        if (pss.isPresent()) {
          total += pss.getAsLong();
          any = true;
        }
      } catch (IOException e) {
        // exited meanwhile
      }
    }
    return any ? new MemoryReading(total, PSS_METHOD) : UNKNOWN;
  }
}
