package dev.fairbench.orchestrator.config;

import java.util.BitSet;

/** Parses the cpuset list syntax of the kernel and taskset ("0", "1-3", "0,2-3"). */
public final class CpuSet {
  private CpuSet() {}

  public static BitSet parse(String list) {
    if (list == null || list.isBlank()) {
      throw new IllegalArgumentException("a CPU list must not be empty (expected e.g. \"1\" or \"2-3\")");
    }
    BitSet cpus = new BitSet();
    for (String part : list.trim().split(",")) {
      String[] range = part.trim().split("-", -1);
      try {
        int from = Integer.parseInt(range[0].trim());
        int to = range.length == 2 ? Integer.parseInt(range[1].trim()) : from;
        if (range.length > 2 || from < 0 || to < from) {
          throw new NumberFormatException();
        }
        cpus.set(from, to + 1);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "invalid CPU list \"" + list + "\" (expected e.g. \"1\", \"2-3\" or \"0,2\")");
      }
    }
    return cpus;
  }

  public static int count(String list) {
    return parse(list).cardinality();
  }

  public static boolean overlap(String a, String b) {
    return parse(a).intersects(parse(b));
  }

  /** The highest CPU number in the list, to check it against the machine. */
  public static int highest(String list) {
    return parse(list).length() - 1;
  }
}
