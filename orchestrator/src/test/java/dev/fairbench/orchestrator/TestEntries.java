package dev.fairbench.orchestrator;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

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

  public static boolean onPath(String tool) {
    return dev.fairbench.orchestrator.runtime.Commands.onPath(tool);
  }
}
