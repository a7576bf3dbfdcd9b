package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.io.IOException;
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
    header = "Render a results.json as a Markdown report, and optionally as HTML and a fairness review.",
    description = {
      "Req/s per endpoint per entry (as in seed 000), then per cell: spread, µs/request,",
      "server CPU-µs/request, p50/p99, peak RSS, wrk CPU, observed workers and flags; entries not",
      "measured with their reason; conformance verdicts; the environment and limits.",
      "The fairness review's production-mode facts and departures from idiom come from the",
      "entries' manifests under impls/ (their [fairness] tables) as they are now.",
      "Exit 0 on success, 2 when the file is missing or is not a fairbench results file."
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "RESULTS.json", description = "A results file written by `fairbench run`.")
  Path results;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
  Path output;

  @Option(names = "--html", paramLabel = "FILE",
      description = "Also write the report as one self-contained HTML file: charts, marks, conformance, fairness review.")
  Path html;

  @Option(names = "--fairness", paramLabel = "FILE",
      description = "Also write the fairness review as Markdown: limits applied and observed, versions, production "
          + "mode, departures from idiom, conformance WARNs, run-quality warnings.")
  Path fairness;

  @Override
  public Integer call() throws IOException {
    ResultsDocument document = ResultsFiles.read(results);
    String markdown = MarkdownReport.render(document);
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      ResultsFiles.write(output, markdown);
      spec.commandLine().getErr().println("Report: " + output);
    }
    if (html != null || fairness != null) {
      FairnessReview review = FairnessReview.of(document);
      if (fairness != null) {
        ResultsFiles.write(fairness, review.toMarkdown());
        spec.commandLine().getErr().println("Fairness review: " + fairness);
      }
      if (html != null) {
        ResultsFiles.write(html, HtmlReport.render(document, review));
        spec.commandLine().getErr().println("HTML report: " + html);
      }
    }
    return ExitCodes.OK;
  }
}
