package dev.fairbench.orchestrator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a results file named on the command line must hold before report, compare or reproduce read a
 * figure from it: the blocks they read, no null where an object or a list belongs, one entry per id
 * and one cell per name, and runs whose counts and rates could have been measured. A file that breaks
 * one of these is refused with the field named ({@code entries[2].cells[0].runs}), never rendered
 * with an entry counted twice or a negative rate in a median.
 */
final class ResultsCheck {
  /** More than this many requests a second on one server is no measurement (the fastest here make 10^5). */
  static final double MOST_REQUESTS_PER_SECOND = 1e9;

  /** The fields of a run every figure is derived from. */
  private static final List<String> RUN_FIGURES = List.of("round", "visit", "requests",
      "durationSeconds", "requestsPerSecond", "bytes", "non2xx", "serverCpuSeconds", "clientCpuSeconds");

  private ResultsCheck() {}

  /** A problem with one field of the file. */
  static final class Problem extends RuntimeException {
    final String field;

    Problem(String field, String message) {
      super(message);
      this.field = field;
    }
  }

  /** The shape of the file as JSON, before it is bound: blocks present, of the right kind. */
  static void shape(JsonNode root) {
    JsonNode environment = object(root, "environment", "environment");
    object(environment, "limits", "environment.limits");
    object(environment, "load", "environment.load");
    array(environment, "endpoints", "environment.endpoints");
    JsonNode method = object(root, "method", "method");
    // how every cell was measured, as the reports describe it: missing, each would be read as 0 or false
    text(method, "kind", "method.kind");
    for (String field : List.of("rounds", "seed", "pipeline")) {
      required(method, field, "method." + field, "a number", JsonNode::isNumber);
    }
    required(method, "keepAlive", "method.keepAlive", "true or false", JsonNode::isBoolean);
    JsonNode rounds = root.get("rounds");
    if (rounds != null && !rounds.isNull()) {
      array(root, "rounds", "rounds");
      for (int i = 0; i < rounds.size(); i++) {
        JsonNode round = element(rounds, i, "rounds");
        array(round, "order", "rounds[" + i + "].order");
      }
    }
    JsonNode calibration = root.get("calibration");
    if (calibration != null && !calibration.isNull()) {
      object(root, "calibration", "calibration");
      object(calibration, "requestsPerSecond", "calibration.requestsPerSecond");
      object(calibration, "cpuMicrosPerRequest", "calibration.cpuMicrosPerRequest");
    }
    JsonNode entries = array(root, "entries", "entries");
    for (int i = 0; i < entries.size(); i++) {
      String at = "entries[" + i + "]";
      JsonNode entry = element(entries, i, "entries");
      text(entry, "id", at + ".id");
      text(entry, "status", at + ".status");
      object(entry, "versions", at + ".versions");
      JsonNode cells = array(entry, "cells", at + ".cells");
      for (int j = 0; j < cells.size(); j++) {
        String cellAt = at + ".cells[" + j + "]";
        JsonNode cell = element(cells, j, at + ".cells");
        text(cell, "endpoint", cellAt + ".endpoint");
        text(cell, "status", cellAt + ".status");
        array(cell, "flags", cellAt + ".flags");
        JsonNode runs = array(cell, "runs", cellAt + ".runs");
        for (int k = 0; k < runs.size(); k++) {
          JsonNode run = element(runs, k, cellAt + ".runs");
          String runAt = cellAt + ".runs[" + k + "]";
          // what a median, an interval or a repeat is made of: missing, each would be read as 0 or false
          for (String field : RUN_FIGURES) {
            required(run, field, runAt + "." + field, "a number", ResultsCheck::isNumber);
          }
          required(run, "counted", runAt + ".counted", "true or false", JsonNode::isBoolean);
        }
      }
    }
  }

