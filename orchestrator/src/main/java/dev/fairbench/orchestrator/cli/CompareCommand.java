package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.report.Comparison;
import dev.fairbench.orchestrator.report.html.CompareHtml;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    header = "Compare two results files (or two sets of runs) cell by cell: the change, its interval, and whether it is significant.",
    description = {
      "Cells (entry × variant × cell, same kind) are matched by name. Every run is first divided by its round's "
          + "effect (estimated from every cell of its run: the rounds are blocks), as in the run's own report. Per "
          + "cell: the change after ÷ before "
          + "(Hodges–Lehmann on the log scale, with its 95%% interval), a Mann–Whitney U test on the two sets of "
          + "runs, and Benjamini–Hochberg q-values over every tested cell, so the share of false alarms among the "
          + "significant cells stays at most --alpha; when the runs' recorded sources differ for some entries "
          + "(the change under test), the comparison says how many of the other cells, which should not have "
          + "moved, were called significant. Significant: q < --alpha and |change| ≥ --min-change; otherwise ~. "
          + "With 3 runs a side the test cannot reach p < 0.1: such cells say \"too few runs\".",
      "",
      "At the top: every difference between the two environments (CPU, cores, kernel, runtime, limits, load, "
          + "method, commit). --normalize calibration divides every run by the calibration server's median over its "
          + "run (that median's own error carried into every interval between two runs), which is how two machines "
          + "of one CPU model or two days are compared (between CPU models the ratios do not carry, and the top says "
          + "so); without it, a comparison across different environments says so at the top "
          + "and in every verdict. Files of two method versions are refused.",
      "",
      "Two runs also differ by a shift of each cell's own that no calibration divides out: its spread is "
          + "estimated from all the cells' changes (less what their intervals explain, from 8 cells on; read cell by "
          + "cell and as each entry's mean change, since an entry's endpoints move together, the larger kept) and "
          + "added to every cell's interval and test; the top says how large it was (docs/REPORTS.md).",
      "",
      "Several runs a side (BEFORE1.json,BEFORE2.json AFTER1.json,AFTER2.json): each cell is the geometric mean "
          + "of its runs' medians, and the spread between runs is estimated from the runs repeated on a side instead of "
          + "from the changes, so it does not assume that most cells stayed the same; every run a side narrows the "
          + "interval of a change by what the runs differ from one another.",
      "",
      "With --entries BEFORE,AFTER and one results file: two entries of the same run, cell by cell (an entry and "
          + "a changed copy of it, both folders under --impls). They were measured in the same rounds, so the "
          + "shifts between runs hours apart do not enter: this is how a change to one entry is best measured.",
      "",
      "Markdown goes to stdout (or --output), HTML to --html. Exit 0 on success, 2 when a file is missing, is not "
          + "a fairbench results file (the message names the field), the two cannot be compared, or an output cannot be "
          + "written or names a results file given."
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BEFORE.json[,BEFORE.json...]", split = ",",
      description = "Results of the run before the change (its results.json, or the folder holding it); several "
          + "runs of it separated by commas, each run once.")
  List<Path> before;

  @Parameters(index = "1", arity = "0..1", paramLabel = "AFTER.json[,AFTER.json...]", split = ",",
      description = "Results of the run after the change, likewise (not with --entries).")
  List<Path> after;

  @Option(names = "--entries", paramLabel = "BEFORE,AFTER", split = ",",
      description = "Compare two entries (ENTRY[:VARIANT]) of the one results file given.")
  List<String> entries;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the Markdown comparison to FILE instead of stdout.")
  Path output;

  @Option(names = "--html", paramLabel = "FILE", description = "Also write the comparison as a self-contained HTML file.")
  Path html;

  @Option(names = "--min-change", paramLabel = "PERCENT", defaultValue = "5",
      description = "Smallest change, in percent, that may be called significant (default: ${DEFAULT-VALUE}).")
  double minChangePercent;

  @Option(names = "--alpha", paramLabel = "RATE", defaultValue = "0.05",
      description = "False discovery rate of the Benjamini–Hochberg procedure (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--normalize", paramLabel = "WHAT", defaultValue = "none",
      description = "none (default): absolute figures; calibration: each run over its run's calibration server (its median).")
  String normalize;

  @Override
  public Integer call() throws IOException {
    if (entries != null && (entries.size() != 2 || after != null || before.size() != 1)) {
      throw new UsageException(entries.size() != 2
          ? "--entries takes two entries, BEFORE,AFTER; got " + String.join(",", entries)
          : "--entries compares two entries of ONE results file; give only " + before.get(0));
    }
    if (entries != null && entries.stream().anyMatch(String::isBlank)) {
      throw new UsageException("--entries has an empty name: give two entries, BEFORE,AFTER");
    }
    if (entries == null && after == null) {
      throw new UsageException("give two results files (BEFORE.json AFTER.json), or one with --entries BEFORE,AFTER");
    }
    List<Path> inputs = new ArrayList<>(before);
    if (after != null) {
      inputs.addAll(after);
    }
    java.util.Map<String, Path> outputs = new java.util.LinkedHashMap<>();
    outputs.put("--output", output);
    outputs.put("--html", html);
    ResultsFiles.checkOutputs(inputs.stream().filter(p -> !p.toString().isEmpty())
        .map(p -> Files.isDirectory(p) ? p.resolve("results.json") : p).toList(), outputs);
    List<ResultsDocument> b = new ArrayList<>();
    for (Path file : before) {
      b.add(ResultsFiles.read(file));
    }
    List<ResultsDocument> a = new ArrayList<>();
    for (Path file : entries == null ? after : List.<Path>of()) {
      a.add(ResultsFiles.read(file));
    }
    if (!(minChangePercent >= 0 && minChangePercent < 100)) {
      throw new UsageException("--min-change must be a percentage from 0 to 100, got " + minChangePercent);
    }
    if (!(alpha > 0 && alpha < 1)) {
      throw new UsageException("--alpha must be between 0 and 1, got " + alpha);
    }
    try {
      Comparison.Normalization.parse(normalize);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (entries == null && b.size() == 1 && a.size() == 1 && b.get(0).equals(a.get(0))) {
      // As with several runs a side: a run compared with itself (or a copy) would pass for two runs that agree.
      throw new UsageException("BEFORE and AFTER hold the same run: a run compared with itself shows no change "
          + "whatever changed; give a run made before and one made after (or --entries for two entries of one run)");
    }
    Comparison comparison;
    try {
      comparison = entries != null
          ? Comparison.withinRun(b.get(0), entries.get(0), entries.get(1), minChangePercent / 100, alpha,
              Comparison.Normalization.parse(normalize))
          : Comparison.of(b, a, minChangePercent / 100, alpha, Comparison.Normalization.parse(normalize));
    } catch (IllegalArgumentException | Comparison.IncomparableException e) {
      throw new UsageException(e.getMessage());
    }
    String markdown = comparison.toMarkdown();
    String page = html == null ? null : CompareHtml.render(comparison,
        entries == null ? joined(before) : before.get(0) + ": " + entries.get(0),
        entries == null ? joined(after) : before.get(0) + ": " + entries.get(1));
    if (output == null) {
      spec.commandLine().getOut().print(markdown);
      spec.commandLine().getOut().flush();
    } else {
      ResultsFiles.write("--output", output, markdown);
      spec.commandLine().getErr().println("Comparison: " + output);
    }
    if (html != null) {
      ResultsFiles.write("--html", html, page);
      spec.commandLine().getErr().println("HTML: " + html);
    }
    return ExitCodes.OK;
  }

  private static String joined(List<Path> files) {
    return String.join(", ", files.stream().map(Path::toString).toList());
  }
}
