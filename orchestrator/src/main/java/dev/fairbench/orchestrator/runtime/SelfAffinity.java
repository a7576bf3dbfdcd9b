package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Moves every thread of this JVM onto a CPU set with taskset, so the orchestrator (its JIT, GC,
 * the sampler) never runs on the server's CPUs while a server is measured, and back afterwards.
 * Threads started later inherit the set of the thread that starts them.
 */
public final class SelfAffinity {
  /** The CPUs this JVM was allowed when it started, read before any change. */
  private static final String ORIGINAL = readAllowed();

  private SelfAffinity() {}

  /** @return whether the JVM now runs on {@code cpus}; false when taskset is missing or refused */
  public static boolean set(String cpus) {
    String pid = Long.toString(ProcessHandle.current().pid());
    return Commands.output(List.of("taskset", "-a", "-p", "-c", cpus, pid), Path.of("."), Duration.ofSeconds(10))
        .isPresent();
  }

  /** Back to the CPUs the JVM started with. */
  public static boolean restore() {
    return set(ORIGINAL);
  }

  /** The CPUs the JVM started with, as a cpuset list. */
  public static String original() {
    return ORIGINAL;
  }

  private static String readAllowed() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring("Cpus_allowed_list:".length()).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "0-" + (Runtime.getRuntime().availableProcessors() - 1);
  }
}
