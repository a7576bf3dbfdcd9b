package dev.fairbench.orchestrator.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs short commands (build steps, probes, version commands) with a timeout, killing their tree on timeout. */
public final class Commands {
  private Commands() {}

  /** How a command ended. {@code exitCode} is -1 when it timed out or could not start. */
  public record Outcome(int exitCode, boolean timedOut, String startError) {
    public boolean succeeded() {
      return exitCode == 0 && !timedOut && startError == null;
    }

    public String describe(List<String> command, Duration timeout) {
      String shown = String.join(" ", command);
      if (startError != null) {
        return "`" + shown + "` could not start: " + startError;
      }
      if (timedOut) {
        return "`" + shown + "` timed out after " + timeout.toSeconds() + " s";
      }
      return "`" + shown + "` exited with " + exitCode;
    }
  }

  /** Runs the command in {@code dir}, appending its output to {@code log}. */
  public static Outcome run(List<String> command, Path dir, Map<String, String> env, Duration timeout, Path log)
      throws InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(env);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return new Outcome(-1, false, e.getMessage());
    }
    ServerRegistry.track(process);
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        killTree(process.toHandle());
        return new Outcome(-1, true, null);
      }
      return new Outcome(process.exitValue(), false, null);
    } catch (InterruptedException e) {
      killTree(process.toHandle());
      throw e;
    } finally {
      ServerRegistry.untrack(process);
    }
  }

  /** Runs the command and returns its output (stdout and stderr), or empty if it failed. */
  public static Optional<String> output(List<String> command, Path dir, Duration timeout) {
    try {
      Path out = Files.createTempFile("fairbench-cmd", ".out");
      try {
        Outcome outcome = run(command, dir, Map.of(), timeout, out);
        String text = Files.readString(out, StandardCharsets.UTF_8);
        return outcome.succeeded() ? Optional.of(text) : Optional.empty();
      } finally {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The last {@code lines} non-empty lines of a file. */
  public static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** Whether the tool is an executable on PATH (or an executable path). */
  public static boolean onPath(String tool) {
    if (tool.contains("/")) {
      return Files.isExecutable(Path.of(tool));
    }
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** SIGTERM to the process and its descendants, SIGKILL after a short grace. */
  static void killTree(ProcessHandle root) {
    List<ProcessHandle> all = new ArrayList<>();
    all.add(root);
    root.descendants().forEach(all::add);
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < deadline && all.stream().anyMatch(ProcessHandle::isAlive)) {
      sleep(50);
    }
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
