package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Renders a results document as Markdown: throughput table as in seed 000, then the details. */
public final class MarkdownReport {
  private static final Map<String, String> TITLES =
      Map.of("plaintext", "Plaintext", "json", "JSON", "user", "Params", "validate", "Validate (POST)");

  private MarkdownReport() {}

  public static String render(ResultsDocument document) {
    StringBuilder md = new StringBuilder();
    Environment env = document.environment();
    List<String> endpoints = endpoints(document);
    md.append("# fairbench results, ").append(env.timestamp()).append("\n\n");

    md.append("## Requests per second\n\n");
    md.append("Median of ").append(env.load().runs()).append(" runs of ").append(seconds(env.load().durationSeconds()))
        .append(" each, higher is better. Each server ran with WORKERS=").append(env.limits().workers())
        .append(" on CPU set ").append(env.limits().serverCpus()).append(".\n\n");
    List<EntryResult> measured = document.entries().stream().filter(e -> !e.cells().isEmpty()).toList();
    if (measured.isEmpty()) {
      md.append("No entry was measured.\n\n");
    } else {
      List<String> header = new ArrayList<>(List.of("Entry"));
      endpoints.forEach(e -> header.add(TITLES.getOrDefault(e, e)));
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : measured) {
        List<String> row = new ArrayList<>(List.of(entry.id() + " (" + entry.language() + ")"));
        for (String endpoint : endpoints) {
          row.add(cell(entry, endpoint).map(MarkdownReport::throughput).orElse("—"));
        }
        rows.add(row);
      }
      table(md, header, rows);
      md.append("Marks: ¹ client-bound (the load generator, not the server, was the limit), "
          + "² invalid (errors above 0.1%), ³ observed workers differ from WORKERS, ⁴ unstable (CV above 10%).\n\n");
    }

