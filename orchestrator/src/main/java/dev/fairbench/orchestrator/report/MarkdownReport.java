package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CpuGauge;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.core.MedianIntervalKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ClientGauge;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsDocument.RoundRecord;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.stats.Interval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import dev.fairbench.orchestrator.config.RunConfig;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Renders a results document as Markdown: the trust line, throughput with its intervals (as in
 * seed 000, plus the calibration row), ratios to the calibration, CPU per request, the seed-001
 * table of rate cells, the rounds, then the details.
 */
public final class MarkdownReport {
  private static final Map<String, String> TITLES =
      Map.of("plaintext", "Plaintext", "json", "JSON", "user", "Params", "validate", "Validate (POST)");

  private MarkdownReport() {}

  public static String render(ResultsDocument document) {
    StringBuilder md = new StringBuilder();
    Environment env = document.environment();
    List<String> endpoints = endpoints(document);
    md.append("# fairbench results, ").append(env.timestamp()).append("\n\n");
    md.append(method(document)).append("\n\n");
    md.append(trustLine(document)).append("\n\n");

    List<EntryResult> conformant = document.rankedEntries().stream()
        .filter(e -> e.acceptedFailures().isEmpty() && hasCells(e, CellKind.THROUGHPUT)).toList();
    List<EntryResult> nonConformant = document.rankedEntries().stream()
        .filter(e -> !e.acceptedFailures().isEmpty() && !e.cells().isEmpty()).toList();
    Optional<EntryResult> calibration = document.entries().stream().filter(EntryResult::calibration)
        .filter(e -> !e.cells().isEmpty()).findFirst();
    List<EntryResult> baselines = document.entries().stream().filter(EntryResult::baseline)
        .filter(e -> hasCells(e, CellKind.THROUGHPUT)).toList();

    if (!conformant.isEmpty() || calibration.isPresent()) {
      md.append("## Requests per second\n\n");
      md.append("Median over the rounds, ± the half-width of its 95% confidence interval (" + intervalKind(document)
          + "), higher is better. Each server ran with WORKERS=").append(env.limits().workers())
          .append(" on CPU set ").append(env.limits().serverCpus())
          .append(". A figure marked ¹ is the load client's limit, not the server's: read its CPU-µs/request below.\n\n");
      throughputTable(md, conformant, baselines, calibration, endpoints, MarkdownReport::throughput);
      md.append(marks()).append("\n\n");
    }
    if (calibration.isPresent() && !conformant.isEmpty()) {
      md.append("## Against the calibration server\n\n");
      md.append("Each cell over the calibration server (").append(calibration.get().id())
          .append(") on the same endpoint in the same rounds: req/s ratio (higher is better) / CPU-µs-per-request "
              + "ratio (lower is better). Ratios, not absolute figures, are what compare puts side by side from two runs "
              + "on one CPU model (`fairbench compare --normalize calibration`); between CPU models they do not carry "
              + "(docs/ORCHESTRATOR.md, Calibration).\n\n");
      throughputTable(md, conformant, baselines, Optional.empty(), endpoints, MarkdownReport::ratios);
    }
    if (!conformant.isEmpty()) {
      md.append("## Server CPU per request\n\n");
      md.append("Server CPU-µs per request (median, ± its 95% interval), lower is better. It stays comparable when the "
          + "load client is the limit.\n\n");
      throughputTable(md, conformant, baselines, calibration, endpoints, MarkdownReport::cpu);
    }
    if (!nonConformant.isEmpty()) {
      md.append("## Non-conformant entries (measured with --accept-fail)\n\n");
      md.append("These entries FAIL conformance clauses and were measured anyway; they do not do the same work as the "
          + "others on those clauses and are not ranked with them.\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : nonConformant) {
        for (CellResult cell : entry.cells()) {
          rows.add(List.of(entry.id() + " ⁹", cell.name(), String.join(", ", entry.acceptedFailures()),
              cell.measured() ? throughput(cell) : "—", cell.measured() ? cpu(cell) : "—"));
        }
      }
      table(md, List.of("Entry", "Cell", "FAILed clauses", "req/s", "CPU-µs/req"), rows);
    }
    rateTable(md, document);
    md.append(Ladder.toMarkdown(Ladder.of(document), document.method() == null ? null : document.method().ladderRate()));
    if (!StartupTable.entries(document).isEmpty()) {
      md.append("## ").append(StartupTable.TITLE).append("\n\n");
      md.append(StartupTable.explanation(document)).append("\n\n");
      table(md, StartupTable.HEADER, StartupTable.rows(document));
    }

    List<EntryResult> measured = document.entries().stream().filter(e -> !e.cells().isEmpty()).toList();
    if (!measured.isEmpty()) {
      md.append("## Per cell\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (EntryResult entry : measured) {
        for (CellResult cell : entry.cells()) {
          CellStats s = cell.stats();
          String id = entry.id() + (entry.calibration() ? " (calibration)" : entry.baseline() ? " (baseline)" : "");
          if (s == null) {
            rows.add(List.of(id, cell.name(), cell.status().wireName() + ": " + cell.reason(), "", "", "", "", "", "",
                "", "", ""));
            continue;
          }
          rows.add(List.of(id, cell.name(),
              String.format(Locale.ROOT, "%,.0f %s (%,.0f–%,.0f, CV %.1f%%)", s.medianRequestsPerSecond(),
                  interval(s.requestsPerSecondInterval(), "%,.0f"), s.minRequestsPerSecond(), s.maxRequestsPerSecond(),
                  s.cv() * 100),
              number("%.2f", s.cpuMicrosPerRequest()) + " " + interval(s.cpuInterval(), "%.2f"),
              s.runs() + counted(cell),
              micros(s.p50Micros()), micros(s.p99Micros()),
              String.format(Locale.ROOT, "%.1f", s.peakRssBytes() / 1048576.0),
              String.format(Locale.ROOT, "%.0f%% / %.0f%%", s.clientCpuUtilisation() * 100, s.serverCpuUtilisation() * 100),
              workers(cell.workers()),
              Quality.trustworthy(cell) ? "yes" : "no",
              cell.flags().stream().map(Flag::wireName).collect(Collectors.joining(", "))));
        }
      }
      table(md, List.of("Entry", "Cell", "req/s median [95% CI] (min–max, CV)", "CPU-µs/req [95% CI]", "runs",
          "p50 µs", "p99 µs", "peak RSS MiB", "client / server CPU", "workers seen", "trustworthy", "flags"), rows);
      md.append("Runs counts the runs the statistics use; a disturbed visit that was repeated is listed as +N. "
          + "Client CPU is the share of one core per load-client thread; server CPU the share of the server's CPUs. "
          + "µs/req (1e6 / req/s) is in results.json."
          + (untimed(document) ? " A latency shown as — was not measured: a pipelined cell (wrk's figures for "
              + "pipelined requests are not a request's latency: docs/ORCHESTRATOR.md, \"Pipelining and new "
              + "connections\"), or runs that got no answer." : "")
          + "\n\n");
    }

    md.append(ProcessSplit.toMarkdown(document));
    if (!document.rounds().isEmpty()) {
      md.append("## Rounds\n\n");
      md.append("Seed ").append(document.method().seed()).append(": round r's order is the cells shuffled by "
          + "java.util.Random(seed + r). The round effect is the median polish of log req/s over every throughput cell "
          + "(0 = a typical round; −0.05 ≈ every cell 5% slower); the CPU probe is SHA-256 over 64 MiB on the server's "
          + "CPUs at the start of the round");
      // Runs made before the speed readings existed have none: no column of dashes, no sentence claiming them.
      boolean speed = MachineSpeed.of(document).isPresent();
      md.append(speed ? "; the speed around visits is SHA-256 over 16 MiB on the server's and the client's CPUs before "
          + "each thaw and after each freeze, MB/s, median (min–max) over the round." : ".");
      ExtraRoundsDone.of(document).ifPresent(extra -> md.append(' ').append(extra.describe()));
      md.append("\n\n");
      List<List<String>> rows = new ArrayList<>();
      // Most runs repeat every disturbed visit: no column of zeros for those.
      boolean unrepeated = UnrepeatedVisits.count(document) > 0;
      for (RoundRecord round : document.rounds()) {
        long repeats = round.order().stream().filter(o -> o.endsWith("(repeat)")).count();
        List<String> row = new ArrayList<>(List.of(ExtraRoundsDone.label(document, round),
            round.started() == null ? "" : round.started().toString(),
            Integer.toString(round.order().size()), Long.toString(repeats)));
        if (unrepeated) {
          row.add(Long.toString(UnrepeatedVisits.inRound(document, round.index())));
        }
        row.add(round.probe() == null ? "—" : String.format(Locale.ROOT, "%.0f MB/s", round.probe().megabytesPerSecond()));
        if (speed) {
          row.add(MachineSpeed.ofRound(document, round.index()).map(MachineSpeed::brief).orElse("—"));
        }
        row.add(String.format(Locale.ROOT, "%+.3f", round.factor()));
        rows.add(row);
      }
      List<String> header = new ArrayList<>(List.of("Round", "Started", "Visits", "Repeated (disturbed)"));
      if (unrepeated) {
        header.add("Disturbed, counted without a repeat (time limit)");
      }
      header.add("CPU probe");
      if (speed) {
        header.add("Speed around visits MB/s");
      }
      header.add("Round effect (log)");
      table(md, header, rows);
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
        rows.add(List.of(entry.id(), c.verdict().name() + (c.reused() == null ? "" : " (reused)"),
            c.pass() + " / " + c.warn() + " / " + c.fail(), String.join("; ", notes).replace("\n", " "),
            c.report() + (c.reused() == null ? "" : ", from " + c.reused().describe())));
      }
      table(md, List.of("Entry", "Verdict", "PASS / WARN / FAIL", "Findings", "Report"), rows);
      if (checked.stream().anyMatch(e -> e.conformance().reused() != null)) {
        md.append("A reused verdict is an earlier check's: the suite did not run again in this run, since the entry's "
            + "files, its toolchain, runtime and limits, and the suite itself hashed the same (`run --fresh-conformance` "
            + "runs it on every entry).\n\n");
      }
    }

