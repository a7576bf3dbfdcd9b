package dev.fairbench.orchestrator.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
      if (Files.isDirectory(file)) {
        throw new UsageException(file + " is a folder, not a results file");
      }
      if (!Files.isRegularFile(file)) {
        throw new UsageException(named + " is a folder with no results.json in it");
      }
      return file;
    }
    if (!Files.isRegularFile(named)) {
      if (Files.isSymbolicLink(named)) {
        throw new UsageException(named + " is a symbolic link that leads to no file (a missing target, or a loop)");
      }
      if (Files.exists(named, LinkOption.NOFOLLOW_LINKS)) {
        throw new UsageException(named + " is not a regular file (a device, a pipe or a socket)");
      }
      throw new UsageException("no such file: " + named);
    }
    return named;
  }

  /**
   * A results file, or the one in a run's output folder. Every way it can be unusable is a usage error
   * naming the file and, where there is one, the field: not JSON, another schema or method, a block
   * missing or of the wrong kind, an entry or a cell given twice, a run no server could have made.
   */
  static ResultsDocument read(Path named) {
    Path file = resolve(named);
    ResultsDocument document;
    try {
      JsonNode root = ResultsJson.mapper().readTree(file.toFile());
      if (root == null || root.isMissingNode()) {
        throw new UsageException(file + " is not a fairbench results file: it is empty");
      }
      if (root.isObject() && (!root.has("schemaVersion") || root.get("schemaVersion").isNull())) {
        throw new UsageException(file + " is not a fairbench results file: it has no schemaVersion");
      }
      if (!root.isObject()) {
        throw new UsageException(file + " is not a fairbench results file: it holds " + ResultsCheck.kind(root)
            + ", not an object");
      }
      JsonNode version = root.get("schemaVersion");
      if (!version.isIntegralNumber()) {
        throw new UsageException(file + ": field `schemaVersion`: must be a whole number, got "
            + ResultsCheck.kind(version) + " " + version);
      }
      int schema = version.asInt();
      if (schema != ResultsDocument.SCHEMA_VERSION) {
        throw new UsageException(file + " has results schema " + schema + "; this fairbench reads schema "
            + ResultsDocument.SCHEMA_VERSION + (schema == 1 ? " (schema 1 was the sequential method, before shuffled "
            + "rounds: its figures cannot be compared with today's; re-measure)" : ""));
      }
      JsonNode method = root.path("methodVersion");
      if (!ResultsDocument.METHOD_VERSION.equals(method.asText(null))) {
        throw new UsageException(file + ": field `methodVersion`: " + (method.isMissingNode() || method.isNull()
            ? "missing" : method + " is not a method this fairbench knows")
            + " (it reads " + ResultsDocument.METHOD_VERSION + "; its figures would be read with another method's meaning)");
      }
      ResultsCheck.shape(root);
      document = ResultsJson.mapper().treeToValue(root, ResultsDocument.class);
      ResultsCheck.content(document);
    } catch (ResultsCheck.Problem p) {
      throw new UsageException(file + ": field `" + p.field + "`: " + p.getMessage());
    } catch (JsonMappingException e) {
      String at = path(e);
      throw new UsageException(file + (at.isEmpty() ? " is not a fairbench results file: " : ": field `" + at + "`: ")
          + problem(e));
    } catch (JacksonException e) {
      JsonLocation where = e.getLocation();
      throw new UsageException(file + " is not a fairbench results file: " + withoutSource(e.getOriginalMessage())
          + (where == null || where.getLineNr() < 1 ? "" : " (line " + where.getLineNr() + ", column "
              + where.getColumnNr() + ")"));
    } catch (IOException e) {
      throw new UsageException("cannot read " + file + ": " + (e.getMessage() == null ? e.getClass().getSimpleName()
          : e.getMessage()));
    }
    return document;
  }

  /**
   * Jackson's message without the "[Source: REDACTED (…); line: 1, column: 7]" it gives where a
   * bracket or brace opened: "starting at line 1, column 7" says the same to a reader.
   */
  static String withoutSource(String message) {
    return message == null ? "not JSON"
        : message.replaceAll("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
  }

  /** The field a mapping error is about, as entries[2].cells[0].runs. */
  private static String path(JsonMappingException e) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        out.append(out.isEmpty() ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  private static String problem(JsonMappingException e) {
    if (e.getCause() instanceof NullPointerException) {
      return "a value it needs is missing or null";
    }
    String message = e.getOriginalMessage();
    return message == null ? e.getClass().getSimpleName() : withoutSource(message).replace("\n", " ").lines().findFirst().orElse("");
  }

  /**
   * Before anything is written: no output is the results file being read (it would be replaced by the
   * report), a folder, or the file another option names (one would silently replace the other).
   *
   * @param inputs  the results files read
   * @param outputs option name to the file it names; null where the option was not given
   */
  static void checkOutputs(List<Path> inputs, Map<String, Path> outputs) {
    Map<Path, String> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Path> output : outputs.entrySet()) {
      Path file = output.getValue();
      if (file == null) {
        continue;
      }
      String option = output.getKey();
      if (file.toString().isEmpty()) {
        throw new UsageException(option + " names no file");
      }
      if (Files.isDirectory(file)) {
        throw new UsageException(option + " " + file + " is a folder; name a file in it");
      }
      for (Path input : inputs) {
        if (same(file, input)) {
          throw new UsageException(option + " " + file + " is the results file being read: it would be overwritten");
        }
      }
      Path key = canonical(file);
      String other = seen.putIfAbsent(key, option);
      if (other != null) {
        throw new UsageException(other + " and " + option + " both name " + file + ": one would overwrite the other");
      }
    }
  }

  /**
   * Writes a report file whole or not at all: into a temporary file beside it, renamed over it, so a
   * failure (disk full, a folder that cannot be written) leaves no half report that looks complete.
   * Something that is not a regular file (/dev/stdout, a pipe) is written directly. A failure is a
   * usage error naming the option and the file.
   */
  static void write(String option, Path file, String content) {
    try {
      Path target = Files.isSymbolicLink(file) && Files.exists(file) ? file.toRealPath() : file;
      if (Files.exists(target) && !Files.isRegularFile(target)) {
        Files.writeString(target, content);
        return;
      }
      dev.fairbench.orchestrator.results.AtomicWrite.replace(target, "." + target.getFileName() + "-", ".tmp",
          temp -> Files.writeString(temp, content));
    } catch (IOException e) {
      throw new UsageException("cannot write " + option + " " + file + ": " + describe(e));
    }
  }

  static String describe(IOException e) {
    if (e instanceof java.nio.file.FileSystemException f) {
      String where = f.getFile() == null || f.getFile().endsWith(".tmp") || f.getOtherFile() != null ? "" : f.getFile();
      if (f instanceof java.nio.file.AccessDeniedException) {
        return "permission denied" + (where.isEmpty() ? "" : ": " + where);
      }
      if (f instanceof java.nio.file.FileAlreadyExistsException) {
        return where + " is a file where a folder is needed";
      }
      if (f instanceof java.nio.file.NoSuchFileException) {
        return "no such file or folder" + (where.isEmpty() ? "" : ": " + where);
      }
      if (f.getReason() != null) {
        return f.getReason() + (where.isEmpty() ? "" : ": " + where);
      }
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static boolean same(Path a, Path b) {
    try {
      if (Files.exists(a) && Files.exists(b)) {
        return Files.isSameFile(a, b);
      }
    } catch (IOException e) {
      // fall back to the names
    }
    return canonical(a).equals(canonical(b));
  }

  private static Path canonical(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      return file.toAbsolutePath().normalize();
    }
  }
}
