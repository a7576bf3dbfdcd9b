package dev.fairbench.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes a {@link SuiteReport} as a table for people and as JSON for tools (docs/CONFORMANCE.md). */
public final class ConformanceReports {
  /** The value of the JSON report's "format" field; bumped when the format changes incompatibly. */
  public static final String FORMAT = "fairbench-conformance/1";

  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private ConformanceReports() {}

  /**
   * One line per clause (clause, verdict, title), the findings of every WARN and FAIL clause
   * indented below it, and a summary line "N PASS, N WARN, N FAIL".
   */
  public static String table(SuiteReport report) {
    int idWidth = Math.max("clause".length(), report.clauses().stream().mapToInt(c -> c.id().length()).max().orElse(0));
    String row = "%-" + idWidth + "s  %-7s  %s%n";
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Conformance of %s (%.1f s)%n%n", report.target(), report.took().toMillis() / 1000.0));
    out.append(String.format(Locale.ROOT, row, "clause", "verdict", "title"));
    String indent = " ".repeat(idWidth + 2 + 7 + 2);
    for (ClauseResult clause : report.clauses()) {
      out.append(String.format(Locale.ROOT, row, clause.id(), clause.verdict(), clause.title()));
      if (clause.verdict() != Verdict.PASS) {
        for (String finding : clause.findings()) {
          out.append(indent).append("- ").append(finding).append(System.lineSeparator());
        }
      }
    }
    out.append(System.lineSeparator()).append(summary(report)).append(System.lineSeparator());
    return out.toString();
  }

  /** "N PASS, N WARN, N FAIL". */
  public static String summary(SuiteReport report) {
    return String.format(Locale.ROOT, "%d PASS, %d WARN, %d FAIL",
        report.withVerdict(Verdict.PASS).size(), report.withVerdict(Verdict.WARN).size(), report.withVerdict(Verdict.FAIL).size());
  }

  public static void writeJson(SuiteReport report, Path file) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("target", report.target().toString());
    root.put("startedAt", report.startedAt().toString());
    root.put("tookMillis", report.took().toMillis());
    root.put("overall", report.overall().name());
    ObjectNode counts = root.putObject("counts");
    for (Verdict verdict : Verdict.values()) {
      counts.put(verdict.name(), report.withVerdict(verdict).size());
    }
    ArrayNode clauses = root.putArray("clauses");
    for (ClauseResult clause : report.clauses()) {
      ObjectNode node = clauses.addObject();
      node.put("id", clause.id());
      node.put("title", clause.title());
      node.put("severity", clause.severity().name());
      node.put("verdict", clause.verdict().name());
      ArrayNode findings = node.putArray("findings");
      clause.findings().forEach(findings::add);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    JSON.writeValue(file.toFile(), root);
  }

  /** Reads a report written by {@link #writeJson}; a file in any other shape is an IOException saying why. */
  public static SuiteReport readJson(Path file) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException(file + " is not a JSON conformance report: " + e.getMessage(), e);
    }
    String format = text(file, root, "format");
    if (!FORMAT.equals(format)) {
      throw new IOException(file + ": unsupported report format \"" + format + "\", expected \"" + FORMAT + "\"");
    }
    try {
      List<ClauseResult> clauses = new ArrayList<>();
      JsonNode array = root.path("clauses");
      if (!array.isArray()) {
        throw new IOException(file + ": \"clauses\" must be an array");
      }
      for (JsonNode node : array) {
        List<String> findings = new ArrayList<>();
        node.path("findings").forEach(f -> findings.add(f.asText()));
        clauses.add(new ClauseResult(
            text(file, node, "id"),
            text(file, node, "title"),
            Severity.valueOf(text(file, node, "severity")),
            Verdict.valueOf(text(file, node, "verdict")),
            findings));
      }
      JsonNode took = root.path("tookMillis");
      if (!took.canConvertToLong()) {
        throw new IOException(file + ": \"tookMillis\" must be a number of milliseconds");
      }
      return new SuiteReport(URI.create(text(file, root, "target")), Instant.parse(text(file, root, "startedAt")),
          Duration.ofMillis(took.asLong()), clauses);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new IOException(file + ": invalid value in conformance report: " + e.getMessage(), e);
    }
  }

  private static String text(Path file, JsonNode node, String field) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IOException(file + ": missing text field \"" + field + "\"");
    }
    return value.asText();
  }
}
