package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.MarkdownReport;
import dev.fairbench.orchestrator.report.RunsCsv;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.AtomicWrite;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Everything a run writes beside results.json. */
public final class Reports {
  private Reports() {}

  public record Written(Path markdown, Path html, Path fairness, Path csv) {}

  public static Written writeAll(ResultsDocument results, Path dir) throws IOException {
    Path report = dir.resolve("report.md");
    write(report, MarkdownReport.render(results));
    FairnessReview review = FairnessReview.of(results);
    Path fairness = dir.resolve("fairness.md");
    write(fairness, review.toMarkdown());
    Path html = dir.resolve("report.html");
    write(html, HtmlReport.render(results, review));
    Path csv = dir.resolve("runs.csv");
    write(csv, RunsCsv.render(results));
    return new Written(report, html, fairness, csv);
  }

  /** Through a temporary file: a run stopped mid-write keeps the previous report whole. */
  private static void write(Path file, String content) throws IOException {
    AtomicWrite.replace(file, "." + file.getFileName() + "-", ".tmp", temp -> Files.writeString(temp, content));
  }
}
