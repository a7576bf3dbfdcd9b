package dev.fairbench.orchestrator;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The fixture entries under src/test/resources/impls, and the repository's own entries. */
public final class TestEntries {
  private TestEntries() {}

  /** The fixture entries, as copied to the test classpath. */
  public static Path impls() {
    try {
      return Path.of(TestEntries.class.getResource("/impls").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The repository root: fairbench.root as surefire sets it, else the parent of the module. */
  public static Path repositoryRoot() {
    String root = System.getProperty("fairbench.root");
    if (root != null && Files.isDirectory(Path.of(root, "impls"))) {
      return Path.of(root);
    }
    return Path.of("").toAbsolutePath().getParent();
  }

  /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** Copies {@code from} and everything under it to {@code to} (made if missing), replacing files there. */
  public static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  public static boolean onPath(String tool) {
    return dev.fairbench.orchestrator.runtime.Commands.onPath(tool);
  }
}
