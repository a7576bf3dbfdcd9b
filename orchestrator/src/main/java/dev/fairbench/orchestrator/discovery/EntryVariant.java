package dev.fairbench.orchestrator.discovery;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One thing that can be started and benchmarked: an entry, or one named variant of it, with the
 * variant's overrides already applied.
 *
 * @param entry   the entry (folder) name
 * @param variant the variant name, "default" for an entry without variants
 * @param dir     the entry folder; builds and starts run there
 * @param file    the manifest it came from, for messages
 */
public record EntryVariant(
    String entry,
    String variant,
    Path dir,
    Path file,
    String language,
    String framework,
    String frameworkVersion,
    String description,
    List<String> requires,
    Map<String, List<String>> versionCommands,
    List<String> availabilityProbe,
    List<List<String>> buildSteps,
    Duration buildTimeout,
    List<String> startCommand,
    Map<String, String> startEnv,
    Duration readyTimeout,
    WorkersModel workersModel,
    String dockerfile,
    Map<String, String> dockerBuildArgs,
    List<String> fairnessProduction,
    List<String> fairnessDepartures) {

  public static final String DEFAULT_VARIANT = "default";

  /** "entry" for the default variant, "entry:variant" otherwise: what the CLI accepts. */
  public String id() {
    return DEFAULT_VARIANT.equals(variant) ? entry : entry + ":" + variant;
  }
}
