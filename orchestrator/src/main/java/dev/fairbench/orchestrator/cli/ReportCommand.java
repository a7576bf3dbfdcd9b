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
      "The trust line, req/s per endpoint per entry (as in seed 000) with each median's 95%% interval, the "
          + "calibration and baseline rows, ratios to the calibration, CPU per request, the constant-rate and "
          + "ladder tables, start times and memory, per cell details, the rounds, what was not measured, "
          + "conformance and the environment (docs/REPORTS.md). The fairness review's facts come from the results "
          + "file, as the run recorded them.",
      "",
      "--rederive recomputes every statistic and flag from the recorded runs with this fairbench's "
          + "statistics and writes them back to RESULTS.json first (the runs themselves are not changed); with "
          + "--output, --html, --fairness and --csv it remakes a run folder's files after a change of fairbench.",
      "",
      "Without it, a figure in the file that its recorded runs do not give (edited by hand, or derived by "
          + "an older fairbench) is pointed out on stderr, and the reports show the file's figures.",
      "",
      "Exit 0 on success, 2 when the file is missing or is not a fairbench results file (the message names "
          + "the field), or when an output cannot be written or names the results file itself."
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
    java.util.Map<String, Path> outputs = new java.util.LinkedHashMap<>();
    outputs.put("--output", output);
    outputs.put("--html", html);
    outputs.put("--fairness", fairness);
    outputs.put("--csv", csv);
    ResultsFiles.checkOutputs(java.util.List.of(results), outputs);
    ResultsDocument document = ResultsFiles.read(results);
    if (rederive) {
      document = dev.fairbench.orchestrator.pipeline.Derivation.derive(document);
      try {
        dev.fairbench.orchestrator.results.ResultsJson.write(document, results);
      } catch (IOException e) {
        throw new UsageException("--rederive cannot write the re-derived figures back to " + results + ": "
            + ResultsFiles.describe(e) + "; nothing was rendered");
      }
      spec.commandLine().getErr().println("Re-derived: " + results);
    } else {
      java.util.List<String> drift = dev.fairbench.orchestrator.results.Drift.between(document,
          dev.fairbench.orchestrator.pipeline.Derivation.derive(document));
      if (!drift.isEmpty()) {
        spec.commandLine().getErr().printf(java.util.Locale.ROOT, "warning: %d figure%s in %s differ%s from what its "
            + "recorded runs give (edited by hand, or derived by an older fairbench), e.g. %s; the reports show the "
            + "file's figures; `fairbench report --rederive` recomputes them from the runs%n", drift.size(),
            drift.size() == 1 ? "" : "s", results, drift.size() == 1 ? "s" : "", drift.get(0));
      }
    }
    // Everything is rendered before anything is written: a report that cannot be made leaves no file.
    String markdown = MarkdownReport.render(document);
    FairnessReview review = html != null || fairness != null ? FairnessReview.of(document) : null;
    String fairnessMarkdown = fairness != null ? review.toMarkdown() : null;
    String htmlReport = html != null ? HtmlReport.render(document, review) : null;
    String runs = csv != null ? RunsCsv.render(document) : null;
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      ResultsFiles.write("--output", output, markdown);
      spec.commandLine().getErr().println("Report: " + output);
    }
    if (csv != null) {
      ResultsFiles.write("--csv", csv, runs);
      spec.commandLine().getErr().println("Runs: " + csv);
    }
    if (fairness != null) {
      ResultsFiles.write("--fairness", fairness, fairnessMarkdown);
      spec.commandLine().getErr().println("Fairness review: " + fairness);
    }
    if (html != null) {
      ResultsFiles.write("--html", html, htmlReport);
      spec.commandLine().getErr().println("HTML report: " + html);
    }
    return ExitCodes.OK;
  }
}
