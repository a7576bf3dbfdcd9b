package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.WorkersModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

  /**
   * What a server whose processes are this kernel's (a native server, a container of the local
   * engine) showed of its workers since {@code since}: the same reading in every runtime.
   *
   * @param pids      the server's processes now, as host pids
   * @param intervals the {@link Sampler}'s busy counts since {@code since}
   */
  static WorkerObservation observe(EntryVariant variant, int requested, int port, Set<Long> pids, ThreadSample since,
      List<BusyWorkers> intervals) {
    ThreadSample now = new ThreadSample(System.nanoTime(), ProcFs.threadTicks(pids), ProcFs.processTicks(pids));
    Map<String, Long> threadDeltas = new HashMap<>();
    now.cpuTicks().forEach((thread, ticks) -> threadDeltas.put(thread, ticks - since.cpuTicks().getOrDefault(thread, 0L)));
    Map<Long, Long> processDeltas = new HashMap<>();
    now.processTicks().forEach((pid, ticks) -> processDeltas.put(pid, ticks - since.processTicks().getOrDefault(pid, 0L)));
    // Relative to the CPU the whole server used, processes counted with their exited threads.
    long total = processDeltas.values().stream().mapToLong(Long::longValue).sum();
    double busyTicks = Math.max(1, WorkerObservation.BUSY_SHARE * total);
    int busyThreads = (int) threadDeltas.values().stream().filter(t -> t >= busyTicks).count();
    int busyProcesses = (int) processDeltas.values().stream().filter(t -> t >= busyTicks).count();
    List<String> busy = threadDeltas.entrySet().stream()
        .filter(t -> t.getValue() >= busyTicks)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .map(t -> String.format(Locale.ROOT, "%s (%.0f%%)", ProcFs.threadName(t.getKey()), 100.0 * t.getValue() / total))
        .toList();
    Set<String> inodes = ProcFs.listeningInodes(port);
    int listening = (int) pids.stream().filter(pid -> ProcFs.holdsSocket(pid, inodes)).count();
    boolean byProcess = variant.workersModel() == WorkersModel.PROCESSES;
    // Busy at the same time (median over the sampled intervals), not busy at some point of the run.
    int observed = intervals.size() >= 3
        ? median(intervals.stream().map(b -> byProcess ? b.processes() : b.threads()).toList())
        : byProcess ? busyProcesses : busyThreads;
    return new WorkerObservation(variant.workersModel().wireName(), requested, observed, pids.size(), listening,
        Math.max(now.cpuTicks().size(), since.cpuTicks().size()), busyThreads, observed == requested, busy);
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
