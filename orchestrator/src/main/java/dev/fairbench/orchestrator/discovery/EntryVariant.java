package dev.fairbench.orchestrator.discovery;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One thing that can be started and benchmarked: an entry, or one named variant of it, with the
 * variant's overrides already applied.
 *
 * @param entry        the entry (folder) name
 * @param variant      the variant name, "default" for an entry without variants
 * @param dir          the entry folder; builds and starts run there
 * @param file         the manifest it came from, for messages
 * @param buildEnv     [build].env: set for every native build step and passed to the image build
 *                     as build arguments
 * @param startCommand [start].command, placeholders ({host}, {port}, {workers}) not yet
 *                     substituted: see {@link #startCommand(String, int, int)}
 * @param dockerUsesStartCommand [docker].use_start_command: the container runs the start command
 *                     instead of its image's CMD
 * @param test         the [test] table, empty when the entry has no tests of its own
 * @param baseline     kind = "baseline": the runtime's bare server, the bottom rung of the ladder
 * @param standsOn     [ladder].baseline: the id of the baseline a framework entry stands on; empty for none
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
    Map<String, String> buildEnv,
    Duration buildTimeout,
    List<String> startCommand,
    Map<String, String> startEnv,
    Duration readyTimeout,
    WorkersModel workersModel,
    String dockerfile,
    Map<String, String> dockerBuildArgs,
    boolean dockerUsesStartCommand,
    Optional<TestSpec> test,
    List<String> fairnessProduction,
    List<String> fairnessDepartures,
    boolean baseline,
    String standsOn) {

  public static final String DEFAULT_VARIANT = "default";

  /** The variant without [build].env, use_start_command or [test]: what older callers construct. */
  public EntryVariant(String entry, String variant, Path dir, Path file, String language, String framework,
      String frameworkVersion, String description, List<String> requires, Map<String, List<String>> versionCommands,
      List<String> availabilityProbe, List<List<String>> buildSteps, Duration buildTimeout, List<String> startCommand,
      Map<String, String> startEnv, Duration readyTimeout, WorkersModel workersModel, String dockerfile,
      Map<String, String> dockerBuildArgs, List<String> fairnessProduction, List<String> fairnessDepartures) {
    this(entry, variant, dir, file, language, framework, frameworkVersion, description, requires, versionCommands,
        availabilityProbe, buildSteps, Map.of(), buildTimeout, startCommand, startEnv, readyTimeout, workersModel,
        dockerfile, dockerBuildArgs, false, Optional.empty(), fairnessProduction, fairnessDepartures, false, "");
  }

  /** "entry" for the default variant, "entry:variant" otherwise: what the CLI accepts. */
  public String id() {
    return DEFAULT_VARIANT.equals(variant) ? entry : entry + ":" + variant;
  }

  /** The start command with {host}, {port} and {workers} replaced by these values. */
  public List<String> startCommand(String host, int port, int workers) {
    return Placeholders.substitute(startCommand, host, port, workers);
  }

  /**
   * The build arguments of the image build: [build].env (so native and image builds see the same
   * variables) and [docker].build_args. The reader refuses a name that is in both.
   */
  public Map<String, String> imageBuildArgs() {
    Map<String, String> args = new java.util.TreeMap<>(buildEnv);
    args.putAll(dockerBuildArgs);
    return Map.copyOf(args);
  }

  /**
   * An entry's own tests (docs/MANIFEST.md, [test]), run natively in the entry folder after the
   * build.
   *
   * @param setup            commands run before {@code command}, e.g. installing test-only packages
   * @param requires         tools the tests need beyond the entry's own {@code requires}
   * @param availabilityProbe run first; a non-zero exit makes the tests unavailable with its last line
   */
  public record TestSpec(
      List<String> command,
      List<List<String>> setup,
      List<String> requires,
      Map<String, String> env,
      Duration timeout,
      List<String> availabilityProbe) {}
}
