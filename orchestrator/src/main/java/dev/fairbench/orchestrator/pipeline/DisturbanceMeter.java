package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.Disturbance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Reads, before and after a run, what the kernel says about the server's CPUs: their busy and steal
 * time (/proc/stat), the CPU pressure (/proc/pressure/cpu), and the server processes' involuntary
 * context switches and major faults. The difference is the run's {@link Disturbance}.
 */
final class DisturbanceMeter {
  private static final Path STAT = Path.of("/proc/stat");
  private static final Path PRESSURE = Path.of("/proc/pressure/cpu");
  /** CPU time of this JVM, every thread: -1 where the platform does not tell. */
  private static final com.sun.management.OperatingSystemMXBean ORCHESTRATOR =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  private final Set<Integer> cpus;
  /** The load client's CPUs when it runs on this machine; empty otherwise. */
  private final Set<Integer> clientCpus;
  private final double ticksPerSecond;

  DisturbanceMeter(String serverCpus, double ticksPerSecond) {
    this(serverCpus, null, ticksPerSecond);
  }

  /** {@code clientCpus} null when the load client runs elsewhere: no evidence from its side then. */
  DisturbanceMeter(String serverCpus, String clientCpus, double ticksPerSecond) {
    this.cpus = cpuSet(serverCpus);
    this.clientCpus = clientCpus == null ? Set.of() : cpuSet(clientCpus);
    this.ticksPerSecond = ticksPerSecond;
  }

  private static Set<Integer> cpuSet(String list) {
    return CpuSet.parse(list).stream().boxed().collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /** The counters at one instant: busy and steal ticks of the server's CPUs, then the client's steal. */
  record Sample(long nanoTime, long busyTicks, long stealTicks, long pressureMicros, long involuntarySwitches,
      long majorFaults, long clientStealTicks, long orchestratorCpuNanos) {}

  Sample sample(Set<Long> serverPids) {
    long busy = 0;
    long steal = 0;
    long clientSteal = 0;
    try {
      for (String line : Files.readAllLines(STAT)) {
        if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
          continue;
        }
        String[] f = line.trim().split("\\s+");
        int cpu = Integer.parseInt(f[0].substring(3));
        long cpuSteal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        if (cpus.contains(cpu)) {
          // user nice system idle iowait irq softirq steal: busy is what tasks ran (user, nice, system)
          busy += Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]);
          steal += cpuSteal;
        } else if (clientCpus.contains(cpu)) {
          clientSteal += cpuSteal;
        }
      }
    } catch (IOException | RuntimeException e) {
      // a kernel without /proc/stat in this shape: no evidence, not a failure
    }
    long switches = 0;
    long faults = 0;
    for (long pid : serverPids) {
      switches += involuntarySwitches(pid);
      faults += majorFaults(pid);
    }
    return new Sample(System.nanoTime(), busy, steal, pressureMicros(), switches, faults, clientSteal,
        ORCHESTRATOR.getProcessCpuTime());
  }

  /** The load client's side of the run, or null when the load client is not on this machine. */
  RunRecord.ClientSide clientSide(Sample before, Sample after) {
    if (clientCpus.isEmpty()) {
      return null;
    }
    double steal = (after.clientStealTicks() - before.clientStealTicks()) / ticksPerSecond;
    double orchestrator = before.orchestratorCpuNanos() < 0 || after.orchestratorCpuNanos() < 0 ? 0
        : (after.orchestratorCpuNanos() - before.orchestratorCpuNanos()) / 1e9;
    return new RunRecord.ClientSide(steal, orchestrator);
  }

  /**
   * @param serverCpuSeconds the server's own CPU time during the run (its cgroup's)
   * @param threshold        a share at or above this marks the run disturbed
   */
  Disturbance between(Sample before, Sample after, double serverCpuSeconds, double threshold) {
    double wall = (after.nanoTime() - before.nanoTime()) / 1e9;
    double steal = (after.stealTicks() - before.stealTicks()) / ticksPerSecond;
    double busy = (after.busyTicks() - before.busyTicks()) / ticksPerSecond;
    // Tick accounting is coarse (10 ms): a small negative difference is rounding, not time.
    double other = Math.max(0, busy - serverCpuSeconds);
    double pressure = (after.pressureMicros() - before.pressureMicros()) / 1e6;
    double share = wall > 0 ? (steal + other) / (wall * cpus.size()) : 0;
    return new Disturbance(steal, other, Math.max(0, pressure), after.involuntarySwitches() - before.involuntarySwitches(),
        after.majorFaults() - before.majorFaults(), share, share >= threshold);
  }

  private static long pressureMicros() {
    try {
      for (String line : Files.readAllLines(PRESSURE)) {
        if (line.startsWith("some")) {
          for (String field : line.split("\\s+")) {
            if (field.startsWith("total=")) {
              return Long.parseLong(field.substring(6));
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // no PSI on this kernel
    }
    return 0;
  }

  private static long involuntarySwitches(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("nonvoluntary_ctxt_switches:")) {
          return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process is gone
    }
    return 0;
  }

  /** Field 12 of /proc/PID/stat, counted after the command name (which may hold spaces). */
  private static long majorFaults(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
      return Long.parseLong(fields.get(9));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