    if (!measured.isEmpty()) {
      md.append("## Per cell\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : measured) {
        for (CellResult cell : entry.cells()) {
          CellStats s = cell.stats();
          if (s == null) {
            rows.add(List.of(entry.id(), cell.endpoint(), "failed: " + cell.reason(), "", "", "", "", "", "", "", ""));
            continue;
          }
          rows.add(List.of(entry.id(), cell.endpoint(),
              String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f, CV %.1f%%)", s.medianRequestsPerSecond(),
                  s.minRequestsPerSecond(), s.maxRequestsPerSecond(), s.cv() * 100),
              String.format(Locale.ROOT, "%.1f", s.microsPerRequest()),
              String.format(Locale.ROOT, "%.1f", s.cpuMicrosPerRequest()),
              Long.toString(s.p50Micros()), Long.toString(s.p99Micros()),
              String.format(Locale.ROOT, "%.1f", s.peakRssBytes() / 1048576.0),
              String.format(Locale.ROOT, "%.0f%%", s.clientCpuUtilisation() * 100),
              workers(cell.workers()),
              cell.flags().isEmpty() ? "" : String.join(", ", cell.flags())));
        }
      }
      table(md, List.of("Entry", "Endpoint", "req/s median (min–max, CV)", "µs/req", "server CPU-µs/req", "p50 µs",
          "p99 µs", "peak RSS MiB", "wrk CPU", "workers seen", "flags"), rows);
      md.append("µs/req is 1e6 / median req/s. Server CPU-µs/req is the server's CPU time over the requests it served: "
          + "it stays comparable when the client is the limit. wrk CPU is the share of one core the load generator "
          + "used, per thread: at 90% or more the cell is client-bound.\n\n");
    }

    List<EntryResult> notMeasured = document.entries().stream().filter(e -> e.status().failed()).toList();
    if (!notMeasured.isEmpty()) {
      md.append("## Not measured, or not fully\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : notMeasured) {
        rows.add(List.of(entry.id(), entry.status().wireName(), entry.reason().replace("\n", " ")));
      }
      table(md, List.of("Entry", "Status", "Reason"), rows);
    }

    List<EntryResult> checked = document.entries().stream().filter(e -> e.conformance() != null).toList();
    if (!checked.isEmpty()) {
      md.append("## Conformance\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : checked) {
        var c = entry.conformance();
        List<String> notes = new ArrayList<>(c.failed().stream().map(f -> "FAIL " + f).toList());
        notes.addAll(c.warned().stream().map(w -> "WARN " + w).toList());
        rows.add(List.of(entry.id(), c.verdict(), c.pass() + " / " + c.warn() + " / " + c.fail(),
            String.join("; ", notes).replace("\n", " "), c.report()));
      }
      table(md, List.of("Entry", "Verdict", "PASS / WARN / FAIL", "Findings", "Report"), rows);
    }

    md.append("## Environment\n\n");
    var limits = env.limits();
    var load = env.load();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("CPU", env.cpuModel() + ", " + env.cores() + " cores"));
    rows.add(List.of("Kernel", env.kernel() + ", cgroup " + env.cgroupVersion()));
    rows.add(List.of("Runtime", env.runtime() + ", limits by " + env.limitsMode()
        + (env.limitsNote().isEmpty() ? "" : " (" + env.limitsNote() + ")")));
    rows.add(List.of("Server limits", "CPUs " + limits.serverCpus() + ", memory " + limits.memoryBytes() / 1048576
        + " MiB, WORKERS=" + limits.workers()));
    rows.add(List.of("Load", env.loadGenerator() + " on CPUs " + limits.clientCpus() + ", " + load.threads()
        + " thread(s), " + load.connections() + " connections, warmup " + seconds(load.warmupSeconds()) + ", "
        + load.runs() + " × " + seconds(load.durationSeconds())
        + (load.clientCeilingRequestsPerSecond() > 0
            ? String.format(Locale.ROOT, ", calibrated ceiling %,.0f req/s", load.clientCeilingRequestsPerSecond()) : "")));
    rows.add(List.of("Commit", env.gitCommit() + (env.gitDirty() ? " (with uncommitted changes)" : "")));
    rows.add(List.of("Java", env.javaVersion()));
    for (EntryResult entry : document.entries()) {
      if (!entry.versions().isEmpty()) {
        rows.add(List.of(entry.id(), entry.framework() + ": " + String.join(", ",
            entry.versions().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(v -> v.getKey() + " " + v.getValue()).toList())));
      }
    }
    table(md, List.of("", ""), rows);
    return md.toString();
  }

  private static List<String> endpoints(ResultsDocument document) {
    Set<String> endpoints = new LinkedHashSet<>(document.environment().endpoints());
    document.entries().forEach(e -> e.cells().forEach(c -> endpoints.add(c.endpoint())));
    return List.copyOf(endpoints);
  }

  private static Optional<CellResult> cell(EntryResult entry, String endpoint) {
    return entry.cells().stream().filter(c -> c.endpoint().equals(endpoint)).findFirst();
  }

  private static String throughput(CellResult cell) {
    if (cell.stats() == null) {
      return "failed";
    }
    StringBuilder marks = new StringBuilder();
    if (cell.flags().contains("client-bound")) {
      marks.append("¹");
    }
    if (cell.flags().contains("invalid")) {
      marks.append("²");
    }
    if (cell.flags().contains("workers-mismatch")) {
      marks.append("³");
    }
    if (cell.flags().contains("unstable")) {
      marks.append("⁴");
    }
    return String.format(Locale.ROOT, "%,.0f", cell.stats().medianRequestsPerSecond()) + marks;
  }

  private static String workers(WorkerObservation w) {
    if (w == null) {
      return "";
    }
    return w.observed() + " of " + w.requested() + " " + w.model() + " (" + w.processes() + " proc, "
        + w.listeningProcesses() + " listening, " + w.threads() + " threads)"
        + (w.busy().isEmpty() ? "" : "; busy: " + String.join(", ", w.busy()));
  }

  private static String seconds(double value) {
    return value == Math.rint(value) ? (long) value + " s" : String.format(Locale.ROOT, "%.1f s", value);
  }

  private static void table(StringBuilder md, List<String> header, List<List<String>> rows) {
    md.append("| ").append(String.join(" | ", header.stream().map(MarkdownReport::escape).toList())).append(" |\n");
    md.append("|").append("---|".repeat(header.size())).append("\n");
    for (List<String> row : rows) {
      md.append("| ").append(String.join(" | ", row.stream().map(MarkdownReport::escape).toList())).append(" |\n");
    }
    md.append("\n");
  }

  private static String escape(String cell) {
    return cell.replace("|", "\\|");
  }
}
