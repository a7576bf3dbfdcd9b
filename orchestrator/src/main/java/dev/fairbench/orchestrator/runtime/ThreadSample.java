package dev.fairbench.orchestrator.runtime;

import java.util.Map;

/**
 * CPU time per thread of a server at one instant, to find the threads that burned CPU between two
 * samples.
 *
 * @param nanoTime   System.nanoTime() when taken
 * @param cpuTicks   "pid/tid" → user + system clock ticks
 */
public record ThreadSample(long nanoTime, Map<String, Long> cpuTicks) {
  public ThreadSample {
    cpuTicks = Map.copyOf(cpuTicks);
  }
}
