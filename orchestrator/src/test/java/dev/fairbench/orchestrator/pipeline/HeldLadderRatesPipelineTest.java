package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run held at an earlier run's ladder rates (`--ladder-rates-from`): every rung at the earlier rate where this
 * run's rungs can hold it, so that the two runs' ladder cells are one measure.
 */
class HeldLadderRatesPipelineTest {
  /** Below any maximum the tiny servers reach, and not a rate the round rule gives: it can only come from the file. */
  static final double HELD = 777;

  @TempDir static Path output;
  static CliRun held;

  static CliRun ladderRun(String name, String... more) {
    Path ladder = TestEntries.impls().getParent().resolve("ladder");
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--runtime", "native", "--impls",
        ladder.toString(), "--endpoints", "json", "--warmup", "1s", "--rewarm", "0", "--rounds", "1", "--duration",
        "1s", "--no-calibration", "--startups", "1", "--connections", "8", "--output", output.resolve(name).toString()));
    args.addAll(java.util.List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @BeforeAll
  static void runOnceThenAgainAtTheFirstRunsRates() throws Exception {
    CliRun first = ladderRun("first");
    assertThat(first.exitCode()).as(first.stderr()).isEqualTo(ExitCodes.OK);
    // The earlier run as if its ladder had run at 777 req/s.
    Path earlier = output.resolve("first/results.json");
    Files.writeString(earlier, Files.readString(earlier).replaceAll("\"targetRate\" ?: ?[0-9.Ee+-]+",
        "\"targetRate\" : " + HELD));
    held = ladderRun("held", "--ladder-rates-from", earlier.toString());
  }

  @Test
  void everyRungRunsAtTheRateItsLadderRanAtInTheEarlierRunAndTheResultsSaySo() throws Exception {
    assertThat(held.exitCode()).as(held.stderr()).isEqualTo(ExitCodes.OK);
    ResultsDocument results = ResultsJson.read(output.resolve("held/results.json"));
    for (EntryResult entry : results.entries()) {
      CellResult ladder = entry.cells().stream().filter(c -> c.kind() == CellKind.LADDER).findFirst().orElseThrow();
      assertThat(ladder.countedRuns()).allSatisfy(r -> assertThat(r.rate().targetRate()).isEqualTo(HELD));
    }
    assertThat(results.method().ladderRatesFrom()).startsWith(output.resolve("first/results.json").toString())
        .contains("(the run of ");
    assertThat(held.stderr()).contains("ladder tiny-bare json: held at 777 req/s");
    assertThat(Files.readString(output.resolve("held/report.md"))).contains("(--ladder-rates-from) where that was at most 70%");
  }
}
