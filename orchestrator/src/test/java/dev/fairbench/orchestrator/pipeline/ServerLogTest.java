package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC 0.3 measured: what a server writes to its log while its cells are measured, against the requests answered. */
class ServerLogTest {
  @TempDir static Path output;
  static ResultsDocument results;

  @BeforeAll
  static void runAServerWithItsAccessLogBesideOneWithout() throws Exception {
    Path faults = TestEntries.impls().getParent().resolve("faults");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-chatty", "--endpoints",
        "plaintext", "--warmup", "0", "--rewarm", "0", "--rounds", "1", "--extra-rounds", "0", "--no-calibration",
        "--no-baselines", "--startups", "1", "--seed", "5", "--output", output.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.OK);
    results = ResultsJson.read(output.resolve("results.json"));
  }

  private static EntryResult entry(String id) {
    return results.entries().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aServerWritingALineARequestIsSeenWritingItAndTheFairnessReviewSaysSo() throws Exception {
    EntryResult.ServerLog log = entry("tiny-chatty:access-log").serverLog();
    assertThat(log.requests()).isPositive();
    // http.server's line: 127.0.0.1 - - [04/Dec/2026 06:30:00] "GET /plaintext HTTP/1.1" 200 -
    assertThat(log.linesPerRequest()).as("a line a request, and the resets' tracebacks").isBetween(0.95, 1.5);
    assertThat(log.bytesPerRequest()).isBetween(40.0, 120.0);
    assertThat(log.perRequest()).isTrue();
    assertThat(Files.readString(output.resolve("fairness.md")))
        .contains("- Server log during the measured runs: **")
        .contains("lines a request): an access log or debug output, which production mode rules out (SPEC 0.3)");
    assertThat(Files.readString(output.resolve("report.html"))).contains("writes per request");
  }

  @Test
  void aServerWritingOnlyAboutItsConnectionsIsNotTakenForAnAccessLog() throws Exception {
    // http.server prints a traceback for each connection wrk resets at the end of a run: lines, but per connection.
    EntryResult.ServerLog log = entry("tiny-chatty:quiet").serverLog();
    assertThat(log.requests()).isPositive();
    assertThat(log.perRequest()).as("%s", log).isFalse();
    assertThat(Files.readString(output.resolve("fairness.md"))).contains("- Server log during the measured runs: ")
        .contains(String.format(java.util.Locale.ROOT, " lines for %,d requests — not a line a request", log.requests()));
  }
}
