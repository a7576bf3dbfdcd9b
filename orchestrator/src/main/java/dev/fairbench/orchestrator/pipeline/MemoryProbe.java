package dev.fairbench.orchestrator.pipeline;

import java.util.SplittableRandom;

/**
 * The latency of memory beyond the caches, read in this process (so on the load client's CPUs, where the
 * orchestrator runs): dependent loads through one random cycle of cache lines in a buffer larger than a
 * VM's share of the last-level cache, in nanoseconds per load. On a shared host a neighbour's use of the
 * memory system lengthens it without slowing the hashing probe, and in the pilots some entries slowed with
 * it more than nginx did (docs/ORCHESTRATOR.md, "Speed around each visit"). Evidence: it judges no visit.
 */
final class MemoryProbe {
  /** 64 MiB: beyond the last-level cache a VM of this kind sees, as the pilot's chase was. */
  static final int MEGABYTES = 64;
  /** About 30 ms at 150 ns a load. */
  static final int LOADS = 200_000;
  private static final int INTS_PER_LINE = 16; // 64-byte lines

  private final int[] cycle;
  private final int loads;
  private int position;

  /**
   * @param megabytes the buffer's size
   * @param loads     dependent loads a reading makes
   */
  MemoryProbe(int megabytes, int loads) {
    int lines = megabytes * 1024 * 1024 / 4 / INTS_PER_LINE;
    this.cycle = new int[lines * INTS_PER_LINE];
    this.loads = loads;
    // Sattolo's shuffle: one cycle through every line, so no chase settles into a short loop the caches hold.
    int[] order = new int[lines];
    for (int i = 0; i < lines; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(42);
    for (int i = lines - 1; i > 0; i--) {
      int j = random.nextInt(i);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    for (int i = 0; i < lines; i++) {
      cycle[order[i] * INTS_PER_LINE] = order[(i + 1) % lines] * INTS_PER_LINE;
    }
    read(); // compiled before the first reading that counts
    read();
  }

  MemoryProbe() {
    this(MEGABYTES, LOADS);
  }

  /** Nanoseconds per load, over this probe's loads. */
  double read() {
    int p = position;
    long started = System.nanoTime();
    for (int i = 0; i < loads; i++) {
      p = cycle[p];
    }
    long took = System.nanoTime() - started;
    position = p; // the next reading goes on from here, and the loop's result is used
    return (double) took / loads;
  }
}