    md.append("## Environment\n\n");
    table(md, List.of("", ""), environmentRows(document));
    return md.toString();
  }

  /** How the document's intervals were drawn, in the words of the report's tables. */
  private static String intervalKind(ResultsDocument document) {
    return document.intervalKind() == MedianIntervalKind.INTERPOLATED
        ? "from order statistics, interpolated between neighbouring ranks to cover 95%"
        : "distribution-free, from order statistics";
  }

  public static String method(ResultsDocument document) {
    Environment env = document.environment();
    ResultsDocument.Method m = document.method();
    if (m == null) {
      return "Method: unknown.";
    }
    return String.format(Locale.ROOT, "Method %s: %s cells, %d shuffled rounds (seed %d)%s%s of one %s run per cell%s after a %s "
            + "re-warm; idle servers frozen between visits; a visit with %.0f%% or more of the server CPUs' time taken "
            + "by others%s is repeated once%s. Load: %s, %d connections%s%s.",
        document.methodVersion(), m.kind().wireName(), m.rounds(), m.seed(),
        m.extraRounds() == 0 ? "" : " and up to " + m.extraRounds() + " extra rounds for the cells still too wide",
        processes(m), seconds(env.load().durationSeconds()),
        m.ladderDurationSeconds() == null || m.ladderDurationSeconds() == env.load().durationSeconds() ? ""
            : " (" + seconds(m.ladderDurationSeconds()) + " for ladder cells)",
        seconds(m.rewarmSeconds()), m.disturbanceThreshold() * 100,
        m.wakeupThreshold() == null ? "" : String.format(Locale.ROOT,
            ", or with cross-CPU wake-ups below %.0f%% of the run's usual rate just before or after it,",
            m.wakeupThreshold() * 100),
        UnrepeatedVisits.clause(document)
            + (m.spellWaitSeconds() == null ? "" : String.format(Locale.ROOT,
                "; a visit whose wake-ups read slow just before its thaw first waits up to %.0f s for them to read usual",
                m.spellWaitSeconds())),
        env.loadGenerator(), env.load().connections(),
        m.pipeline() > 1 ? ", pipelined ×" + m.pipeline() : "", m.keepAlive() ? "" : ", a new connection per request")
        + gauge(document) + baselines(m) + heldRates(m);
  }

  /** How a constant-rate run's CPU-µs/request was read against its load client's; empty without the gauge or such cells. */
  static String gauge(ResultsDocument document) {
    ResultsDocument.Method m = document.method();
    boolean constantRate = document.entries().stream().flatMap(e -> e.cells().stream())
        .anyMatch(c -> c.kind().constantRate() && !c.countedRuns().isEmpty());
    if (m == null || m.cpuGauge() != CpuGauge.CLIENT || !constantRate) {
      return "";
    }
    ClientGauge gauge = ClientGauge.of(document);
    if (!gauge.active()) {
      return " Constant-rate runs were to be read against the load client's own CPU per request; "
          + (gauge.cells() < 3 ? "fewer than 3 of those cells had 6 runs" : "their runs showed no common slope")
          + ", so each is divided by its round's effect.";
    }
    return String.format(Locale.ROOT, " A constant-rate run's CPU-µs/request is divided by its load client's own CPU per "
        + "request in that run ÷ its cell's median, to the power %.2f (the slope over %d cells' %d runs), instead of by "
        + "its round's effect.", gauge.slope(), gauge.cells(), gauge.runs());
  }

  /** Which endpoints a baseline with a ladder had throughput cells on, when not every one; empty otherwise. */
  static String baselines(ResultsDocument.Method m) {
    return m.baselineEndpoints() == null ? "" : " A baseline with a framework on it in this run was measured in "
        + "throughput cells on " + String.join(", ", m.baselineEndpoints()) + " only (--baseline-endpoints): its ladder "
        + "cells are what it is there for.";
  }

  /** Whose ladder rates this run held, when it held any; empty otherwise. */
  static String heldRates(ResultsDocument.Method m) {
    return m.ladderRatesFrom() == null ? "" : String.format(Locale.ROOT, " Each ladder ran at the rate it ran at in %s "
        + "(--ladder-rates-from) where that was at most %.0f%% of its slowest rung's maximum here, else at its own rate "
        + "(the ladder table gives each rate).", m.ladderRatesFrom(),
        100 * dev.fairbench.orchestrator.config.HeldLadderRates.HOLDABLE_SHARE);
  }

  /** ", measured by 2 processes of each server in turn (rounds 1–4, 5–9 and the extra ones)"; empty for one. */
  static String processes(ResultsDocument.Method m) {
    if (m.forks() == null || m.forks() < 2) {
      return "";
    }
    List<String> blocks = new java.util.ArrayList<>();
    for (int fork = 1; fork <= m.forks(); fork++) {
      int first = RunConfig.firstRoundOf(fork, m.rounds(), m.forks());
      int last = fork == m.forks() ? m.rounds() : RunConfig.firstRoundOf(fork + 1, m.rounds(), m.forks()) - 1;
      blocks.add(first == last ? String.valueOf(first) : first + "–" + last);
    }
    return ", measured by " + m.forks() + " processes of each server in turn, each started afresh (rounds "
        + String.join(", ", blocks) + (m.extraRounds() > 0 ? " and the extra ones" : "") + ")";
  }

  /** "N of M entry cells trustworthy", the figure a reviewer reads first. */
  public static String trustLine(ResultsDocument document) {
    List<CellResult> cells = document.measuredServers().stream().flatMap(e -> e.cells().stream()).toList();
    long trustworthy = cells.stream().filter(Quality::trustworthy).count();
    long clientBound = cells.stream().filter(c -> c.flags().contains(Flag.CLIENT_BOUND)).count();
    return String.format(Locale.ROOT, "**Trustworthy: %d of %d entry cells** (entries and baselines; 95%% interval within ±%.0f%% of the median, "
            + "not invalid, saturated, workers-mismatched, non-conformant or answering otherwise under load; %d "
            + "client-bound cell(s) judged on "
            + "CPU-µs/request).", trustworthy, cells.size(), Quality.THRESHOLDS.intervalHalfWidth() * 100, clientBound);
  }

  private static void throughputTable(StringBuilder md, List<EntryResult> entries, List<EntryResult> baselines,
      Optional<EntryResult> calibration, List<String> endpoints, Function<CellResult, String> format) {
    List<String> header = new ArrayList<>(List.of("Entry"));
    endpoints.forEach(e -> header.add(TITLES.getOrDefault(e, e)));
    List<List<String>> rows = new ArrayList<>();
    for (EntryResult entry : entries) {
      rows.add(row(entry.id() + " (" + entry.language() + ")", entry, endpoints, format));
    }
    for (EntryResult baseline : baselines) {
      rows.add(row(baseline.id() + " — baseline, not ranked", baseline, endpoints, format));
    }
    calibration.ifPresent(c -> rows.add(row(c.id() + " — calibration, not ranked", c, endpoints, format)));
    table(md, header, rows);
  }

  private static List<String> row(String label, EntryResult entry, List<String> endpoints,
      Function<CellResult, String> format) {
    List<String> row = new ArrayList<>(List.of(label));
    for (String endpoint : endpoints) {
      row.add(entry.cells().stream().filter(c -> c.kind() == CellKind.THROUGHPUT && c.endpoint().equals(endpoint))
          .findFirst().map(c -> c.measured() ? format.apply(c) : c.status().wireName()).orElse("—"));
    }
    return row;
  }

  private static void rateTable(StringBuilder md, ResultsDocument document) {
    List<List<String>> rows = new ArrayList<>();
    // A soak's column: the RSS slope, shown once some rate cell has a window long enough to judge.
    boolean slopes = document.entries().stream().flatMap(e -> e.cells().stream())
        .anyMatch(c -> c.kind() == CellKind.RATE && Quality.hasRssSlope(c));
    for (EntryResult entry : document.entries()) {
      for (CellResult cell : entry.cells()) {
        if (cell.kind() != CellKind.RATE) {
          continue;
        }
        CellStats s = cell.stats();
        if (s == null || s.rate() == null) {
          List<String> row = new ArrayList<>(List.of(entry.id(), cell.name(), cell.status().wireName() + ": " + cell.reason(),
              "", "", "", "", "", "", "", ""));
          if (slopes) {
            row.add(row.size() - 1, "");
          }
          rows.add(row);
          continue;
        }
        CellStats.RateStats r = s.rate();
        List<String> row = new ArrayList<>(List.of(entry.id() + (entry.calibration() ? " (calibration)" : ""), cell.name(),
            String.format(Locale.ROOT, "%,.0f / %,.0f", s.medianRequestsPerSecond(), r.targetRate()),
            String.format(Locale.ROOT, "%,d", r.ok()), String.format(Locale.ROOT, "%,d", r.otherStatuses()),
            String.format(Locale.ROOT, "%,d", r.clientErrors()), unsent(r),
            String.format(Locale.ROOT, "%.3f%%", r.successRate() * 100),
            latencies(s),
            number("%.2f", s.cpuMicrosPerRequest()) + " " + interval(s.cpuInterval(), "%.2f")));
        if (slopes) {
          row.add(rssSlope(cell));
        }
        row.add(cell.flags().stream().map(Flag::wireName).collect(Collectors.joining(", ")));
        rows.add(row);
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("## Constant rate\n\n");
    md.append("As seed 001 tables it, over every round: every scheduled request (rate × duration) counts. 2xx are the "
        + "correct answers; other statuses came from the server; client errors are requests sent without an answer "
        + "(refused, reset, timed out); unsent are requests the client could not send in time (seed 001's status 0). "
        + "Those due in a run's last 10 ms are shown apart (\"+N at the deadline\"): oha stops at its deadline and its "
        + "timer wakes late, so a server that keeps up loses them too; success is the 2xx over the scheduled requests "
        + "less those. Latency is measured from each request's scheduled time (coordinated omission corrected).\n\n");
    List<String> header = new ArrayList<>(List.of("Entry", "Cell", "achieved / target req/s", "2xx", "other statuses",
        "client errors", "unsent", "success", "p50 / p99 / p99.9 µs", "CPU-µs/req [95% CI]", "flags"));
    if (slopes) {
      md.append("RSS slope: the server's memory once a second, Theil–Sen slope after the first third of each run "
          + "(median over runs), with the window it is taken over; shown for runs long enough to judge (a soak).\n\n");
      header.add(header.size() - 1, "RSS slope MiB/min (window)");
    }
    table(md, header, rows);
  }

  /** "+2.41 (400 s)", or "—" for a cell whose window is too short to judge. */
  /** The unsent requests held against the server, and those cut at the client's deadline apart. */
  public static String unsent(CellStats.RateStats rate) {
    return String.format(Locale.ROOT, "%,d", rate.unsent())
        + (rate.cutAtDeadline() > 0 ? String.format(Locale.ROOT, " (+%,d at the deadline)", rate.cutAtDeadline()) : "");
  }

  public static String rssSlope(CellResult cell) {
    if (!Quality.hasRssSlope(cell)) {
      return "—";
    }
    CellStats.RssTrend t = cell.stats().rss();
    return String.format(Locale.ROOT, "%+.2f (%.0f s)", t.slopeMibPerMinute(), t.windowSeconds());
  }

  private static List<List<String>> environmentRows(ResultsDocument document) {
    Environment env = document.environment();
    var limits = env.limits();
    var load = env.load();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("CPU", env.cpuModel() + ", " + env.cores() + " cores"));
    rows.add(List.of("Kernel", env.kernel() + ", cgroup " + env.cgroupVersion()));
    rows.add(List.of("Runtime", env.mixedRuntimes()
        ? "mixed, in the same rounds, every idle server frozen: " + env.serversByRuntime() + " (the calibration server "
            + "in " + env.runtime() + ", the default)"
        : env.runtime() + ", limits by " + env.limitsMode()
            + (env.limitsNote().isEmpty() ? "" : " (" + env.limitsNote() + ")")));
    rows.add(List.of("Server limits", "CPUs " + limits.serverCpus() + ", memory " + limits.memoryBytes() / 1048576
        + " MiB, WORKERS=" + limits.workers()));
    rows.add(List.of("Load", env.loadGenerator() + " on CPUs " + limits.clientCpus() + ", " + load.threads()
        + " thread(s), " + load.connections() + " connections, warm-up " + load.warmupDescription()
        + " per cell, runs of " + seconds(load.durationSeconds())));
    if (document.calibration() != null) {
      rows.add(List.of("Client ceiling", String.format(Locale.ROOT, "%,.0f req/s (the calibration server's best median here)",
          document.calibration().clientCeilingRequestsPerSecond())));
    }
    if (env.orchestratorPlacement() != null && !env.orchestratorPlacement().isEmpty()) {
      rows.add(List.of("Orchestrator", env.orchestratorPlacement()));
    }
    if (env.topology() != null) {
      rows.add(List.of("Topology", env.topology().describe()));
    }
    if (env.engine() != null) {
      rows.add(List.of("Containers", env.engine().describe()));
    }
    rows.add(List.of("Commit", env.gitCommit() + (env.gitDirty() ? " (with uncommitted changes)" : "")));
    rows.add(List.of("Java", env.javaVersion()));
    for (EntryResult entry : document.entries()) {
      if (!entry.versions().isEmpty()) {
        rows.add(List.of(entry.id(), entry.framework() + ": " + String.join(", ",
            entry.versions().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(v -> v.getKey() + " " + v.getValue()).toList())));
      }
      if (entry.freeze() != null) {
        rows.add(List.of(entry.id() + " freezes", String.format(Locale.ROOT,
            "%d by %s; freeze median %.1f ms (max %.1f), thaw median %.1f ms (max %.1f)", entry.freeze().freezes(),
            entry.freeze().mechanism(), entry.freeze().medianFreezeMillis(), entry.freeze().maxFreezeMillis(),
            entry.freeze().medianThawMillis(), entry.freeze().maxThawMillis())));
      }
    }
    return rows;
  }

  private static boolean hasCells(EntryResult entry, CellKind kind) {
    return entry.cells().stream().anyMatch(c -> c.kind() == kind);
  }

  private static List<String> endpoints(ResultsDocument document) {
    Set<String> endpoints = new LinkedHashSet<>(document.environment().endpoints());
    document.entries().forEach(e -> e.cells().forEach(c -> endpoints.add(c.endpoint())));
    return List.copyOf(endpoints);
  }

  static String marks() {
    return "Marks: " + Arrays.stream(Flag.values()).map(f -> f.mark() + " " + f.wireName())
        .collect(Collectors.joining(", ")) + " (docs/REPORTS.md). A cell is trustworthy when it has none of "
        + Quality.TRUST_BREAKERS.stream().map(Flag::mark).collect(Collectors.joining(", ")) + ".";
  }

  /** A cell's marks, apart: "⁴·⁶", never "⁴⁶", which could be one mark once there are more than nine. */
  static String flagMarks(CellResult cell) {
    return cell.flags().stream().map(Flag::mark).collect(Collectors.joining("·"));
  }

  private static String throughput(CellResult cell) {
    CellStats s = cell.stats();
    return String.format(Locale.ROOT, "%,.0f %s", s.medianRequestsPerSecond(), share(s.requestsPerSecondInterval(),
        s.medianRequestsPerSecond())) + flagMarks(cell);
  }

  private static String cpu(CellResult cell) {
    CellStats s = cell.stats();
    return number("%.2f", s.cpuMicrosPerRequest()) + " " + share(s.cpuInterval(), s.cpuMicrosPerRequest());
  }

  private static String ratios(CellResult cell) {
    CellStats.Ratios r = cell.stats().toCalibration();
    return r == null ? "—" : number("%.2f", r.requestsPerSecond()) + " / " + number("%.2f", r.cpuMicrosPerRequest());
  }

  /**
   * "±2.1%"; "(no CI)" with too few runs; "±—" when the interval is no share of its median (a median of
   * 0, as from runs that all measured 0 req/s, or a figure there is none of).
   */
  static String share(Interval interval, double centre) {
    if (interval == null) {
      return "(no CI)";
    }
    double share = interval.halfWidthShareOf(centre);
    return Double.isFinite(share) ? String.format(Locale.ROOT, "±%.1f%%", share * 100) : "±—";
  }

  private static boolean untimed(ResultsDocument document) {
    return document.entries().stream().flatMap(e -> e.cells().stream())
        .anyMatch(c -> c.stats() != null && c.stats().p50Micros() == null);
  }

  /** A latency in µs, or "—" when the load client measured none (a pipelined wrk run). */
  static String micros(Long value) {
    return value == null ? "—" : Long.toString(value);
  }

  /** "p50 / p99 / p99.9" in µs. */
  public static String latencies(CellStats s) {
    return micros(s.p50Micros()) + " / " + micros(s.p99Micros()) + " / " + micros(s.p999Micros());
  }

  /** The figure in {@code format}, or "—" when there is none (CPU per request of runs that made no request). */
  static String number(String format, double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "—";
  }

  private static String interval(Interval interval, String format) {
    return interval == null ? "[no CI]"
        : "[" + String.format(Locale.ROOT, format, interval.low()) + "–" + String.format(Locale.ROOT, format, interval.high()) + "]";
  }

  private static String counted(CellResult cell) {
    long repeats = cell.runs().stream().filter(r -> !r.counted()).count();
    return repeats == 0 ? "" : " +" + repeats;
  }

  private static String workers(WorkerObservation w) {
    if (w == null) {
      return "";
    }
    return w.observed() + " of " + w.requested() + " " + w.model() + " (" + w.processes() + " proc, "
        + w.listeningProcesses() + " listening, " + w.threads() + " threads)"
        + (w.busy().isEmpty() ? "" : "; busy: " + String.join(", ", w.busy()));
  }

  static String seconds(double value) {
    return Environment.LoadSettings.seconds(value);
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
    return MarkdownText.cell(cell);
  }
}
