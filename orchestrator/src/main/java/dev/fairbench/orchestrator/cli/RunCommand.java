package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.events.ProgressPrinter;
import dev.fairbench.orchestrator.load.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.WrkLoadGenerator;
import dev.fairbench.orchestrator.pipeline.BenchmarkRunner;
import dev.fairbench.orchestrator.report.EntryFacts;
import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Build, start, gate on conformance and benchmark entries; write results and a report.",
    description = {
      "For each entry (none given: every entry; unavailable ones are recorded with their reason):",
      "build it, start it on the server CPU set under the memory limit with WORKERS set, run the",
      "conformance suite (a FAIL means it is not benchmarked), then for each endpoint send one",
      "correctness request, warm up, and measure --runs runs with wrk pinned to the client CPU set.",
      "results.json is rewritten after every cell; report.md, report.html and fairness.md are",
      "written at the end. Progress goes to stderr. Defaults depend on the machine: on 2-3 cores",
      "the server gets CPU 1, wrk CPU 0. --runtime auto (default) means docker when an engine",
      "answers, native otherwise.",
      "Exit 0 when every selected entry was measured, 1 when one failed to build, start, pass",
      "conformance or be measured, 2 for a usage error."
    })
public final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Parameters(paramLabel = "ENTRY[:VARIANT]", arity = "0..*", description = "Entries to run; none means all.")
  List<String> entries = List.of();

  @Option(names = "--endpoints", paramLabel = "LIST", split = ",",
      description = "Endpoints to measure, comma-separated: plaintext, json, user, validate (default: all four).")
  List<String> endpoints = Defaults.ENDPOINTS;

  @Option(names = "--duration", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Length of each measured run, e.g. 5s (default: 5s on 2-3 cores, 10s from 4).")
  Duration duration;

  @Option(names = "--warmup", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "Warmup before the measured runs of each endpoint, 0 for none (default: 2s on 2-3 cores, 5s from 4).")
  Duration warmup;

  @Option(names = "--runs", paramLabel = "N", description = "Measured runs per endpoint (default: 3).")
  Integer runs;

  @Option(names = "--connections", paramLabel = "N",
      description = "Open connections of wrk (default: 64 on 2-3 cores, 128 from 4).")
  Integer connections;

  @Option(names = "--threads", paramLabel = "N", description = "wrk threads (default: 1 on 2-3 cores, 2 from 4).")
  Integer threads;

  @Option(names = "--client-ceiling", paramLabel = "REQ/S", defaultValue = "0",
      description = "Calibrated maximum req/s of wrk on this machine; a cell within 10%% of it is client-bound. "
          + "0 (default): unknown, judge by wrk's CPU only.")
  double clientCeiling;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Folder for results.json, report.md, conformance reports and logs (default: results/<time>/).")
  Path output;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FairbenchPaths paths = FairbenchPaths.detect();
    Defaults.Profile profile = Defaults.forThisMachine();
    RunConfig config;
    try {
      config = new RunConfig(true, endpoints.stream().map(String::trim).map(Endpoint::parse).distinct().toList(),
          duration == null ? profile.duration() : duration,
          warmup == null ? profile.warmup() : warmup,
          runs == null ? profile.runs() : runs,
          connections == null ? profile.connections() : connections,
          threads == null ? profile.threads() : threads,
          Defaults.REQUEST_TIMEOUT, limitOptions.limits(profile), clientCeiling);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }

    EntryCatalog catalog = impls.catalog(paths);
    List<Selection> selections;
    try {
      selections = catalog.select(entries);
    } catch (UnknownEntryException e) {
      throw new UsageException(e.getMessage());
    }
    if (selections.isEmpty()) {
      throw new UsageException("there are no entries under " + catalog.implsDir());
    }

    // Preflight: everything that can fail cheaply fails before any server starts.
    Instant now = Instant.now();
    Path dir = (output != null ? output : paths.results().resolve(Converters.timestamp(now))).toAbsolutePath().normalize();
    if (Files.exists(dir.resolve("results.json"))) {
      throw new UsageException(dir.resolve("results.json") + " already exists; choose another --output");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UsageException("cannot create the output folder " + dir + ": " + e.getMessage());
    }
    WrkLoadGenerator wrk;
    try {
      wrk = WrkLoadGenerator.create(config.limits().clientCpus());
    } catch (LoadException e) {
      throw new UsageException(e.getMessage());
    }
    ServerRuntime runtime = limitOptions.runtime(dir.resolve("logs"));
    ResultsDocument header = new ResultsDocument(ResultsDocument.SCHEMA_VERSION,
        Sessions.environment(now, paths, runtime, wrk.version(), config), List.of());
    err.printf("fairbench run: %d entr%s, endpoints %s, %d × %ds after %ds warmup; server CPUs %s (%s), wrk CPUs %s%n",
        selections.size(), selections.size() == 1 ? "y" : "ies", String.join(",", endpoints), config.runs(),
        config.duration().toSeconds(), config.warmup().toSeconds(), config.limits().serverCpus(), runtime.limitsMode(),
        config.limits().clientCpus());
    err.println("results: " + dir.resolve("results.json") + " (rewritten after every cell)");
    err.flush();

    Path resultsFile = dir.resolve("results.json");
    ResultsDocument results =
        new BenchmarkRunner(config, runtime, wrk, new ProgressPrinter(err), header, resultsFile).run(selections);
    ResultsJson.write(results, resultsFile);
    Path report = dir.resolve("report.md");
    Files.writeString(report, MarkdownReport.render(results));
    FairnessReview review = FairnessReview.of(results, EntryFacts.load(catalog.implsDir()));
    Path fairness = dir.resolve("fairness.md");
    Files.writeString(fairness, review.toMarkdown());
    Path html = dir.resolve("report.html");
    Files.writeString(html, HtmlReport.render(results, review));

    boolean failed = false;
    for (EntryResult entry : results.entries()) {
      boolean skipped = entries.isEmpty() && entry.status() == EntryStatus.UNAVAILABLE;
      failed |= entry.status().failed() && !skipped;
    }
    long measured = results.entries().stream().filter(e -> e.status() == EntryStatus.MEASURED).count();
    out.printf("Measured %d of %d entries.%n", measured, results.entries().size());
    out.println("Results: " + resultsFile);
    out.println("Report:  " + report + " (HTML: " + html + ")");
    out.println("Fairness review: " + fairness);
    out.flush();
    return failed ? ExitCodes.FAILED : ExitCodes.OK;
  }
}
