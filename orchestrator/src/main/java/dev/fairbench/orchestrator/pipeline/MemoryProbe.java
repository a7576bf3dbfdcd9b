package dev.fairbench.orchestrator.pipeline;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.fairbench.orchestrator.core.ProbePages;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The latency of memory beyond the caches, read in this process (so on the load client's CPUs, where the
 * orchestrator runs): dependent loads through one random cycle of cache lines in a buffer larger than a
 * VM's share of the last-level cache, in nanoseconds per load. On a shared host a neighbour's use of the
 * memory system lengthens it without slowing the hashing probe, and in the pilots some entries slowed with
 * it more than nginx did (docs/ORCHESTRATOR.md, "Speed around each visit"). Evidence: it judges no visit.
 *
 * <p>On 4 KiB pages each load also walks the page tables, and where the buffer landed moves the reading by up to
 * a tenth; the launcher asks the JVM for transparent huge pages where the kernel gives them on request, and the
 * probe says which pages it read on ({@link #pages()}).
 */
final class MemoryProbe {
  /** 64 MiB: beyond the last-level cache a VM of this kind sees, as the pilot's chase was. */
  static final int MEGABYTES = 64;
  /** About 30 ms at 150 ns a load. */
  static final int LOADS = 200_000;
  private static final int INTS_PER_LINE = 16; // 64-byte lines

  private static final Path THP_SETTING = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
  private static final Path OWN_MEMORY = Path.of("/proc/self/smaps_rollup");
  private static final Pattern CHOSEN = Pattern.compile("\\[(\\w+)]");
  private static final Pattern HUGE_KIB = Pattern.compile("(?m)^AnonHugePages:\\s+(\\d+) kB");

  private final int[] cycle;
  private final int loads;
  private final ProbePages pages;
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
    pages = pages(setting(THP_SETTING), jvmAsksForHugePages(), hugeKib(OWN_MEMORY), megabytes);
  }

  MemoryProbe() {
    this(MEGABYTES, LOADS);
  }

  /** The pages this probe's buffer lies on. */
  ProbePages pages() {
    return pages;
  }

  /**
   * Huge pages where the kernel puts anonymous memory on them always, or on request and this JVM asks for them
   * ({@code -XX:+UseTransparentHugePages}) — and the process then holds at least a buffer's worth of them, so a
   * kernel that could not find free 2 MiB blocks is not taken at its word.
   *
   * @param setting   the kernel's choice ("always", "madvise", "never"); null where it has no such setting
   * @param hugeKib   the process's anonymous memory on huge pages, KiB; -1 where unknown
   */
  static ProbePages pages(String setting, boolean jvmAsks, long hugeKib, int megabytes) {
    boolean offered = "always".equals(setting) || ("madvise".equals(setting) && jvmAsks);
    return offered && hugeKib >= megabytes * 1024L ? ProbePages.HUGE : ProbePages.SMALL;
  }

  /** The bracketed choice of a kernel setting file ("always [madvise] never"); null where there is none. */
  static String setting(Path file) {
    try {
      Matcher m = CHOSEN.matcher(Files.readString(file));
      return m.find() ? m.group(1) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** AnonHugePages of a smaps_rollup file, KiB; -1 where unreadable. */
  static long hugeKib(Path smapsRollup) {
    try {
      Matcher m = HUGE_KIB.matcher(Files.readString(smapsRollup));
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static boolean jvmAsksForHugePages() {
    try {
      return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption("UseTransparentHugePages").getValue());
    } catch (RuntimeException e) { // another JVM, without the option
      return false;
    }
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
