package dev.fairbench.reference;

import java.util.Map;

/** HOST, PORT and WORKERS from the environment (docs/SPEC.md 0.1, 0.2), with the manifest's defaults. */
record ServerSettings(String host, int port, int workers) {

  static final String DEFAULT_HOST = "0.0.0.0";
  static final int DEFAULT_PORT = 8080;
  static final int DEFAULT_WORKERS = 1;

  static ServerSettings fromEnvironment(Map<String, String> env) {
    String host = env.getOrDefault("HOST", "");
    return new ServerSettings(
        host.isBlank() ? DEFAULT_HOST : host.strip(),
        intSetting(env, "PORT", DEFAULT_PORT, 1, 65_535),
        intSetting(env, "WORKERS", DEFAULT_WORKERS, 1, 1_024));
  }

  private static int intSetting(Map<String, String> env, String name, int fallback, int min, int max) {
    String raw = env.get(name);
    if (raw == null || raw.isBlank()) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(raw.strip());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below with the accepted range
    }
    throw new IllegalArgumentException(
        "%s must be an integer from %d to %d, got '%s'".formatted(name, min, max, raw));
  }
}
