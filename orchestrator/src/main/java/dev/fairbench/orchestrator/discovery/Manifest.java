package dev.fairbench.orchestrator.discovery;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * One variant's view of an entry's {@code fairbench.toml} (docs/MANIFEST.md), after the
 * variant's tables were merged over the entry's. Field names are the TOML keys.
 */
public record Manifest(
    String name,
    String language,
    String framework,
    @JsonProperty("framework_version") String frameworkVersion,
    String description,
    List<String> requires,
    Map<String, List<String>> versions,
    Availability availability,
    Build build,
    Start start,
    Workers workers,
    Docker docker,
    Test test,
    Fairness fairness,
    String kind,
    Ladder ladder) {

  /** [ladder]: the baseline entry this framework stands on (seed 002's ladder). */
  public record Ladder(String baseline) {}

  public record Availability(List<String> probe) {}

  public record Build(
      List<List<String>> steps,
      Map<String, String> env,
      @JsonProperty("timeout_seconds") Integer timeoutSeconds) {}

  public record Start(
      List<String> command,
      Map<String, String> env,
      @JsonProperty("ready_timeout_seconds") Integer readyTimeoutSeconds) {}

  public record Workers(String model) {}

  public record Docker(
      String dockerfile,
      @JsonProperty("build_args") Map<String, String> buildArgs,
      @JsonProperty("use_start_command") Boolean useStartCommand) {}

  public record Test(
      List<String> command,
      List<List<String>> setup,
      List<String> requires,
      Map<String, String> env,
      @JsonProperty("timeout_seconds") Integer timeoutSeconds,
      Availability availability) {}

  public record Fairness(List<String> production, List<String> departures) {}
}
