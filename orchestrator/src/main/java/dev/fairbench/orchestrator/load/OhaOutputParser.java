package dev.fairbench.orchestrator.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the JSON oha prints with {@code --output-format json}. Times are in seconds there; we keep
 * microseconds like the wrk results. With no response at all oha writes null latencies.
 */
public final class OhaOutputParser {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OhaOutputParser() {}

  public static ConstantRateResult parse(String output) throws LoadException {
    JsonNode root;
    try {
      root = JSON.readTree(output);
    } catch (JsonProcessingException e) {
      throw new LoadException("oha's output is not JSON (" + e.getOriginalMessage() + "): " + abbreviate(output));
    }
    if (root == null || !root.isObject()) {
      throw new LoadException("oha printed no JSON object: " + abbreviate(output));
    }
    JsonNode summary = required(root, "summary");
    double total = number(summary, "total");

    Map<Integer, Long> statuses = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : required(root, "statusCodeDistribution").properties()) {
      try {
        statuses.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
      } catch (NumberFormatException ex) {
        throw new LoadException("oha reported a status code that is not a number: " + e.getKey());
      }
    }
    Map<String, Long> errors = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : required(root, "errorDistribution").properties()) {
      errors.merge(e.getKey(), e.getValue().asLong(), Long::sum);
    }

    ConstantRateResult.Latency latency = null;
    JsonNode percentiles = required(root, "latencyPercentiles");
    if (!summary.path("slowest").isNull() && !summary.path("slowest").isMissingNode()) {
      latency = new ConstantRateResult.Latency(micros(percentiles, "p50"), micros(percentiles, "p90"),
          micros(percentiles, "p99"), micros(percentiles, "p99.9"), micros(summary, "slowest"),
          micros(summary, "average"));
    }
    long bodyBytes = (long) number(summary, "totalData");
    if (bodyBytes < 0) {
      throw new LoadException("oha reported a negative totalData: " + bodyBytes);
    }
    return new ConstantRateResult(total, new TreeMap<>(statuses), new TreeMap<>(errors), latency, 0, 0, bodyBytes);
  }

  private static JsonNode required(JsonNode node, String field) throws LoadException {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new LoadException("oha's JSON lacks \"" + field + "\"; is this oha 1.x with --output-format json?");
    }
    return value;
  }

  private static double number(JsonNode node, String field) throws LoadException {
    JsonNode value = required(node, field);
    if (!value.isNumber()) {
      throw new LoadException("oha's JSON field \"" + field + "\" is not a number: " + value);
    }
    return value.asDouble();
  }

  private static long micros(JsonNode node, String field) throws LoadException {
    return Math.round(number(node, field) * 1e6);
  }

  private static String abbreviate(String output) {
    String flat = output.strip().replaceAll("\\s+", " ");
    return flat.isEmpty() ? "(nothing)" : flat.length() > 200 ? flat.substring(0, 200) + "..." : flat;
  }
}
