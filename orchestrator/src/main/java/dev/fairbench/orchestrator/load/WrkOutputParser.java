package dev.fairbench.orchestrator.load;

import java.util.HashMap;
import java.util.Map;

/** Reads the line our wrk script's done() prints. */
public final class WrkOutputParser {
  static final String MARKER = "FAIRBENCH-RESULT ";

  private WrkOutputParser() {}

  /** @throws LoadException when the output has no result line, or a field is missing */
  public static LoadResult parse(String output) throws LoadException {
    String line = null;
    for (String candidate : output.split("\\R")) {
      if (candidate.startsWith(MARKER)) {
        line = candidate.substring(MARKER.length()).trim();
      }
    }
    if (line == null) {
      String shown = output.strip();
      throw new LoadException("wrk printed no result line"
          + (shown.isEmpty() ? "" : "; its output ended with: " + shown.substring(Math.max(0, shown.length() - 300))));
    }
    Map<String, String> fields = new HashMap<>();
    for (String pair : line.split("\\s+")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    try {
      LoadResult.Latency latency = new LoadResult.Latency(
          number(fields, "p50_us"), number(fields, "p90_us"), number(fields, "p99_us"), number(fields, "p999_us"),
          number(fields, "max_us"), mean(field(fields, "mean_us")));
      return new LoadResult(
          number(fields, "requests"), number(fields, "duration_us") / 1e6, number(fields, "bytes"),
          number(fields, "status"), number(fields, "connect"), number(fields, "read"), number(fields, "write"),
          number(fields, "timeout"), latency, 0, 0);
    } catch (NumberFormatException e) {
      throw new LoadException("wrk's result line has a malformed number: " + line);
    }
  }

  /** Lua prints the mean of zero requests as nan or -nan. */
  private static double mean(String value) {
    return value.toLowerCase(java.util.Locale.ROOT).contains("nan") ? 0 : Double.parseDouble(value);
  }

  private static long number(Map<String, String> fields, String name) throws LoadException {
    return Long.parseLong(field(fields, name));
  }

  private static String field(Map<String, String> fields, String name) throws LoadException {
    String value = fields.get(name);
    if (value == null) {
      throw new LoadException("wrk's result line lacks " + name);
    }
    return value;
  }
}
