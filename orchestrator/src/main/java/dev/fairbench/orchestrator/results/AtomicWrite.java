package dev.fairbench.orchestrator.results;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** A file written through a temporary file beside it, renamed over it: a reader never sees half a file. */
public final class AtomicWrite {
  private AtomicWrite() {}

  /** Writes the content of a file. */
  @FunctionalInterface
  public interface Content {
    void writeTo(Path file) throws IOException;
  }

  /**
   * Writes {@code content} to a temporary file named {@code prefix…suffix} in {@code target}'s folder
   * (made if missing), then renames it over {@code target}; the temporary file never outlives a failure.
   */
  public static void replace(Path target, String prefix, String suffix, Content content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, prefix, suffix);
    try {
      content.writeTo(temp);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
