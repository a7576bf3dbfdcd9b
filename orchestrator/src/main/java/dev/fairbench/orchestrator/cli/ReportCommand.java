package dev.fairbench.orchestrator.cli;

import com.fasterxml.jackson.core.JacksonException;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    header = "Render a results.json as a Markdown report.",
    description = {
      "Req/s per endpoint per entry (as in seed 000), then per cell: spread, µs/request,",
      "server CPU-µs/request, p50/p99, peak RSS, wrk CPU, observed workers and flags; entries not",
      "measured with their reason; conformance verdicts; the environment and limits.",
      "Exit 0 on success, 2 when the file is missing or is not a fairbench results file."
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "RESULTS.json", description = "A results file written by `fairbench run`.")
  Path results;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
  Path output;

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(results)) {
      throw new UsageException("no such file: " + results);
    }
    ResultsDocument document;
    try {
      document = ResultsJson.read(results);
    } catch (JacksonException e) {
      throw new UsageException(results + " is not a fairbench results file: " + e.getOriginalMessage());
    }
    if (document.environment() == null) {
      throw new UsageException(results + " is not a fairbench results file: it has no environment block");
    }
    String markdown = MarkdownReport.render(document);
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      Path parent = output.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(output, markdown);
      spec.commandLine().getErr().println("Report: " + output);
    }
    return ExitCodes.OK;
  }
}
