package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.config.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

/** Reads what Linux tells about processes under /proc. Missing processes read as absent, not errors. */
public final class ProcFs {
  private static final Path PROC = Path.of("/proc");

  private ProcFs() {}

  /** utime + stime of one thread or process, in clock ticks, from a /proc/.../stat line. */
  public static OptionalLong cpuTicks(Path statFile) {
    try {
      return OptionalLong.of(parseCpuTicks(Files.readString(statFile), false));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * utime + stime (and, with {@code withChildren}, cutime + cstime) from the text of a stat file.
   * The command name in parentheses may hold spaces, so fields are counted after the last ')'.
   */
  public static long parseCpuTicks(String stat, boolean withChildren) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17); fields[0] is field 3.
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    if (withChildren) {
      ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }
    return ticks;
  }

  /** cutime + cstime of this JVM: the CPU of every child it has reaped. */
  public static long reapedChildrenTicks() {
    try {
      String stat = Files.readString(PROC.resolve("self/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/self/stat: " + e.getMessage(), e);
    }
  }

  /** "pid/tid" → ticks for every thread of the given processes. */
  public static Map<String, Long> threadTicks(Set<Long> pids) {
    Map<String, Long> ticks = new HashMap<>();
    for (long pid : pids) {
      try (Stream<Path> tasks = Files.list(PROC.resolve(pid + "/task"))) {
        for (Path task : tasks.toList()) {
          cpuTicks(task.resolve("stat")).ifPresent(t -> ticks.put(pid + "/" + task.getFileName(), t));
        }
      } catch (IOException e) {
        // the process exited between listing and reading
      }
    }
    return ticks;
  }

  /** pid → utime+stime of each process (its exited threads included). */
  public static Map<Long, Long> processTicks(Set<Long> pids) {
    Map<Long, Long> ticks = new HashMap<>();
    for (long pid : pids) {
      cpuTicks(PROC.resolve(pid + "/stat")).ifPresent(t -> ticks.put(pid, t));
    }
    return ticks;
  }

  /** The name of a thread ("pid/tid"), as the kernel shows it (at most 15 characters). */
  public static String threadName(String thread) {
    try {
      return Files.readString(PROC.resolve(thread.replace("/", "/task/") + "/comm")).trim();
    } catch (IOException e) {
      return "?";
    }
  }

  /** Sum of utime+stime+cutime+cstime of the processes, for when no cgroup counts CPU. */
  public static double cpuSeconds(Set<Long> pids, long ticksPerSecond) {
    long total = 0;
    for (long pid : pids) {
      try {
        total += parseCpuTicks(Files.readString(PROC.resolve(pid + "/stat")), true);
      } catch (IOException | RuntimeException e) {
        // gone
      }
    }
    return (double) total / ticksPerSecond;
  }

  /** A field of /proc/<pid>/status in bytes (VmHWM, VmRSS), or 0 when the process is gone. */
  public static long statusKib(long pid, String field) {
    try {
      for (String line : Files.readAllLines(PROC.resolve(pid + "/status"))) {
        if (line.startsWith(field + ":")) {
          String[] parts = line.substring(field.length() + 1).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone
    }
    return 0;
  }

  /** Socket inodes listening on the TCP port (IPv4 and IPv6). */
  public static Set<String> listeningInodes(int port) {
    Set<String> inodes = new HashSet<>();
    for (String table : List.of("net/tcp", "net/tcp6")) {
      try {
        inodes.addAll(parseListeningInodes(Files.readAllLines(PROC.resolve(table)), port));
      } catch (IOException e) {
        // no IPv6
      }
    }
    return inodes;
  }

  /** From the lines of /proc/net/tcp: inodes of sockets in state LISTEN (0A) on the port. */
  public static Set<String> parseListeningInodes(List<String> lines, int port) {
    Set<String> inodes = new HashSet<>();
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 10) {
        continue;
      }
      String local = f[1];
      int localPort = Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16);
      if (localPort == port && f[3].equals("0A")) {
        inodes.add(f[9]);
      }
    }
    return inodes;
  }

  /** The local addresses of the TCP sockets listening on the port (IPv4 and IPv6), as /proc/net/tcp* has them. */
  public static List<java.net.InetAddress> listeningAddresses(int port) {
    List<java.net.InetAddress> addresses = new ArrayList<>();
    for (String table : List.of("net/tcp", "net/tcp6")) {
      try {
        addresses.addAll(parseListeningAddresses(Files.readAllLines(PROC.resolve(table)), port));
      } catch (IOException e) {
        // no IPv6
      }
    }
    return addresses;
  }

