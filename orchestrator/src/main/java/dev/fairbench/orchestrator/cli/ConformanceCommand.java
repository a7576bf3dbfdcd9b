package dev.fairbench.orchestrator.cli;

import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.UnreachableServerException;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.events.ProgressPrinter;
import dev.fairbench.orchestrator.pipeline.RunSession;
import dev.fairbench.orchestrator.pipeline.VerdictStore;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
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
    name = "conformance",
    mixinStandardHelpOptions = true,
    header = "Run the conformance suite (docs/SPEC.md) against a server or against entries.",
    description = {
      "With --url: runs the suite against any running server and prints the clause table.",
      "",
      "With ENTRY[:VARIANT]... (or nothing: every available entry): builds and starts each entry natively "
          + "under the default limits, runs the suite, stops it, and prints a table per entry and a summary. JSON "
          + "reports go to --json (with --url) or to --output (with entries).",
      "",
      "A server is judged in seconds; one that answers so slowly that the suite is still running after "
          + "--time-limit (10 minutes) has every clause not yet judged FAIL as \"not judged: the suite's time limit "
          + "... had passed\". `fairbench run` judges every entry within the 10 minutes.",
      "",
      "Exit 0 when nothing FAILs, 1 when a clause FAILs or an entry cannot be built or started, 2 for a "
          + "usage error or an unreachable server."
    })
public final class ConformanceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Option(names = "--url", paramLabel = "URL", description = "Base URL of a running server, e.g. http://127.0.0.1:8080.")
  String url;

  @Option(names = "--json", paramLabel = "FILE",
      description = "With --url: where to write the JSON report (default: results/conformance-<host>-<port>-<time>.json).")
  Path json;

  @Option(names = "--output", paramLabel = "DIR",
      description = "With entries: folder for the reports and logs (default: results/conformance-<time>/).")
  Path output;

  @Option(names = "--time-limit", paramLabel = "TIME", converter = Converters.DurationConverter.class,
      description = "How long the suite may judge one server, counted from its first check: e.g. 30s, 20m. No check "
          + "begins after it, and every clause not yet judged FAILs, saying so (default: 10m).")
  Duration timeLimit = ConformanceSuite.TIME_LIMIT;

  @Parameters(paramLabel = "ENTRY[:VARIANT][@RUNTIME]", arity = "0..*",
      description = "Entries to check; none means every available entry. @native or @docker runs that one in "
          + "that runtime instead of --runtime's (its id then carries the suffix).")
  List<String> entries = List.of();

  @Override
  public Integer call() throws Exception {
    if (url != null && !entries.isEmpty()) {
      throw new UsageException("give either --url or entries, not both");
    }
    if (timeLimit.isZero()) {
      throw new UsageException("--time-limit must be more than 0; a healthy server is judged in seconds");
    }
    return url != null ? againstUrl() : againstEntries();
  }

  private int againstUrl() {
    if (output != null) {
      throw new UsageException("--output is for entries; with --url use --json FILE");
    }
    URI target = parseUrl(url);
    if (json != null && java.nio.file.Files.isDirectory(json)) {
      // Refused before the suite runs, not after it has run for nothing.
      throw new UsageException("--json " + json + " is a folder; name a file in it");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SuiteReport report;
    try {
      report = ConformanceSuite.run(target, timeLimit);
    } catch (UnreachableServerException e) {
      err.println("fairbench conformance: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Path file = json != null ? json : FairbenchPaths.detect().results().resolve(
        "conformance-" + target.getHost() + "-" + port(target) + "-" + Converters.timestamp(Instant.now()) + ".json");
    out.print(ConformanceReports.table(report));
    out.flush();
    try {
      ConformanceReports.writeJson(report, file);
    } catch (IOException e) {
      throw new UsageException("cannot write the JSON report to " + file + ": " + e.getMessage());
    }
    err.println("JSON report: " + file);
    return report.overall() == Verdict.FAIL ? ExitCodes.FAILED : ExitCodes.OK;
  }

  private int againstEntries() throws InterruptedException {
    if (json != null) {
      throw new UsageException("--json is for --url; with entries the reports go to --output DIR");
    }
    FairbenchPaths paths = FairbenchPaths.detect();
    EntryCatalog catalog = impls.catalog(paths);
    Defaults.Profile profile = Defaults.forThisMachine();
    RunConfig config = RunConfig.conformanceOnly(limitOptions.limits(profile), Defaults.REQUEST_TIMEOUT, timeLimit);
    Instant now = Instant.now();
    Path dir = (output != null ? output : paths.results().resolve("conformance-" + Converters.timestamp(now)))
        .toAbsolutePath().normalize();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProgressPrinter progress = new ProgressPrinter(err) {
      @Override
      public void conformanceFinished(String id, SuiteReport report, Path jsonReport) {
        super.conformanceFinished(id, report, jsonReport);
        out.println("== " + id + " ==");
        out.print(ConformanceReports.table(report));
        out.println();
        out.flush();
      }
    };
    RunSession.Request request = new RunSession.Request(entries, catalog, paths.root().resolve("calibration"),
        Defaults.CALIBRATION, config, dir, limitOptions::runtime,
        (at, runtime, client, loadGenerator, cfg) -> Sessions.environment(at, paths, runtime, client, loadGenerator, cfg),
        true)
        .withVerdicts(VerdictStore.at(paths.verdicts(), VerdictStore.Use.RECORD));
    ResultsDocument results;
    try {
      results = RunSession.run(request, progress, err).results();
    } catch (RunSession.PreflightException e) {
      throw new UsageException(e.getMessage());
    } catch (IOException e) {
      throw new UsageException(e.getMessage());
    }

    out.println("Summary:");
    boolean failed = false;
    for (EntryResult entry : results.entries()) {
      String verdict = entry.conformance() == null ? "" : " " + entry.conformance().verdict();
      boolean skipped = entries.isEmpty() && entry.status() == EntryStatus.UNAVAILABLE;
      failed |= entry.status().failed() && !skipped;
      out.printf("  %-28s %s%s%s%n", entry.id(), entry.status().wireName(), verdict,
          entry.reason().isEmpty() ? "" : " - " + entry.reason());
    }
    out.flush();
    err.println("Reports and logs: " + dir);
    return failed ? ExitCodes.FAILED : ExitCodes.OK;
  }

  static URI parseUrl(String value) {
    try {
      URI uri = new URI(value);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
        throw new UsageException("--url must be an absolute http:// URL such as http://127.0.0.1:8080, got \"" + value + "\"");
      }
      if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
        throw new UsageException("--url names port " + uri.getPort() + "; a port is from 1 to 65535");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new UsageException("--url is not a valid URL: " + e.getMessage());
    }
  }

  private static int port(URI uri) {
    return uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
  }
}
