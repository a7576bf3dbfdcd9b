package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.report.RunsCsv;
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
      "The trust line, req/s per endpoint per entry (as in seed 000) with each median's 95%% interval, the",
      "calibration and baseline rows, ratios to the calibration, CPU per request, the constant-rate and",
      "ladder tables, start times and memory, per cell details, the rounds, what was not measured,",
      "conformance and the environment (docs/REPORTS.md). The fairness review's facts come from the",
      "results file, as the run recorded them.",
      "--rederive recomputes every statistic and flag from the recorded runs with this fairbench's",
      "statistics and writes them back to RESULTS.json first (the runs themselves are not changed);",
      "with --output, --html, --fairness and --csv it remakes a run folder's files after a change of fairbench.",
      "Exit 0 on success, 2 when the file is missing or is not a fairbench results file."
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "RESULTS.json", description = "A results file written by `fairbench run`, or its run folder.")
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

  @Option(names = "--csv", paramLabel = "FILE",
      description = "Also write every visit of every cell as CSV (the runs.csv a run writes beside its results).")
  Path csv;

  @Option(names = "--rederive", description = "Recompute the statistics and flags from the recorded runs, "
      + "write them back to RESULTS.json, then render.")
  boolean rederive;

  @Override
  public Integer call() throws IOException {
    results = ResultsFiles.resolve(results);
    ResultsDocument document = ResultsFiles.read(results);
    if (rederive) {
      document = dev.fairbench.orchestrator.pipeline.Derivation.derive(document);
      dev.fairbench.orchestrator.results.ResultsJson.write(document, results);
      spec.commandLine().getErr().println("Re-derived: " + results);
    }
    String markdown = MarkdownReport.render(document);
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      ResultsFiles.write(output, markdown);
      spec.commandLine().getErr().println("Report: " + output);
    }
    if (csv != null) {
      ResultsFiles.write(csv, RunsCsv.render(document));
      spec.commandLine().getErr().println("Runs: " + csv);
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
