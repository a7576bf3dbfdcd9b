package dev.fairbench.orchestrator.config;

import java.nio.file.Path;

/**
 * Where the repository is. The launcher passes {@code -Dfairbench.root}; without it (an IDE, a
 * test) the working directory is taken as the root.
 */
public record FairbenchPaths(Path root) {
  public static final String ROOT_PROPERTY = "fairbench.root";

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
}
