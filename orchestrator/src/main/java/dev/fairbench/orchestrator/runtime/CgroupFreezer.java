package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The freezer of one cgroup. v1: the group's freezer.state takes FROZEN or THAWED and reads
 * FREEZING until every task is frozen. v2: cgroup.freeze takes 1 or 0, and cgroup.events says
 * "frozen 1" once every task is frozen.
 */
record CgroupFreezer(Path group, boolean v2) {
  String mechanism() {
    return v2 ? "cgroup-v2-freeze" : "cgroup-v1-freezer";
  }

  /** Asks the kernel for the state; returns before it is reached. */
  void request(boolean frozen) throws IOException {
    if (v2) {
      CgroupV1.write(group.resolve("cgroup.freeze"), frozen ? "1" : "0");
    } else {
      CgroupV1.write(group.resolve("freezer.state"), frozen ? "FROZEN" : "THAWED");
    }
  }

  /** What the kernel reports now: "FROZEN", "FREEZING", "THAWED" (v1) or "frozen 1", "frozen 0" (v2). */
  String state() {
    try {
      if (!v2) {
        return Files.readString(group.resolve("freezer.state")).trim();
      }
      for (String line : Files.readAllLines(group.resolve("cgroup.events"))) {
        if (line.startsWith("frozen ")) {
          return line.trim();
        }
      }
      return "no \"frozen\" line in " + group.resolve("cgroup.events");
    } catch (IOException e) {
      return "unreadable (" + e.getMessage() + ")";
    }
  }

  boolean reached(String state, boolean frozen) {
    return v2 ? state.equals(frozen ? "frozen 1" : "frozen 0") : state.equals(frozen ? "FROZEN" : "THAWED");
  }

  /** The file whose content says the state, for messages. */
  Path stateFile() {
    return group.resolve(v2 ? "cgroup.events" : "freezer.state");
  }
}