  /** What the bound document must hold for its figures to mean anything. */
  static void content(ResultsDocument document) {
    ResultsDocument.Method method = document.method();
    if (method.rounds() < 0) {
      throw new Problem("method.rounds", "negative (" + method.rounds() + ")");
    }
    if (method.extraRounds() < 0) {
      throw new Problem("method.extraRounds", "negative (" + method.extraRounds() + ")");
    }
    var environment = document.environment();
    if (environment.limits().workers() < 1) {
      throw new Problem("environment.limits.workers", "must be 1 or more, got " + environment.limits().workers());
    }
    if (environment.limits().memoryBytes() < 0) {
      throw new Problem("environment.limits.memoryBytes", "negative (" + environment.limits().memoryBytes() + ")");
    }
    if (environment.load().connections() < 0) {
      throw new Problem("environment.load.connections", "negative (" + environment.load().connections() + ")");
    }
    if (environment.load().threads() < 0) {
      throw new Problem("environment.load.threads", "negative (" + environment.load().threads() + ")");
    }
    figure(environment.load().durationSeconds(), "environment.load.durationSeconds");
    int lastRound = method.rounds() + method.extraRounds();
    Map<String, Integer> ids = new HashMap<>();
    int calibrationAt = -1;
    for (int i = 0; i < document.entries().size(); i++) {
      EntryResult entry = document.entries().get(i);
      String at = "entries[" + i + "]";
      if (entry.id().isBlank()) {
        throw new Problem(at + ".id", "empty");
      }
      if (entry.calibration()) {
        if (calibrationAt >= 0) {
          throw new Problem(at + ".role", "a second calibration server (entries[" + calibrationAt + "] too): every ratio "
              + "is to one calibration server, and the other would be shown as if it were it");
        }
        calibrationAt = i;
      }
      Integer first = ids.putIfAbsent(entry.id(), i);
      if (first != null) {
        throw new Problem(at + ".id", "\"" + entry.id() + "\" names two entries (entries[" + first + "] too): "
            + "its cells would be counted twice");
      }
      Map<String, Integer> names = new HashMap<>();
      for (int j = 0; j < entry.cells().size(); j++) {
        CellResult cell = entry.cells().get(j);
        String cellAt = at + ".cells[" + j + "]";
        try {
          Endpoint.parse(cell.endpoint());
        } catch (IllegalArgumentException e) {
          throw new Problem(cellAt + ".endpoint", e.getMessage());
        }
        Integer twin = names.putIfAbsent(cell.name() + " " + cell.kind().wireName(), j);
        if (twin != null) {
          throw new Problem(cellAt, "a second " + cell.name() + " cell of " + entry.id() + " (cells[" + twin
              + "] too): its runs would be counted twice");
        }
        if (cell.answerBytes() != null && cell.answerBytes() < 1) {
          throw new Problem(cellAt + ".answerBytes", "not the size of an answer (" + cell.answerBytes() + " bytes)");
        }
        for (int k = 0; k < cell.runs().size(); k++) {
          run(cell.runs().get(k), cellAt + ".runs[" + k + "]", lastRound);
        }
        if ((cell.status() == CellStatus.MEASURED || cell.status() == CellStatus.PARTIAL)
            && cell.countedRuns().isEmpty()) {
          throw new Problem(cellAt + ".runs", "the cell is " + cell.status().wireName() + " but has no counted run");
        }
        if (cell.stats() != null) {
          // null (read as NaN; older files hold "NaN") is how a derived figure says "none" (CPU per request of
          // runs without requests): allowed here.
          derived(cell.stats().medianRequestsPerSecond(), cellAt + ".stats.medianRequestsPerSecond");
          derived(cell.stats().cpuMicrosPerRequest(), cellAt + ".stats.cpuMicrosPerRequest");
        }
      }
    }
  }

