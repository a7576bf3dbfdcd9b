package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Where two results documents differ, field by field: what a results file holds against what its
 * recorded runs give when derived again. A figure edited by hand, or derived by an older fairbench
 * whose statistics have since changed, shows here. Numbers equal to 1e-9 relative are equal (a
 * double's JSON round trip).
 */
public final class Drift {
  private Drift() {}

  /** Paths such as {@code $.entries[3].cells[1].stats.medianRequestsPerSecond: 41200.0 → 40950.5}. */
  public static List<String> between(ResultsDocument stored, ResultsDocument derived) {
    List<String> out = new ArrayList<>();
    compare("$", ResultsJson.mapper().valueToTree(stored), ResultsJson.mapper().valueToTree(derived), out);
    return out;
  }

  private static void compare(String path, JsonNode stored, JsonNode derived, List<String> out) {
    if (stored.isObject() && derived.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      stored.fieldNames().forEachRemaining(names::add);
      derived.fieldNames().forEachRemaining(names::add);
      names.forEach(name -> compare(path + "." + name, stored.path(name), derived.path(name), out));
    } else if (stored.isArray() && derived.isArray() && stored.size() == derived.size()) {
      for (int i = 0; i < stored.size(); i++) {
        compare(path + "[" + i + "]", stored.get(i), derived.get(i), out);
      }
    } else if (stored.isNumber() && derived.isNumber()) {
      double s = stored.asDouble();
      if (Math.abs(s - derived.asDouble()) > 1e-9 * Math.max(1, Math.abs(s))) {
        out.add(path + ": " + stored + " → " + derived);
      }
    } else if (!stored.equals(derived)) {
      out.add(path + ": " + abbreviate(stored) + " → " + abbreviate(derived));
    }
  }

  private static String abbreviate(JsonNode node) {
    String s = node.toString();
    return s.length() > 120 ? s.substring(0, 120) + "…" : s;
  }
}
