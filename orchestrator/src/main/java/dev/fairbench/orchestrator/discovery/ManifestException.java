package dev.fairbench.orchestrator.discovery;

import java.nio.file.Path;

/** A manifest that cannot be used; the message names the file and the field. */
public class ManifestException extends Exception {
  private final Path file;
  private final String field;

  public ManifestException(Path file, String field, String problem) {
    super(file + ": " + (field == null || field.isEmpty() ? "" : "field `" + field + "`: ") + problem);
    this.file = file;
    this.field = field;
  }

  public Path file() {
    return file;
  }

  public String field() {
    return field;
  }
}
