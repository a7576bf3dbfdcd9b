package dev.fairbench.orchestrator.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Counts the threads and processes that were busy between two samples: those that used at least
 * {@link WorkerObservation#BUSY_SHARE} of all the CPU the server used in between.
 */
record BusyWorkers(int threads, int processes, long totalTicks) {
  static BusyWorkers between(ThreadSample from, ThreadSample to) {
    long total = 0;
    for (var process : to.processTicks().entrySet()) {
      total += process.getValue() - from.processTicks().getOrDefault(process.getKey(), 0L);
    }
    double busy = Math.max(1, WorkerObservation.BUSY_SHARE * total);
    int threads = 0;
    for (var thread : to.cpuTicks().entrySet()) {
      if (thread.getValue() - from.cpuTicks().getOrDefault(thread.getKey(), 0L) >= busy) {
        threads++;
      }
    }
    int processes = 0;
    for (var process : to.processTicks().entrySet()) {
      if (process.getValue() - from.processTicks().getOrDefault(process.getKey(), 0L) >= busy) {
        processes++;
      }
    }
    return new BusyWorkers(threads, processes, total);
  }

  /** The median of the counts, rounded down; intervals with almost no CPU are left out. */
  static int median(List<Integer> counts) {
    if (counts.isEmpty()) {
      throw new IllegalArgumentException("no intervals");
    }
    List<Integer> sorted = new ArrayList<>(counts);
    Collections.sort(sorted);
    return sorted.get((sorted.size() - 1) / 2);
  }

  /**
   * Samples a server's threads every {@link #INTERVAL_MILLIS} ms on a daemon thread while load
   * runs, so that a runtime that moves its work between OS threads (Go's P, a thread pool) counts
   * the threads busy at the same time, not every thread that was busy at some point.
   */
  static final class Sampler {
    static final long INTERVAL_MILLIS = 500;
    /** An interval in which the server used less than this many ticks says nothing. */
    static final long MIN_TICKS = 10;

    private final List<BusyWorkers> intervals = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;

    Sampler(ThreadSample first, java.util.function.Supplier<Set<Long>> pids) {
      thread = Thread.ofPlatform().daemon().name("fairbench-worker-sampler").unstarted(() -> {
        ThreadSample previous = first;
        while (!Thread.currentThread().isInterrupted()) {
          try {
            Thread.sleep(INTERVAL_MILLIS);
          } catch (InterruptedException e) {
            return;
          }
          Set<Long> now = pids.get();
          ThreadSample next = new ThreadSample(System.nanoTime(), ProcFs.threadTicks(now), ProcFs.processTicks(now));
          BusyWorkers busy = between(previous, next);
          if (busy.totalTicks() >= MIN_TICKS) {
            intervals.add(busy);
          }
          previous = next;
        }
      });
      thread.start();
    }

    /** Stops sampling and returns the busy counts of the intervals that saw load. */
    List<BusyWorkers> stop() {
      thread.interrupt();
      try {
        thread.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      synchronized (intervals) {
        return List.copyOf(intervals);
      }
    }
  }
}
