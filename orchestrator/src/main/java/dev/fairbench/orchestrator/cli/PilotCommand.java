package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.events.ProgressPrinter;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.WrkLoadGenerator;
import dev.fairbench.orchestrator.pipeline.Pilot;
import dev.fairbench.orchestrator.runtime.EnvironmentProbe;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "pilot",
    mixinStandardHelpOptions = true,
    header = "Measure what the method rests on here: freeze bias, re-warm curves, variance components.",
    description = {
      "For each entry: visits of the server frozen-then-thawed against visits of it kept running idle for the "
          + "same time (interleaved, seeded); responses per 100 ms after a thaw and after an idle pause; and "
          + "the spread of back-to-back runs, of rounds of one process and of fresh processes. Writes "
          + "pilot.md (the tables docs/ORCHESTRATOR.md quotes) to --output. Takes about 3 minutes per entry.",
      "Exit 0 when every entry was measured, 1 when one could not start or be loaded, 2 for a usage error."
    })
public final class PilotCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Parameters(paramLabel = "ENTRY[:VARIANT]", arity = "1..*", description = "Entries to measure, e.g. a JVM, a Go and a Python one.")
  List<String> entries;

  @Option(names = "--endpoint", paramLabel = "NAME", defaultValue = "json", description = "Endpoint (default: ${DEFAULT-VALUE}).")
  String endpoint;

  @Option(names = "--pairs", paramLabel = "N", defaultValue = "6", description = "Frozen/kept-running pairs (default: ${DEFAULT-VALUE}).")
  int pairs;

  @Option(names = "--instances", paramLabel = "N", defaultValue = "3", description = "Fresh processes per entry (default: ${DEFAULT-VALUE}).")
  int instances;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the pairs' order (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--output", paramLabel = "DIR", description = "Folder for pilot.md and logs (default: results/pilot-<time>/).")
  Path output;

  @Override
  public Integer call() throws Exception {
    if (pairs < 3 || instances < 2) {
      throw new UsageException("--pairs must be at least 3 and --instances at least 2");
    }
    FairbenchPaths paths = FairbenchPaths.detect();
    Defaults.Profile profile = Defaults.forThisMachine();
    Endpoint chosen;
    try {
      chosen = Endpoint.parse(endpoint);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    EntryCatalog catalog = impls.catalog(paths);
    List<EntryVariant> variants = new ArrayList<>();
    try {
      for (Selection selection : catalog.select(entries)) {
        variants.add(selection.variant().orElseThrow(() -> new UsageException(
            selection.id() + ": manifest error: " + selection.manifestError().orElse("unknown"))));
      }
    } catch (UnknownEntryException e) {
      throw new UsageException(e.getMessage());
    }
    Path dir = (output != null ? output : paths.results().resolve("pilot-" + Converters.timestamp(Instant.now())))
        .toAbsolutePath().normalize();
    Files.createDirectories(dir);
    WrkLoadGenerator wrk;
    try {
      wrk = WrkLoadGenerator.create(limitOptions.limits(profile).clientCpus());
    } catch (LoadException e) {
      spec.commandLine().getErr().println("fairbench pilot: unavailable: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    ServerRuntime runtime = limitOptions.runtime(dir.resolve("logs"));
    var limits = limitOptions.limits(profile);
    Pilot pilot = new Pilot(runtime, wrk, limits, profile.connections(), chosen, Duration.ofSeconds(2),
        Duration.ofSeconds(3), new ProgressPrinter(spec.commandLine().getErr()));
    List<Pilot.Result> results;
    try {
      results = pilot.run(variants, pairs, instances, 3, seed);
    } catch (ServerStartException | LoadException e) {
      spec.commandLine().getErr().println("fairbench pilot: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    String context = String.format(java.util.Locale.ROOT,
        "Measured %s on %s (%d cores, kernel %s), %s runtime, server CPUs %s, client CPUs %s, WORKERS=%d, %s, "
            + "%d connections, runs of 2 s after 1 s of re-warm, idle pauses of 3 s, seed %d.",
        Instant.now(), EnvironmentProbe.cpuModel(), EnvironmentProbe.cores(), EnvironmentProbe.kernel(), runtime.name(),
        limits.serverCpus(), limits.clientCpus(), limits.workers(), chosen.path(), profile.connections(), seed);
    Path file = dir.resolve("pilot.md");
    Files.writeString(file, Pilot.toMarkdown(results, context));
    spec.commandLine().getOut().print(Pilot.toMarkdown(results, context));
    spec.commandLine().getOut().println("Pilot: " + file);
    return ExitCodes.OK;
  }
}
