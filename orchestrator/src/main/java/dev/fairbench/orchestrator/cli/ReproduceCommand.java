package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.config.RateSpec;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.events.ProgressPrinter;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.pipeline.RunSession;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    header = "Measure one cell of a results file again, with the settings and seed it recorded.",
    description = {
      "Reads RESULTS.json and runs ENTRY's ENDPOINT again: the same runtime, limits, load settings, rounds, "
          + "re-warm, seed, rates, pipelining and keep-alive, and the calibration server if the run had one. "
          + "The round orders differ from the original's, since fewer cells are shuffled; the seed is kept so a "
          + "second reproduction repeats the first. Compare the two with `fairbench compare`. "
          + "Warns when the checkout's commit differs from the recorded one.",
      "Exit codes as for `run`."
    })
public final class ReproduceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;

  @Parameters(index = "0", paramLabel = "RESULTS.json", description = "The results file to take the settings from, or its run folder.")
  Path results;

  @Parameters(index = "1", paramLabel = "ENTRY[:VARIANT]", description = "The entry, as its id in the file.")
  String entry;

  @Parameters(index = "2", paramLabel = "ENDPOINT", description = "plaintext, json, user or validate.")
  String endpoint;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Folder for the new results (default: results/reproduce-<time>/).")
  Path output;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    results = ResultsFiles.resolve(results);
    ResultsDocument recorded = ResultsFiles.read(results);
    if (recorded.method() == null) {
      throw new UsageException(results + " records no method block: it cannot be reproduced");
    }
    EntryResult original = recorded.measuredServers().stream().filter(e -> e.id().equals(entry)).findFirst()
        .orElseThrow(() -> new UsageException(results + " has no entry " + entry + "; it has: "
            + String.join(", ", recorded.measuredServers().stream().map(EntryResult::id).toList())));
    Endpoint chosen;
    try {
      chosen = Endpoint.parse(endpoint);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (original.cells().stream().noneMatch(c -> c.endpoint().equals(chosen.wireName()))) {
      throw new UsageException(entry + " has no " + chosen.wireName() + " cell in " + results);
    }
    Environment env = recorded.environment();
    FairbenchPaths paths = FairbenchPaths.detect();
    String commit = dev.fairbench.orchestrator.runtime.EnvironmentProbe.gitCommit(paths.root());
    if (!commit.equals(env.gitCommit())) {
      err.println("fairbench reproduce: note: the checkout is at " + commit + ", the results were made at "
          + env.gitCommit() + "; entries may have changed");
    }
    ResultsDocument.Method m = recorded.method();
    boolean hadCalibration = recorded.entries().stream().anyMatch(EntryResult::calibration);
    RunConfig config;
    try {
      config = new RunConfig(true, m.kind(), List.of(chosen), seconds(env.load().durationSeconds()),
          seconds(env.load().warmupSeconds()), seconds(m.rewarmSeconds()), m.rounds(), m.extraRounds(), Duration.ZERO, m.seed(),
          m.rates().stream().map(RateSpec::parse).toList(), env.load().connections(), env.load().threads(),
          seconds(env.load().timeoutSeconds()),
          new Limits(env.limits().serverCpus(), env.limits().clientCpus(), env.limits().memoryBytes(),
              env.limits().workers()),
          hadCalibration, m.disturbanceThreshold(), m.pipeline(), m.keepAlive(), original.acceptedFailures(), 0,
          List.of(), 1, false);
    } catch (IllegalArgumentException e) {
      throw new UsageException(results + " records settings this fairbench refuses: " + e.getMessage());
    }
    Path dir = output != null ? output : paths.results().resolve("reproduce-" + Converters.timestamp(Instant.now()));
    RunSession.Request request = new RunSession.Request(List.of(entry), impls.catalog(paths),
        paths.root().resolve("calibration"), Defaults.CALIBRATION, config, dir,
        logs -> LimitOptions.runtime(env.runtime(), logs),
        (now, runtime, client, loadGenerator, cfg) -> Sessions.environment(now, paths, runtime, client, loadGenerator, cfg),
        true);
    RunSession.Outcome outcome;
    try {
      outcome = RunSession.run(request, new ProgressPrinter(err), err);
    } catch (RunSession.MissingToolException e) {
      err.println("fairbench reproduce: " + e.getMessage());
      return ExitCodes.USAGE;
    } catch (RunSession.PreflightException e) {
      throw new UsageException(e.getMessage());
    }
    out.println("Results: " + outcome.resultsFile());
    out.println("Compare: ./fairbench compare " + results + " " + outcome.resultsFile());
    return outcome.failed() ? ExitCodes.FAILED : ExitCodes.OK;
  }

  private static Duration seconds(double value) {
    return Duration.ofMillis(Math.round(value * 1000));
  }
}
