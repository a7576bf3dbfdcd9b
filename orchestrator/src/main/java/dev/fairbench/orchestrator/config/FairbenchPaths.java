package dev.fairbench.orchestrator.config;

import java.nio.file.Path;

/**
 * Where the repository is. The launcher passes {@code -Dfairbench.root}; without it (an IDE, a
 * test) the working directory is taken as the root.
 */
public record FairbenchPaths(Path root) {
  public static final String ROOT_PROPERTY = "fairbench.root";
  public static final String VERDICTS_PROPERTY = "fairbench.verdicts";

  public static FairbenchPaths detect() {
    String property = System.getProperty(ROOT_PROPERTY);
    Path root = property == null || property.isBlank() ? Path.of("") : Path.of(property);
    return new FairbenchPaths(root.toAbsolutePath().normalize());
  }

  public Path impls() {
    return root.resolve("impls");
  }

  public Path results() {
    return root.resolve("results");
  }

  /**
   * Where conformance verdicts are kept for reuse by content hash: {@code -Dfairbench.verdicts} (a folder, or
   * {@code none} to keep none: the build's tests run so, each run of theirs checking afresh), by default
   * .fairbench/verdicts/ of the checkout (ignored by git: a fresh clone starts without). Null for none.
   */
  public Path verdicts() {
    String property = System.getProperty(VERDICTS_PROPERTY);
    if (property == null || property.isBlank()) {
      return root.resolve(".fairbench").resolve("verdicts");
    }
    return property.equals("none") ? null : Path.of(property).toAbsolutePath().normalize();
  }
}
