package dev.fairbench.orchestrator.cli;

import com.fasterxml.jackson.core.JacksonException;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading a results file named on the command line, with usage errors instead of stack traces. */
final class ResultsFiles {
  private ResultsFiles() {}

  /** The results file named: the file itself, or the results.json in a run's output folder. */
  static Path resolve(Path named) {
    if (named.toString().isEmpty()) {
      throw new UsageException("an empty file name (two commas in a row, or a comma at the start?)");
    }
    if (Files.isDirectory(named)) {
      Path file = named.resolve("results.json");
      if (!Files.isRegularFile(file)) {
        throw new UsageException(named + " is a folder with no results.json in it");
      }
      return file;
    }
    if (!Files.isRegularFile(named)) {
      throw new UsageException("no such file: " + named);
    }
    return named;
  }

  /** A results file, or the one in a run's output folder. */
  static ResultsDocument read(Path named) throws IOException {
    Path file = resolve(named);
    ResultsDocument document;
    try {
      int schema = ResultsJson.mapper().readTree(file.toFile()).path("schemaVersion").asInt(0);
      if (schema == 0) {
        throw new UsageException(file + " is not a fairbench results file: it has no schemaVersion");
      }
      if (schema != ResultsDocument.SCHEMA_VERSION) {
        throw new UsageException(file + " has results schema " + schema + "; this fairbench reads schema "
            + ResultsDocument.SCHEMA_VERSION + (schema == 1 ? " (schema 1 was the sequential method, before shuffled "
            + "rounds: its figures cannot be compared with today's; re-measure)" : ""));
      }
      document = ResultsJson.read(file);
    } catch (JacksonException e) {
      throw new UsageException(file + " is not a fairbench results file: " + e.getOriginalMessage());
    }
    if (document.environment() == null) {
      throw new UsageException(file + " is not a fairbench results file: it has no environment block");
    }
    return document;
  }

  static void write(Path file, String content) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Files.writeString(file, content);
  }
}
