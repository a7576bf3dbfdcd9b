package dev.fairbench.orchestrator.events;

import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.RunRecord;
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
  public void preparing(String id, int index, int total) {
    say("[prepare %d/%d] %s", index, total, id);
  }

  @Override
  public void building(String id) {
    say("  building and starting %s ...", id);
  }

  @Override
  public void serverReady(String id, String baseUrl) {
    say("  ready at %s", baseUrl);
  }

  @Override
  public void conformanceFinished(String id, SuiteReport report, Path jsonReport) {
    say("  conformance: %s (%d PASS, %d WARN, %d FAIL; report %s)", report.overall(),
        report.withVerdict(Verdict.PASS).size(), report.withVerdict(Verdict.WARN).size(),
        report.withVerdict(Verdict.FAIL).size(), jsonReport);
  }

  @Override
  public void conformanceReused(String id, SuiteReport report, Path jsonReport, ConformanceSummary.Reused reused) {
    say("  conformance: %s (%d PASS, %d WARN, %d FAIL) reused from %s: entry, suite, toolchain and limits unchanged; "
            + "report %s", report.overall(), report.withVerdict(Verdict.PASS).size(), report.withVerdict(Verdict.WARN).size(),
        report.withVerdict(Verdict.FAIL).size(), reused.describe(), jsonReport);
  }

  @Override
  public void prepared(EntryResult entry) {
    say("  %s: %s%s", entry.id(), entry.status().wireName(), entry.reason().isEmpty() ? "" : ": " + entry.reason());
    if (entry.status().failed() && !entry.logTail().isEmpty()) {
      entry.logTail().lines().forEach(line -> say("    | %s", line));
    }
  }

  @Override
  public void warmingUp(String id, String cell) {
    say("[warm-up] %s %s", id, cell);
  }

  @Override
  public void roundStarted(int round, int rounds, int visits, String probe) {
    say("[round %d%s] %d visits in a shuffled order%s", round, round <= rounds ? "/" + rounds : "", visits,
        probe.isEmpty() ? "" : "; " + probe);
  }

  @Override
  public void extraRoundStarted(int extra, int extraRounds, int wide, int visits) {
    say("[extra round %d/%d] %d cell%s still wider than the interval threshold, %d visits with the anchors", extra,
        extraRounds, wide, wide == 1 ? "" : "s", visits);
  }

  @Override
  public void visitFinished(int round, int visit, int visits, String id, String cell, RunRecord run, boolean requeued) {
    String rate = run.rate() == null ? "" : String.format(Locale.ROOT, ", success %.2f%% of %,.0f/s",
        run.rate().successRate() * 100, run.rate().targetRate());
    RunRecord.Wakeups wakeups = run.disturbance() == null ? null : run.disturbance().wakeups();
    say("  %d.%02d/%d %s %s: %,.0f req/s%s%s, client CPU %.0f%%%s%s", round, visit, visits, id, cell,
        run.requestsPerSecond(), rate, run.latencyMicros() == null ? "" : ", p99 " + run.latencyMicros().p99() + " µs",
        run.clientCpuUtilisation() * 100,
        wakeups == null || !wakeups.waited() ? ""
            : String.format(Locale.ROOT, ", after %.1f s waiting for slow wake-ups to pass", wakeups.waitedSeconds()),
        requeued ? " — disturbed (" + why(run.disturbance()) + "), repeated later"
            : run.countedThoughDisturbed()
                ? " — disturbed (" + why(run.disturbance()) + "), counted: no time left for a repeat"
                : "");
  }

  /** What made a visit disturbed: other work on the server's CPUs, slow wake-ups around it, or both. */
  static String why(RunRecord.Disturbance d) {
    String share = String.format(Locale.ROOT, "%.0f%% of the server CPUs' time went elsewhere", d.share() * 100);
    RunRecord.Wakeups w = d.wakeups();
    if (w == null || !w.slow()) {
      return share;
    }
    String wakeups = String.format(Locale.ROOT, "wake-ups at %.0f%% of the run's usual rate", w.lowest() / w.usual() * 100);
    return d.share() > 0 ? share + "; " + wakeups : wakeups;
  }

  @Override
  public void cellFailed(String id, String cell, String reason) {
    say("  %s %s: failed: %s", id, cell, reason);
  }

  @Override
  public void note(String message) {
    say("%s", message);
  }
}
