package dev.fairbench.orchestrator.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholders a start command may use (docs/MANIFEST.md): {host}, {port} and {workers},
 * replaced by the values fairbench also puts in HOST, PORT and WORKERS.
 */
public final class Placeholders {
  public static final Set<String> NAMES = Set.of("host", "port", "workers");

  /** Anything that looks like a placeholder: a lower-case word in braces. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  private Placeholders() {}

  public static List<String> substitute(List<String> argv, String host, int port, int workers) {
    Map<String, String> values = Map.of("host", host, "port", Integer.toString(port), "workers", Integer.toString(workers));
    List<String> out = new ArrayList<>(argv.size());
    for (String arg : argv) {
      Matcher m = PLACEHOLDER.matcher(arg);
      StringBuilder sb = new StringBuilder();
      while (m.find()) {
        String value = values.get(m.group(1));
        m.appendReplacement(sb, Matcher.quoteReplacement(value == null ? m.group() : value));
      }
      m.appendTail(sb);
      out.add(sb.toString());
    }
    return List.copyOf(out);
  }

  /** The first placeholder-like word in {@code arg} that is not a known placeholder, or null. */
  static String unknownIn(String arg) {
    Matcher m = PLACEHOLDER.matcher(arg);
    while (m.find()) {
      if (!NAMES.contains(m.group(1))) {
        return m.group();
      }
    }
    return null;
  }
}
