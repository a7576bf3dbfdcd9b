package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.runtime.ProcFs;
import dev.fairbench.orchestrator.runtime.SelfAffinity;
import java.util.BitSet;

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
    BitSet beyond = ProcFs.cpusAllowed(ProcessHandle.current().pid());
    if (beyond.isEmpty()) {
      return false; // nothing could be read
    }
    beyond.andNot(cpus);
    return beyond.isEmpty();
  }
}
