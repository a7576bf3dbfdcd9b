package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Per entry, everything a fairness reviewer needs beside the numbers: limits applied and observed,
 * versions, production-mode facts, departures from idiom, conformance WARNs and run-quality doubts.
 *
 * @param extraRounds  the extra rounds after the rounds; null where the run made none
 * @param machineSpeed the machine's speed around the visits; null where none was read
 */
public record FairnessReview(Environment environment, ResultsDocument.Method method, ExtraRoundsDone extraRounds,
    List<String> breaks, List<EntryReview> entries, MachineSpeed machineSpeed) {

  public record EntryReview(
      String id,
      String framework,
      String status,
      String reason,
      Map<String, String> versions,
      String limitsApplied,
      String limitsReadBack,
      String workersObserved,
      WorkersCheck workersCheck,
      List<String> production,
      List<String> departures,
      String conformance,
      List<String> warnings,
      List<String> runQuality,
      List<String> acceptedFailures,
      String freeze,
      String ladder,
      String warmup,
      String runtime,
      String serverLog,
      boolean logsPerRequest) {}

  /** Whether the workers seen under load are those WORKERS asked for. */
  public enum WorkersCheck {
    MATCHES(" — matches", null),
    DOES_NOT_MATCH(" — **does not match**", "does not match"),
    /** Cells were measured, but no observation of the server's workers was recorded. */
    NOT_OBSERVED(" — **not observed**", "not observed"),
    /** Nothing was measured: there was nothing to observe, and nothing is in doubt. */
    NOTHING_MEASURED("", null);

    private final String markdownSuffix;
    private final String badge;

    WorkersCheck(String markdownSuffix, String badge) {
      this.markdownSuffix = markdownSuffix;
      this.badge = badge;
    }

    public String markdownSuffix() {
      return markdownSuffix;
    }

    /** The warning badge the HTML review shows, or null for none. */
    public String badge() {
      return badge;
    }

    static WorkersCheck of(WorkerObservation seen, EntryResult entry) {
      if (seen != null) {
        return seen.matches() ? MATCHES : DOES_NOT_MATCH;
      }
      return entry.cells().stream().anyMatch(CellResult::measured) ? NOT_OBSERVED : NOTHING_MEASURED;
    }
  }

  /** Where the entry stands on the ladder, and what differs between it and its baseline. */
  private static String ladder(EntryResult entry, ResultsDocument results) {
    if (entry.baseline()) {
      boolean narrowed = results.method() != null && results.method().baselineEndpoints() != null
          && entry.cells().stream().anyMatch(c -> c.kind() == CellKind.LADDER);
      return "a baseline: the runtime's bare server, the floor its frameworks are measured over" + (narrowed
          ? "; its throughput cells on " + String.join(", ", results.method().baselineEndpoints())
              + " only (--baseline-endpoints), beside its ladder cells"
          : "");
    }
    if (entry.standsOn().isEmpty()) {
      return "stands on no baseline";
    }
    StringBuilder text = new StringBuilder("stands on the baseline " + entry.standsOn());
    results.entries().stream().filter(e -> e.id().equals(entry.standsOn())).findFirst().ifPresentOrElse(base -> {
      if (base.cells().stream().noneMatch(CellResult::measured)) {
        text.append(" (").append(base.status().wireName()).append(" in this run: no overhead measured)");
        return;
      }
      List<String> differ = new ArrayList<>();
      entry.versions().forEach((key, value) -> {
        String other = base.versions().get(key);
        if (!key.equals("framework") && other != null && !other.equals(value)) {
          differ.add(key + " " + value + " vs " + other);
        }
      });
      entry.versions().keySet().stream().filter(k -> !k.equals("framework") && !base.versions().containsKey(k))
          .forEach(k -> differ.add(k + " " + entry.versions().get(k) + " (the baseline has none)"));
      if (!differ.isEmpty()) {
        text.append("; **it ran on other software than its baseline**: ").append(String.join("; ", differ))
            .append(" — the overhead includes that difference");
      }
    }, () -> text.append(" (not in this run: no overhead measured)"));
    return text.toString();
  }

  /**
   * Each cell's warm-up runs, and each later process's (--forks) on each endpoint; how far the first round of
   * each process fell from the cells' medians beside the round's effect on every cell: whether the entry began
   * its rounds warm. Empty where no warm-up was recorded.
   */
  static String warmup(EntryResult entry, ResultsDocument results) {
    List<CellResult> warmed = entry.cells().stream().filter(c -> !c.warmup().isEmpty()).toList();
    if (warmed.isEmpty()) {
      return "";
    }
    Environment.LoadSettings load = results.environment() == null ? null : results.environment().load();
    StringBuilder text = new StringBuilder();
    if (load != null) {
      text.append(load.warmupDescription()).append(", req/s: ");
    }
    List<String> cells = new ArrayList<>();
    for (CellResult cell : warmed) {
      boolean shareOfMax = cell.kind() == CellKind.RATE && cell.rate().endsWith("%");
      cells.add(cell.name() + " " + figures(cell.warmup()) + warmupEnd(cell.warmup(), shareOfMax, load));
    }
    text.append(String.join("; ", cells));
    List<EntryResult.ProcessStart> processes = entry.processes() == null ? List.of() : entry.processes();
    for (int p = 1; p < processes.size(); p++) {
      EntryResult.ProcessStart process = processes.get(p);
      if (process.warmup().isEmpty()) {
        continue;
      }
      List<String> endpoints = new ArrayList<>();
      process.warmup().forEach((endpoint, runs) -> endpoints.add(endpoint + " " + figures(runs)
          + warmupEnd(runs, false, load)));
      text.append(String.format(Locale.ROOT, "; process %d (from round %d): ", p + 1, process.firstRound()))
          .append(String.join("; ", endpoints));
    }
    List<String> firsts = new ArrayList<>();
    List<Integer> firstRounds = processes.size() > 1
        ? processes.stream().map(EntryResult.ProcessStart::firstRound).distinct().toList() : List.of(1);
    for (int first : firstRounds) {
      firstRoundAgainstMedians(entry, results, first).ifPresent(figure -> firsts.add((first == 1 ? "Round 1" : "round "
          + first) + figure));
    }
    if (!firsts.isEmpty()) {
      text.append(". ").append(String.join("; ", firsts));
    }
    return text.toString();
  }

  private static String figures(List<Double> runs) {
    return String.join(" → ", runs.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList());
  }

  /**
   * How far the entry's throughput runs of {@code round} fell from their cells' medians, the round's effect on
   * every cell taken out: the mean over its cells, as the text after the round's name.
   */
  private static Optional<String> firstRoundAgainstMedians(EntryResult entry, ResultsDocument results,
      int round) {
    // the round's effect is on the log scale: 0 a typical round, -0.05 every cell about 5% slower
    double effect = Math.exp(results.rounds().stream().filter(r -> r.index() == round).mapToDouble(r -> r.factor())
        .filter(Double::isFinite).findFirst().orElse(0));
    List<Double> shortfalls = new ArrayList<>();
    for (CellResult cell : entry.cells()) {
      if (cell.kind() != CellKind.THROUGHPUT || cell.stats() == null
          || !(cell.stats().medianRequestsPerSecond() > 0)) {
        continue;
      }
      cell.countedRuns().stream().filter(r -> r.round() == round).findFirst().ifPresent(r ->
          shortfalls.add(r.requestsPerSecond() / effect / cell.stats().medianRequestsPerSecond() - 1));
    }
    if (shortfalls.isEmpty()) {
      return Optional.empty();
    }
    double mean = shortfalls.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    return Optional.of(String.format(Locale.ROOT, "%s, its effect on every cell taken out: %.1f%% %s its "
        + "cells' medians (the mean over %d)", round == 1 ? "" : " (a fresh process's first)", Math.abs(mean) * 100,
        mean < 0 ? "below" : "above", shortfalls.size()));
  }

  /**
   * How a warm-up ended, where the rule it ran under did not end it: a server at full speed still rising at
   * the sixth run; a share-of-max rate's maximum, taken until two runs agree.
   */
  private static String warmupEnd(List<Double> runs, boolean shareOfMax, Environment.LoadSettings load) {
    if (load == null || load.warmupRise() == null || runs.size() < 2) {
      return "";
    }
    double last = runs.getLast();
    double before = runs.get(runs.size() - 2);
    double rise = load.warmupRise();
    if (shareOfMax) {
      String maximum = "the maximum its rate is a share of: ";
      return Math.abs(last - before) <= rise * Math.max(last, before)
          ? String.format(Locale.ROOT, " (%sruns until two agreed within %.0f%%)", maximum, rise * 100)
          : String.format(Locale.ROOT, " (**%sthe last two still more than %.0f%% apart**)", maximum, rise * 100);
    }
    return last > before * (1 + rise) ? " (**still rising at the last**)" : "";
  }

  private static String freeze(EntryResult entry) {
    EntryResult.FreezeSummary f = entry.freeze();
    return f == null ? "never frozen" : String.format(Locale.ROOT,
        "%d freezes by %s between visits; freeze median %.1f ms (max %.1f), thaw median %.1f ms (max %.1f)",
        f.freezes(), f.mechanism(), f.medianFreezeMillis(), f.maxFreezeMillis(), f.medianThawMillis(), f.maxThawMillis());
  }

  public static FairnessReview of(ResultsDocument results) {
    Environment env = results.environment();
    List<EntryReview> reviews = new ArrayList<>();
    for (EntryResult entry : results.entries()) {
      EntryResult.Facts fact = entry.facts();
      WorkerObservation seen = entry.cells().stream().map(CellResult::workers)
          .filter(w -> w != null).findFirst().orElse(null);
      List<String> runQuality = new ArrayList<>();
      for (CellResult cell : entry.cells()) {
        for (Quality.Doubt doubt : Quality.doubts(cell, env)) {
          runQuality.add(cell.name() + ": " + doubt.text());
        }
      }
      if (entry.cells().isEmpty()) {
        runQuality.add("no cell measured: the entry is " + entry.status().wireName());
      }
      ConformanceSummary conformance = entry.conformance();
      reviews.add(new EntryReview(
          entry.id(),
          entry.calibration() ? entry.framework() + " (calibration server: measured like an entry, never ranked)"
              : entry.baseline() ? entry.framework() + " (baseline: never ranked with the frameworks)" : entry.framework(),
          entry.status().wireName(),
          entry.reason() == null ? "" : entry.reason(),
          new LinkedHashMap<>(entry.versions()),
          limitsApplied(env, entry),
          readBack(entry),
          workersObserved(seen, entry, env),
          WorkersCheck.of(seen, entry),
          fact.production(),
          fact.departures(),
          conformance == null ? "not run" : String.format(Locale.ROOT, "%s (%d PASS, %d WARN, %d FAIL)%s",
              conformance.verdict().name(), conformance.pass(), conformance.warn(), conformance.fail(),
              conformance.reused() == null ? "" : "; reused from " + conformance.reused().describe()
                  + ", the suite not run again: the entry, suite, toolchain, runtime and limits hashed the same"),
          conformance == null ? List.of() : concat(conformance.warned(), conformance.failed()),
          runQuality, entry.acceptedFailures(), freeze(entry), ladder(entry, results), warmup(entry, results),
          entry.runtimeOr(env),
          serverLog(entry.serverLog()), entry.serverLog() != null && entry.serverLog().perRequest()));
    }
    return new FairnessReview(env, results.method(), ExtraRoundsDone.of(results).orElse(null), results.breaks(), reviews, MachineSpeed.of(results).orElse(null));
  }

  /** What the server logged during its measured runs; empty where it was not read. */
  static String serverLog(EntryResult.ServerLog log) {
    if (log == null) {
      return "";
    }
    String written = String.format(Locale.ROOT, "%s in %,d lines for %,d requests", StartupTable.mebibytes(log.bytes()),
        log.lines(), log.requests());
    if (!log.perRequest()) {
      return written + " — not a line a request";
    }
    return String.format(Locale.ROOT, "**%s (%.2f lines a request): an access log or debug output, which production "
        + "mode rules out (SPEC 0.3); its figures include that work**", written, log.linesPerRequest());
  }

  private static String workersObserved(WorkerObservation seen, EntryResult entry, Environment env) {
    if (seen != null) {
      return describe(seen);
    }
    if (entry.cells().stream().noneMatch(CellResult::measured)) {
      return "not observed (no cell was measured)";
    }
    return env != null && env.topology() != null && env.topology().serversRemote()
        ? "not observable remotely (the servers ran on a remote engine)" : "not observed";
  }

  /** The limits as read back, with the open-file limit (natively /proc/PID/limits, in Docker the container's). */
  static String readBack(EntryResult entry) {
    String text = entry.limitsReadBack();
    if (entry.openFiles() != null && !text.contains("nofile")) {
      text = (text.isBlank() ? "" : text + ", ") + "nofile=" + entry.openFiles().describe();
    }
    return text.isBlank() ? "not read back" : text + (entry.openFiles() == null ? "" : " (open files from "
        + entry.openFiles().source() + ")");
  }

  /**
   * The limits this entry's server got; in a run of two runtimes, with its own runtime's mechanism
   * and the open-file limit, which every server of both runtimes got alike.
   */
  static String limitsApplied(Environment env, EntryResult entry) {
    if (env == null || env.limits() == null || !env.mixedRuntimes()) {
      return limitsApplied(env);
    }
    Environment.LimitsRecord limits = env.limits();
    Environment.RuntimeUse use = env.runtimes().stream().filter(r -> r.servers().contains(entry.id())).findFirst()
        .orElse(env.runtimes().getFirst());
    return String.format(Locale.ROOT, "server CPUs %s, client CPUs %s, memory %d MiB, WORKERS=%d, open files %d:%d, "
            + "enforced by %s, %s runtime — the same limits as every server of the other runtime, read back and checked",
        limits.serverCpus(), limits.clientCpus(), limits.memoryBytes() >> 20, limits.workers(),
        dev.fairbench.orchestrator.config.Defaults.OPEN_FILES, dev.fairbench.orchestrator.config.Defaults.OPEN_FILES,
        use.limitsMode(), use.name());
  }

  static String limitsApplied(Environment env) {
    if (env == null || env.limits() == null) {
      return "unknown";
    }
    return env.limits().describe() + ", enforced by " + env.limitsMode() + ", " + env.runtime() + " runtime";
  }

  static String describe(WorkerObservation w) {
    return String.format(Locale.ROOT,
        "%d %s busy under load for WORKERS=%d (model %s; %d process(es), %d holding the listening socket, %d thread(s))",
        w.observed(), "processes".equals(w.model()) ? "process(es)" : "thread(s)", w.requested(), w.model(),
        w.processes(), w.listeningProcesses(), w.threads());
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a == null ? List.of() : a);
    if (b != null) all.addAll(b);
    return all;
  }

  public String toMarkdown() {
    StringBuilder md = new StringBuilder("# Fairness review\n\n");
    if (environment != null) {
      md.append("Limits every server got: ").append(limitsApplied(environment)).append(".  \n");
      md.append("Machine: ").append(MarkdownText.line(environment.cpuModel())).append(", ").append(environment.cores())
          .append(" cores, kernel ").append(environment.kernel()).append(", cgroup ").append(environment.cgroupVersion())
          .append(". Commit ").append(environment.gitCommit()).append(environment.gitDirty() ? " (with uncommitted changes)" : "")
          .append(".  \n");
      if (environment.topology() != null) {
        md.append("Topology: ").append(environment.topology().describe()).append(".  \n");
      }
      if (environment.mixedRuntimes()) {
        md.append("Runtimes: **this run mixed runtimes**, measured in the same shuffled rounds with every idle server "
            + "frozen (cgroup freezer natively, docker pause in Docker), so both saw the same noise: ")
            .append(environment.serversByRuntime()).append(". The calibration server ran in the default runtime (")
            .append(environment.runtime()).append("); every ratio to it is to that runtime's nginx. Every server of "
            + "both runtimes got the same limits (CPU set, memory, WORKERS, open files), each read back after its start "
            + "and checked equal (a server whose limits differed would not have been measured: limits-failed).  \n");
      }
      if (environment.engine() != null) {
        md.append("Docker engine applied to every container: ").append(environment.engine().describe()).append(".  \n");
      }
      if (environment.orchestratorPlacement() != null && !environment.orchestratorPlacement().isEmpty()) {
        md.append("Orchestrator while measuring: ").append(environment.orchestratorPlacement()).append(".  \n");
      }
      md.append('\n');
    }
    if (method != null) {
      md.append("Method: every entry and the calibration server kept running, frozen between visits, visited in ")
          .append(method.rounds()).append(" rounds in shuffled orders (seed ").append(method.seed())
          .append("), so drift and neighbours hit every entry alike.");
      if (extraRounds != null) {
        md.append(' ').append(extraRounds.describe());
      }
      if (machineSpeed != null) {
        md.append(' ').append(machineSpeed.describe());
      }
      if (!breaks.isEmpty()) {
        md.append(" **The run was resumed: ").append(String.join("; ", breaks)).append(".**");
      }
      md.append("\n\n");
    }
    for (EntryReview e : entries) {
      md.append("## ").append(MarkdownText.line(e.id())).append(" — ").append(MarkdownText.line(e.framework())).append("\n\n");
      md.append("- Status: ").append(e.status()).append(e.reason().isBlank() ? "" : " — " + MarkdownText.line(e.reason())).append('\n');
      md.append("- Versions: ");
      md.append(MarkdownText.line(String.join(", ", e.versions().entrySet().stream().map(v -> v.getKey() + " " + v.getValue()).toList()))).append('\n');
      if (environment != null && environment.mixedRuntimes()) {
        md.append("- Runtime: ").append(e.runtime()).append('\n');
      }
      md.append("- Limits applied: ").append(e.limitsApplied()).append('\n');
      md.append("- Limits read back: ").append(MarkdownText.line(e.limitsReadBack())).append('\n');
      md.append("- Workers observed: ").append(e.workersObserved()).append(e.workersCheck().markdownSuffix()).append('\n');
      md.append("- Production mode: ").append(e.production().isEmpty() ? "(the manifest states nothing)" : MarkdownText.line(String.join("; ", e.production()))).append('\n');
      if (!e.serverLog().isEmpty()) {
        md.append("- Server log during the measured runs: ").append(e.serverLog()).append('\n');
      }
      md.append("- Departures from idiom: ").append(e.departures().isEmpty() ? "none stated" : "").append('\n');
      e.departures().forEach(d -> md.append("  - ").append(MarkdownText.line(d)).append('\n'));
      md.append("- Conformance: ").append(MarkdownText.line(e.conformance())).append('\n');
      if (!e.acceptedFailures().isEmpty()) {
        md.append("  - **Measured although it FAILs clause(s) ").append(String.join(", ", e.acceptedFailures()))
            .append(" (run --accept-fail): every cell is marked non-conformant and not ranked with conformant entries**\n");
      }
      e.warnings().forEach(w -> md.append("  - ").append(MarkdownText.line(w)).append('\n'));
      md.append("- Between visits: ").append(e.freeze()).append('\n');
      md.append("- Ladder: ").append(e.ladder()).append('\n');
      if (!e.warmup().isEmpty()) {
        md.append("- Warm-up: ").append(e.warmup()).append('\n');
      }
      md.append("- Run quality: ").append(e.runQuality().isEmpty() ? "no doubt: every cell is trustworthy" : "").append('\n');
      e.runQuality().forEach(q -> md.append("  - ").append(MarkdownText.line(q)).append('\n'));
      md.append('\n');
    }
    return md.toString();
  }
}
