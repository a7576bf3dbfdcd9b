package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.report.Comparison;
import dev.fairbench.orchestrator.report.html.CompareHtml;
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
    name = "compare",
    mixinStandardHelpOptions = true,
    header = "Compare two results files cell by cell: before, after, delta, and real or noise.",
    description = {
      "Cells (entry × variant × endpoint) are matched by name. A change is REAL when the two sets",
      "of runs do not overlap and the delta of the medians exceeds both twice the larger coefficient",
      "of variation and --min-change (5%% by default: two sessions of the same code differ by 2-3%%",
      "here even when their runs agree within 1%%); otherwise it is NOISE. A † marks a cell with a",
      "doubt (client-bound, errors, noisy, few runs). Markdown goes to stdout (or --output), HTML",
      "to --html.",
      "Exit 0 on success, 2 when a file is missing or is not a fairbench results file."
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BEFORE.json", description = "Results of the run before the change.")
  Path before;

  @Parameters(index = "1", paramLabel = "AFTER.json", description = "Results of the run after the change.")
  Path after;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the Markdown comparison to FILE instead of stdout.")
  Path output;

  @Option(names = "--html", paramLabel = "FILE", description = "Also write the comparison as a self-contained HTML file.")
  Path html;

  @Option(names = "--min-change", paramLabel = "PERCENT", defaultValue = "5",
      description = "Smallest change, in percent, that may be called real (default: ${DEFAULT-VALUE}).")
  double minChangePercent;

  @Override
  public Integer call() throws IOException {
    ResultsDocument b = ResultsFiles.read(before);
    ResultsDocument a = ResultsFiles.read(after);
    if (!(minChangePercent >= 0 && minChangePercent < 100)) {
      throw new UsageException("--min-change must be a percentage from 0 to 100, got " + minChangePercent);
    }
    Comparison comparison = Comparison.of(b, a, minChangePercent / 100);
    String markdown = comparison.toMarkdown();
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      ResultsFiles.write(output, markdown);
      spec.commandLine().getErr().println("Comparison: " + output);
    }
    if (html != null) {
      ResultsFiles.write(html, CompareHtml.render(comparison, before.toString(), after.toString()));
      spec.commandLine().getErr().println("HTML: " + html);
    }
    return ExitCodes.OK;
  }
}