  /**
   * From the lines of /proc/net/tcp or tcp6: the local addresses of sockets in state LISTEN (0A) on the port.
   * The kernel writes an address as 32-bit words in the machine's byte order (little-endian here):
   * {@code 0100007F} is 127.0.0.1.
   */
  public static List<java.net.InetAddress> parseListeningAddresses(List<String> lines, int port) {
    List<java.net.InetAddress> addresses = new ArrayList<>();
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4 || !f[3].equals("0A")) {
        continue;
      }
      String local = f[1];
      int colon = local.lastIndexOf(':');
      if (colon < 0 || Integer.parseInt(local.substring(colon + 1), 16) != port) {
        continue;
      }
      String hex = local.substring(0, colon);
      byte[] bytes = new byte[hex.length() / 2];
      for (int word = 0; word < bytes.length / 4; word++) {
        for (int i = 0; i < 4; i++) {
          int at = (word * 4 + 3 - i) * 2; // little-endian within each word
          bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
        }
      }
      try {
        addresses.add(java.net.InetAddress.getByAddress(bytes));
      } catch (java.net.UnknownHostException e) {
        // not 4 or 16 bytes: not a line of these tables
      }
    }
    return addresses;
  }

  /** Whether the process has an open file descriptor on one of the socket inodes. */
  public static boolean holdsSocket(long pid, Set<String> inodes) {
    if (inodes.isEmpty()) {
      return false;
    }
    try (Stream<Path> fds = Files.list(PROC.resolve(pid + "/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")
              && inodes.contains(target.substring("socket:[".length(), target.length() - 1))) {
            return true;
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    } catch (IOException e) {
      // gone
    }
    return false;
  }

  /** Every process of this machine with an open file descriptor on one of the socket inodes. */
  public static Set<Long> socketHolders(Set<String> inodes) {
    Set<Long> holders = new HashSet<>();
    if (inodes.isEmpty()) {
      return holders;
    }
    try (Stream<Path> entries = Files.list(PROC)) {
      entries.map(p -> p.getFileName().toString()).filter(name -> name.chars().allMatch(Character::isDigit))
          .map(Long::parseLong).filter(pid -> holdsSocket(pid, inodes)).forEach(holders::add);
    } catch (IOException e) {
      // no /proc: nothing found
    }
    return holders;
  }

  /** The CPUs any thread of the process may run on (the union of their Cpus_allowed_list); empty when it is gone. */
  public static BitSet cpusAllowed(long pid) {
    BitSet allowed = new BitSet();
    try (Stream<Path> tasks = Files.list(PROC.resolve(pid + "/task"))) {
      for (Path task : tasks.toList()) {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
              allowed.or(CpuSet.parse(line.substring(line.indexOf(':') + 1).trim()));
            }
          }
        } catch (IOException e) {
          // the thread ended while we looked
        }
      }
    } catch (IOException e) {
      // gone
    }
    return allowed;
  }

  /**
   * Every process whose environment holds the variable NAME, with its value (from
   * /proc/PID/environ, as it was when the process started: inherited through any fork, a cgroup
   * move or setsid).
   */
  public static Map<Long, String> withVariable(String name) {
    Map<Long, String> found = new HashMap<>();
    String prefix = name + "=";
    try (Stream<Path> entries = Files.list(PROC)) {
      for (Path dir : entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
        String environment;
        try {
          environment = new String(Files.readAllBytes(dir.resolve("environ")), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
          continue; // gone meanwhile, or not ours to read
        }
        for (String variable : environment.split("\0")) {
          if (variable.startsWith(prefix)) {
            found.put(Long.parseLong(dir.getFileName().toString()), variable.substring(prefix.length()));
            break;
          }
        }
      }
    } catch (IOException e) {
      // no /proc: nothing found
    }
    return found;
  }

  /** Whether the process is in a cgroup the orchestrator made (a path under /fairbench/ in any hierarchy). */
  public static boolean inFairbenchCgroup(long pid) {
    try {
      return Files.readString(PROC.resolve(pid + "/cgroup")).contains(":/fairbench/");
    } catch (IOException e) {
      return false;
    }
  }

  /** A process's command line with spaces between the arguments, "?" when it is gone. */
  public static String commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(PROC.resolve(pid + "/cmdline"));
      String line = new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ').trim();
      if (!line.isEmpty()) {
        return line;
      }
      return "[" + Files.readString(PROC.resolve(pid + "/comm")).trim() + "]";
    } catch (IOException e) {
      return "?";
    }
  }

  /** The start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), -1 when it is gone. */
  public static long startTime(long pid) {
    try {
      String stat = Files.readString(PROC.resolve(pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
      // fields[0] is field 3 (state); a zombie is gone for our purposes.
      return fields[0].equals("Z") || fields[0].equals("X") ? -1 : Long.parseLong(fields[19]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The pids in a cgroup.procs file. */
  public static Set<Long> readPids(Path procsFile) {
    Set<Long> pids = new HashSet<>();
    try {
      for (String line : Files.readAllLines(procsFile)) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.trim()));
        }
      }
    } catch (IOException e) {
      // group already removed
    }
    return pids;
  }

  static List<Long> descendantsAndSelf(ProcessHandle root) {
    List<Long> pids = new ArrayList<>();
    if (root.isAlive()) {
      pids.add(root.pid());
    }
    root.descendants().forEach(p -> pids.add(p.pid()));
    return pids;
  }
}
