package dev.fairbench.orchestrator.events;

import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.load.LoadResult;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/** One progress line per step, for a person watching stderr. */
public class ProgressPrinter implements RunListener {
  private final PrintWriter out;

  public ProgressPrinter(PrintWriter out) {
    this.out = out;
  }

  private void say(String format, Object... args) {
    out.println(String.format(Locale.ROOT, format, args));
    out.flush();
  }

  @Override
  public void entryStarted(String id, int index, int total) {
    say("[%d/%d] %s", index, total, id);
  }

  @Override
  public void building(String id) {
    say("  building and starting %s ...", id);
  }

  @Override
  public void serverReady(String id, String baseUrl) {
    say("  ready at %s; running the conformance suite ...", baseUrl);
  }

  @Override
  public void conformanceFinished(String id, SuiteReport report, Path jsonReport) {
    say("  conformance: %s (%d PASS, %d WARN, %d FAIL; report %s)", report.overall(),
        report.withVerdict(Verdict.PASS).size(), report.withVerdict(Verdict.WARN).size(),
        report.withVerdict(Verdict.FAIL).size(), jsonReport);
  }

  @Override
  public void cellStarted(String id, String endpoint) {
    say("  %s: checking and warming up ...", endpoint);
  }

  @Override
  public void runFinished(String id, String endpoint, int run, int runs, LoadResult result) {
    say("  %s: run %d/%d: %,.0f req/s, p99 %d µs, wrk CPU %.0f%%", endpoint, run, runs, result.requestsPerSecond(),
        result.latency().p99(), result.clientCpuUtilisation() * 100);
  }

  @Override
  public void cellFinished(String id, CellResult cell) {
    if (cell.stats() != null) {
      say("  %s: median %,.0f req/s (CV %.1f%%)%s", cell.endpoint(), cell.stats().medianRequestsPerSecond(),
          cell.stats().cv() * 100, cell.flags().isEmpty() ? "" : " [" + String.join(", ", cell.flags()) + "]");
    } else {
      say("  %s: %s: %s", cell.endpoint(), cell.status(), cell.reason());
    }
  }

  @Override
  public void entryFinished(EntryResult entry) {
    if (entry.status().failed()) {
      say("  %s: %s%s", entry.id(), entry.status().wireName(), entry.reason().isEmpty() ? "" : ": " + entry.reason());
      if (!entry.logTail().isEmpty()) {
        entry.logTail().lines().forEach(line -> say("    | %s", line));
      }
    } else {
      say("  %s: %s", entry.id(), entry.status().wireName());
    }
  }
}
