package dev.fairbench.orchestrator.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of a server's threads and processes at one instant, to find what burned CPU between two
 * samples.
 *
 * @param nanoTime      System.nanoTime() when taken
 * @param cpuTicks      "pid/tid" → user + system clock ticks of each live thread
 * @param processTicks  pid → user + system clock ticks of the process, including its exited threads
 */
public record ThreadSample(long nanoTime, Map<String, Long> cpuTicks, Map<Long, Long> processTicks) {
  public ThreadSample {
    cpuTicks = Map.copyOf(cpuTicks);
    processTicks = Map.copyOf(processTicks);
  }

  /** When only threads are known: each process counts as the sum of its live threads. */
  public ThreadSample(long nanoTime, Map<String, Long> cpuTicks) {
    this(nanoTime, cpuTicks, sumPerProcess(cpuTicks));
  }

  private static Map<Long, Long> sumPerProcess(Map<String, Long> cpuTicks) {
    Map<Long, Long> perProcess = new HashMap<>();
    cpuTicks.forEach((thread, ticks) -> {
      int slash = thread.indexOf('/');
      if (slash > 0) {
        perProcess.merge(Long.parseLong(thread.substring(0, slash)), ticks, Long::sum);
      }
    });
    return perProcess;
  }
}
