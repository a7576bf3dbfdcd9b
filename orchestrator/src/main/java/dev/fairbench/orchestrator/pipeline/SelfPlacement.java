package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.runtime.SelfAffinity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.stream.Stream;

/**
 * Moves the orchestrator's threads off the server's CPUs and checks that every thread really moved
 * (taskset can be refused, and a thread can be missed): the check, not the attempt, is recorded.
 */
final class SelfPlacement {
  private SelfPlacement() {}

  /** @return true when every thread of this JVM is now allowed only {@code cpus} */
  static boolean moveTo(String cpus) {
    return SelfAffinity.set(cpus) && allThreadsOn(CpuSet.parse(cpus));
  }

  static void restore() {
    SelfAffinity.restore();
  }

  static boolean allThreadsOn(BitSet cpus) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      return tasks.allMatch(task -> {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
              BitSet allowed = CpuSet.parse(line.substring(line.indexOf(':') + 1).trim());
              allowed.andNot(cpus);
              return allowed.isEmpty();
            }
          }
          return false;
        } catch (IOException e) {
          return true; // the thread ended while we looked
        }
      });
    } catch (IOException e) {
      return false;
    }
  }
}
