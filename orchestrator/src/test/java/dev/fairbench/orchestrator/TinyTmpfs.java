package dev.fairbench.orchestrator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A tmpfs of a few KiB or MiB the test mounts itself: a disk that really fills up. Needs root. */
public final class TinyTmpfs implements AutoCloseable {
  private final Path dir;

  private TinyTmpfs(Path dir) {
    this.dir = dir;
  }

  /**
   * Mounts a tmpfs of {@code size} (mount's syntax: 1m, 256k) on the empty folder {@code dir}.
   *
   * @return why it cannot be mounted here, or null when it was
   */
  public static String mount(Path dir, String size, TinyTmpfs[] mounted) {
    String out = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", dir.toString()));
    if (out != null) {
      return "a tiny tmpfs needs root and mount(8): " + out;
    }
    mounted[0] = new TinyTmpfs(dir);
    return null;
  }

  public Path dir() {
    return dir;
  }

  @Override
  public void close() {
    run(List.of("umount", "-l", dir.toString()));
  }

  /** Null when the command succeeded, else what it said. */
  private static String run(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "`" + String.join(" ", command) + "` timed out";
      }
      return process.exitValue() == 0 ? null : "`" + String.join(" ", command) + "` exited with " + process.exitValue()
          + (output.isEmpty() ? "" : ": " + output);
    } catch (IOException e) {
      return e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