  private static void run(RunRecord run, String at, int lastRound) {
    if (run.round() < 1 || run.round() > lastRound) {
      throw new Problem(at + ".round", "must be from 1 to " + lastRound + " (method.rounds and method.extraRounds), got "
          + run.round());
    }
    if (run.visit() != 1 && run.visit() != 2) {
      throw new Problem(at + ".visit", "must be 1 (the visit) or 2 (the repeat of a disturbed one), got " + run.visit());
    }
    if (run.requests() < 0) {
      throw new Problem(at + ".requests", "negative (" + run.requests() + ")");
    }
    figure(run.requestsPerSecond(), at + ".requestsPerSecond");
    if (run.requestsPerSecond() > MOST_REQUESTS_PER_SECOND) {
      throw new Problem(at + ".requestsPerSecond", String.format(java.util.Locale.ROOT,
          "%.3g is no measurement (more than %.0e requests a second)", run.requestsPerSecond(), MOST_REQUESTS_PER_SECOND));
    }
    count(run.non2xx(), at + ".non2xx");
    count(run.bytes(), at + ".bytes");
    if (run.socketErrors() != null) {
      count(run.socketErrors().connect(), at + ".socketErrors.connect");
      count(run.socketErrors().read(), at + ".socketErrors.read");
      count(run.socketErrors().write(), at + ".socketErrors.write");
      count(run.socketErrors().timeout(), at + ".socketErrors.timeout");
    }
    if (run.latencyMicros() != null) {
      count(run.latencyMicros().p50(), at + ".latencyMicros.p50");
      count(run.latencyMicros().p99(), at + ".latencyMicros.p99");
      count(run.latencyMicros().p999(), at + ".latencyMicros.p999");
    }
    figure(run.durationSeconds(), at + ".durationSeconds");
    figure(run.serverCpuSeconds(), at + ".serverCpuSeconds");
    figure(run.clientCpuSeconds(), at + ".clientCpuSeconds");
  }

  private static void derived(double value, String at) {
    if (Double.isInfinite(value) || value < 0) {
      throw new Problem(at, (value < 0 ? "negative" : "not a finite number") + " (" + value + ")");
    }
  }

  private static void count(long value, String at) {
    if (value < 0) {
      throw new Problem(at, "negative (" + value + ")");
    }
  }

  private static void figure(double value, String at) {
    if (!Double.isFinite(value)) {
      throw new Problem(at, "not a finite number (" + value + ")");
    }
    if (value < 0) {
      throw new Problem(at, "negative (" + value + ")");
    }
  }

  /** A number, or how Jackson writes one that is not finite ("NaN"): {@link #content} says what is wrong with it. */
  private static boolean isNumber(JsonNode node) {
    return node.isNumber() || node.isTextual() && List.of("NaN", "Infinity", "-Infinity").contains(node.asText());
  }

  private static JsonNode object(JsonNode parent, String name, String at) {
    return required(parent, name, at, "an object", JsonNode::isObject);
  }

  private static JsonNode array(JsonNode parent, String name, String at) {
    return required(parent, name, at, "a list", JsonNode::isArray);
  }

  private static void text(JsonNode parent, String name, String at) {
    required(parent, name, at, "a string", JsonNode::isTextual);
  }

  /** The field {@code name}, present, not null and of the kind {@code is} accepts. */
  private static JsonNode required(JsonNode parent, String name, String at, String kind,
      java.util.function.Predicate<JsonNode> is) {
    JsonNode node = parent.get(name);
    if (node == null || node.isNull()) {
      throw new Problem(at, node == null ? "missing" : "null where " + kind + " is required");
    }
    if (!is.test(node)) {
      throw new Problem(at, "must be " + kind + ", got " + kind(node));
    }
    return node;
  }

  private static JsonNode element(JsonNode array, int index, String at) {
    JsonNode node = array.get(index);
    if (!node.isObject()) {
      throw new Problem(at + "[" + index + "]", node.isNull() ? "null where an object is required"
          : "must be an object, got " + kind(node));
    }
    return node;
  }

  static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "a list";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL, MISSING -> "null";
      default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
