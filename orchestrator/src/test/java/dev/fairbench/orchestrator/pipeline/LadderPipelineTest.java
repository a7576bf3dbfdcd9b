package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.LadderRate;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A baseline and a framework on it (src/test/resources/ladder): ladder cells in the same rounds, at one rate. */
class LadderPipelineTest {
  @TempDir static Path output;
  static int exitCode;
  static String stderr;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runTheLadder() throws Exception {
    Path ladder = TestEntries.impls().getParent().resolve("ladder");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", ladder.toString(), "--endpoints", "plaintext,json",
        "--warmup", "1s", "--rewarm", "0", "--rounds", "2", "--duration", "1s", "--ladder-duration", "2s",
        "--no-calibration", "--startups", "1",
        "--connections", "8", "--output", output.resolve("run").toString());
    exitCode = run.exitCode();
    stderr = run.stderr();
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  @Test
  void theBaselineAndItsFrameworkGetLadderCellsAtOneRate() {
    assertThat(exitCode).as(stderr).isEqualTo(ExitCodes.OK);
    EntryResult bare = entries.get("tiny-bare");
    EntryResult framework = entries.get("tiny-framework");
    assertThat(bare.role()).isEqualTo(Role.BASELINE);
    assertThat(framework.standsOn()).isEqualTo("tiny-bare");
    CellResult floor = ladder(bare);
    CellResult rung = ladder(framework);
    assertThat(floor.status()).as(floor.reason()).isEqualTo(CellStatus.MEASURED);
    assertThat(rung.status()).as(rung.reason()).isEqualTo(CellStatus.MEASURED);
    assertThat(floor.countedRuns()).hasSize(2);
    assertThat(floor.countedRuns().getFirst().rate().targetRate())
        .isEqualTo(rung.countedRuns().getFirst().rate().targetRate());
  }

  @Test
  void aBaselineWithItsFrameworkInTheRunIsMeasuredOnTheLadderEndpointsOnlyAndTheReportsSaySo() throws Exception {
    assertThat(entries.get("tiny-bare").cells()).filteredOn(c -> c.kind() == CellKind.THROUGHPUT)
        .extracting(CellResult::endpoint).containsExactly("json");
    assertThat(entries.get("tiny-framework").cells()).filteredOn(c -> c.kind() == CellKind.THROUGHPUT)
        .extracting(CellResult::endpoint).containsExactly("plaintext", "json");
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    assertThat(results.method().baselineEndpoints()).containsExactly("json");
    assertThat(Files.readString(output.resolve("run/report.md")))
        .contains("A baseline with a framework on it in this run was measured in throughput cells on json only");
    assertThat(Files.readString(output.resolve("run/fairness.md"))).contains("its throughput cells on json only");
    assertThat(stderr).contains("3 of entries and baselines");
  }

  @Test
  void theLadderRunsAtARoundRateByDefaultAndTheResultsSaySo() throws Exception {
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    assertThat(results.method().ladderRate()).isEqualTo(LadderRate.ROUND);
    assertThat(results.invocation().config().ladderRate()).isEqualTo(LadderRate.ROUND);
    double rate = ladder(entries.get("tiny-bare")).countedRuns().getFirst().rate().targetRate();
    assertThat(rate).isPositive().isEqualTo(LadderRate.roundDown(rate));
    // The fastest a rung can have gone is what it served in its throughput runs; half its maximum at most.
    double fastest = entries.values().stream().flatMap(e -> e.cells().stream())
        .filter(c -> c.kind() == CellKind.THROUGHPUT).flatMap(c -> c.countedRuns().stream())
        .mapToDouble(r -> r.requestsPerSecond()).max().orElseThrow();
    assertThat(rate).isLessThan(fastest);
    assertThat(Files.readString(output.resolve("run/report.md"))).contains("rounded down to a round rate");
  }

  @Test
  void aRunReadsItsConstantRateCellsAgainstTheLoadClientsGaugeAndKeepsWhatTheGaugeIsMadeOf() throws Exception {
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    assertThat(results.method().cpuGauge()).isEqualTo(dev.fairbench.orchestrator.core.CpuGauge.CLIENT);
    // Every ladder run keeps the client's CPU time the gauge is read from.
    assertThat(ladder(entries.get("tiny-bare")).countedRuns()).allSatisfy(r -> assertThat(r.clientCpuSeconds()).isPositive());
    // Two ladder cells of 2 runs fit no slope (3 cells of 6 runs at least): the report says each run is
    // divided by its round's effect instead.
    assertThat(dev.fairbench.orchestrator.results.ClientGauge.of(results).active()).isFalse();
    assertThat(Files.readString(output.resolve("run/report.md")))
        .contains("fewer than 3 of those cells had 6 runs, so each is divided by its round's effect");
  }

  @Test
  void ladderRunsLastTheLadderDurationWhileTheOtherCellsRunsLastTheDuration() throws Exception {
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    assertThat(results.method().ladderDurationSeconds()).isEqualTo(2.0);
    assertThat(results.invocation().config().ladderDuration()).isEqualTo(java.time.Duration.ofSeconds(2));
    CellResult floor = ladder(entries.get("tiny-bare"));
    // oha's own clock: its last responses may come a little after the schedule ends.
    assertThat(floor.countedRuns()).allSatisfy(r -> assertThat(r.durationSeconds()).isBetween(1.9, 2.5));
    assertThat(floor.countedRuns().getFirst().rate().scheduled())
        .isEqualTo(Math.round(floor.countedRuns().getFirst().rate().targetRate() * 2));
    assertThat(entries.get("tiny-bare").cells()).filteredOn(c -> c.kind() == CellKind.THROUGHPUT)
        .flatExtracting(CellResult::countedRuns).allSatisfy(r -> assertThat(r.durationSeconds()).isBetween(0.9, 1.5));
    assertThat(Files.readString(output.resolve("run/report.md"))).contains("of one 1 s run per cell (2 s for ladder cells)");
  }

  @Test
  void theReportsHaveTheLadder() throws Exception {
    assertThat(Files.readString(output.resolve("run/report.md"))).contains("## The ladder: runtime floor and framework overhead")
        .contains("| tiny-bare | json | tiny-framework |");
    assertThat(Files.readString(output.resolve("run/report.html"))).contains("<section id=\"ladder\">");
  }

  private static CellResult ladder(EntryResult entry) {
    return entry.cells().stream().filter(c -> c.kind() == CellKind.LADDER).findFirst().orElseThrow(
        () -> new AssertionError(entry.id() + " has no ladder cell: " + stderr));
  }
}
