package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Every visit of every cell as one CSV row, for a spreadsheet or R: the raw data behind the statistics. */
public final class RunsCsv {
  static final List<String> COLUMNS = List.of("entry", "role", "endpoint", "kind", "rate", "round", "visit", "counted",
      "requests", "duration_s", "req_per_s", "non2xx", "socket_errors", "p50_us", "p90_us", "p99_us", "p999_us",
      "max_us", "mean_us", "server_cpu_s", "server_peak_rss_bytes", "client_cpu_s", "client_cpu_utilisation",
      "steal_s", "other_tasks_s", "pressure_s", "involuntary_switches", "major_faults", "disturbance_share",
      "disturbed", "target_rate", "scheduled", "sent", "ok", "unsent", "cut_at_deadline", "success_rate",
      "server_speed_before", "server_speed_after", "client_speed_before", "client_speed_after", "runtime");
  /** Columns of the load client's CPUs, in documents that record them (runs made from 2026-12-05). */
  static final List<String> CLIENT_COLUMNS = List.of("client_steal_s", "orchestrator_cpu_s");
  /** The wake-up readings around each visit, in documents that record them (runs made from 2026-12-05). */
  static final List<String> WAKEUP_COLUMNS = List.of("wakeups_before", "wakeups_after", "wakeups_usual", "wakeups_slow");
  /** Seconds a visit waited for a slow spell to pass, in documents that record it (runs made from 2026-12-05 07:00). */
  static final String WAITED_COLUMN = "wakeups_waited_s";
  /** The memory's latency around each visit, ns per load, in documents that record it (runs made from 2026-12-07 10:12). */
  static final List<String> MEMORY_COLUMNS = List.of("memory_before_ns", "memory_after_ns");

  private RunsCsv() {}

  public static String render(ResultsDocument document) {
    boolean clientSide = anyRun(document, d -> d.client() != null);
    boolean wakeups = anyRun(document, d -> d.wakeups() != null);
    boolean waits = anyRun(document, d -> d.wakeups() != null && d.wakeups().waitedSeconds() != null);
    boolean memory = anyRun(document, d -> d.speed() != null && d.speed().readsMemory());
    List<String> columns = new ArrayList<>(COLUMNS);
    if (clientSide) {
      columns.addAll(CLIENT_COLUMNS);
    }
    if (wakeups) {
      columns.addAll(WAKEUP_COLUMNS);
    }
    if (waits) {
      columns.add(WAITED_COLUMN);
    }
    if (memory) {
      columns.addAll(MEMORY_COLUMNS);
    }
    StringBuilder csv = new StringBuilder(String.join(",", columns)).append('\n');
    for (EntryResult entry : document.entries()) {
      for (CellResult cell : entry.cells()) {
        for (RunRecord r : cell.runs()) {
          RunRecord.Disturbance d = r.disturbance() == null ? RunRecord.Disturbance.NONE : r.disturbance();
          RunRecord.RateRecord rate = r.rate();
          RunRecord.LatencyRecord l = r.latencyMicros();
          List<Object> row = new ArrayList<>(List.of(entry.id(), entry.role().wireName(), cell.endpoint(), cell.kind().wireName(),
              cell.rate(), r.round(), r.visit(), r.counted(), r.requests(), num(r.durationSeconds()),
              num(r.requestsPerSecond()), r.non2xx(), r.socketErrors().total(), l == null ? "" : l.p50(),
              l == null ? "" : l.p90(), l == null ? "" : l.p99(), l == null ? "" : l.p999(), l == null ? "" : l.max(),
              l == null ? "" : num(l.mean()), num(r.serverCpuSeconds()), r.serverPeakRssBytes(), num(r.clientCpuSeconds()),
              num(r.clientCpuUtilisation()), num(d.stealSeconds()), num(d.otherTasksSeconds()), num(d.pressureSeconds()),
              d.involuntarySwitches(), d.majorFaults(), num(d.share()), d.disturbed(),
              rate == null ? "" : num(rate.targetRate()), rate == null ? "" : rate.scheduled(),
              rate == null ? "" : rate.sent(), rate == null ? "" : rate.ok(), rate == null ? "" : rate.unsent(),
              rate == null ? "" : rate.cutAtDeadline(), rate == null ? "" : num(rate.successRate()),
              speed(d, RunRecord.Speed::serverBefore), speed(d, RunRecord.Speed::serverAfter),
              speed(d, RunRecord.Speed::clientBefore), speed(d, RunRecord.Speed::clientAfter),
              entry.runtimeOr(document.environment())));
          if (clientSide) {
            row.addAll(d.client() == null ? List.of("", "")
                : List.of(num(d.client().stealSeconds()), num(d.client().orchestratorCpuSeconds())));
          }
          if (wakeups) {
            RunRecord.Wakeups w = d.wakeups();
            row.addAll(w == null ? List.of("", "", "", "")
                : List.of(reading(w.before()), reading(w.after()), reading(w.usual()), w.slow()));
          }
          if (waits) {
            RunRecord.Wakeups w = d.wakeups();
            row.add(w == null || w.waitedSeconds() == null ? "" : num(w.waitedSeconds()));
          }
          if (memory) {
            RunRecord.Speed speed = d.speed();
            row.addAll(speed == null || !speed.readsMemory() ? List.of("", "")
                : List.of(reading(speed.memoryBefore()), reading(speed.memoryAfter())));
          }
          csv.append(row.stream().map(RunsCsv::field).collect(Collectors.joining(","))).append('\n');
        }
      }
    }
    return csv.toString();
  }

  private static boolean anyRun(ResultsDocument document, java.util.function.Predicate<RunRecord.Disturbance> has) {
    return document.entries().stream().flatMap(e -> e.cells().stream()).flatMap(c -> c.runs().stream())
        .anyMatch(r -> r.disturbance() != null && has.test(r.disturbance()));
  }

  /** A reading; empty where it failed (-1). */
  private static String reading(double value) {
    return value < 0 ? "" : num(value);
  }

  /** A speed reading in MB/s; empty where none was made or it failed. */
  private static String speed(RunRecord.Disturbance d, java.util.function.ToDoubleFunction<RunRecord.Speed> side) {
    return d.speed() == null ? "" : reading(side.applyAsDouble(d.speed()));
  }

  private static String num(double value) {
    return String.format(Locale.ROOT, "%.6g", value);
  }

  private static String field(Object value) {
    String text = String.valueOf(value);
    return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }
}
