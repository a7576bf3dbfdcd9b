package dev.fairbench.orchestrator.results;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.concurrent.ThreadLocalRandom;

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
   * The file gets the permissions a file written in place would have: those of the file it replaces, or
   * the process's default (its umask) for a new one.
   */
  public static void replace(Path target, String prefix, String suffix, Content content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = createBeside(dir, prefix, suffix);
    try {
      if (Files.exists(target) && Files.getFileAttributeView(target, PosixFileAttributeView.class) != null) {
        Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
      }
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

  /** Files.createTempFile would make it owner-only (0600): a results folder others could not read. */
  private static Path createBeside(Path dir, String prefix, String suffix) throws IOException {
    while (true) {
      Path temp = dir.resolve(prefix + Long.toUnsignedString(ThreadLocalRandom.current().nextLong()) + suffix);
      try {
        return Files.createFile(temp);
      } catch (FileAlreadyExistsException e) {
        // another name
      }
    }
  }
}
