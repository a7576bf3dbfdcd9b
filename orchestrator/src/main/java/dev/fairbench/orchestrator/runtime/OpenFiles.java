package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** How a server gets its open-file limit natively, and how a limit is read back from /proc. */
final class OpenFiles {
  private OpenFiles() {}

  /** From the "Max open files" line of a /proc/PID/limits text; empty when it has none. */
  static Optional<OpenFileLimit> ofProcLimits(List<String> lines, String source) {
    for (String line : lines) {
      if (line.startsWith("Max open files")) {
        String[] f = line.substring("Max open files".length()).trim().split("\\s+");
        if (f.length >= 2) {
          try {
            return Optional.of(new OpenFileLimit(value(f[0]), value(f[1]), source));
          } catch (NumberFormatException e) {
            return Optional.empty();
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Of process {@code pid} of this kernel; empty when it is gone. */
  static Optional<OpenFileLimit> ofProcess(long pid) {
    Path limits = Path.of("/proc", Long.toString(pid), "limits");
    try {
      return ofProcLimits(Files.readAllLines(limits), limits.toString());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static long value(String field) {
    return field.equals("unlimited") ? -1 : Long.parseLong(field);
  }

  /**
   * The start command under the limit: `sh -c 'ulimit -n N || exit 124; exec "$@"'`. POSIX sh's ulimit
   * without -S or -H sets both; exec keeps the pid, so the server is still the process that was started.
   */
  static List<String> wrap(int n, List<String> command) {
    List<String> argv = new java.util.ArrayList<>(List.of("sh", "-c",
        "ulimit -n " + n + " || exit " + EXIT_CODE + "; exec \"$@\"", "fairbench-nofile"));
    argv.addAll(command);
    return argv;
  }

  /** The wrapper's exit code when the limit cannot be set (the orchestrator's own hard limit is lower). */
  static final int EXIT_CODE = 124;
}
