package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.discovery.EntryVariant;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Reads the facts of this machine and of the entries that go into the results. */
public final class EnvironmentProbe {
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);

  private EnvironmentProbe() {}

  public static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return System.getProperty("os.arch");
  }

  public static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }

  public static String kernel() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
    } catch (IOException e) {
      return System.getProperty("os.version");
    }
  }

  /** "v2" (unified), "v1" (with a v2 mount beside it: "v1 (hybrid)"), or "none". */
  public static String cgroupVersion() {
    Path root = Path.of("/sys/fs/cgroup");
    if (Files.exists(root.resolve("cgroup.controllers"))) {
      return "v2";
    }
    if (Files.isDirectory(root.resolve("memory")) || Files.isDirectory(root.resolve("cpuset"))) {
      return Files.exists(root.resolve("unified/cgroup.controllers")) ? "v1 (hybrid)" : "v1";
    }
    return "none";
  }

  public static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  public static String gitCommit(Path root) {
    return Commands.output(List.of("git", "-C", root.toString(), "rev-parse", "HEAD"), root, COMMAND_TIMEOUT)
        .map(String::trim).orElse("unknown");
  }

  /**
   * Whether tracked files other than the committed runs under results/ differ from the commit: the
   * code, entries and docs a run was made with. Moving or re-rendering a committed run changes no
   * figure a new run makes, and is not called a change of what made it.
   */
  public static boolean gitDirty(Path root) {
    return Commands.output(List.of("git", "--no-optional-locks", "-C", root.toString(), "status", "--porcelain",
            "--untracked-files=no", "--", ".", ":(exclude)results"),
        root, COMMAND_TIMEOUT).map(out -> !out.isBlank()).orElse(false);
  }

  /**
   * framework_version and the first output line of each [versions] command, run on this machine
   * in the entry folder: where a native server runs.
   */
  public static Map<String, String> versions(EntryVariant variant) {
    return versions(variant, command -> firstLine(Commands.output(command, variant.dir(), COMMAND_TIMEOUT))
        .orElse("unknown (`" + String.join(" ", command) + "` failed)"));
  }

  /**
   * framework_version and what {@code probe} records for each [versions] command (its first output
   * line where it ran, or why it is unknown), in the order of their names.
   */
  public static Map<String, String> versions(EntryVariant variant, Function<List<String>, String> probe) {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("framework", variant.frameworkVersion());
    variant.versionCommands().entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(command -> versions.put(command.getKey(), probe.apply(command.getValue())));
    return versions;
  }

  /** The first non-blank line of a command's output, trimmed. */
  public static Optional<String> firstLine(Optional<String> output) {
    return output.flatMap(o -> o.lines().filter(l -> !l.isBlank()).findFirst()).map(String::trim);
  }
}
