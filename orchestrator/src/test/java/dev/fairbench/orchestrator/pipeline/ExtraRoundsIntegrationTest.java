package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * src/test/resources/faults/tiny-erratic: one server slower on GET /json every other second, so its
 * json cell's interval stays wide after the rounds, beside a steady copy of it. The extra rounds
 * visit the wide cell again, with other cells beside it, within their budget.
 */
class ExtraRoundsIntegrationTest {
  static final int ROUNDS = 6;
  static final int CELLS = 6;
  @TempDir static Path output;
  static String stderr;
  static String stderrLimited;
  static ResultsDocument results;
  static ResultsDocument limited;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runTheErraticServerBesideASteadyOne() throws Exception {
    stderr = run("run", "tiny-erratic", "plaintext,json,user", "0");
    results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
    // The erratic server alone on json, with a time limit the rounds alone already pass.
    stderrLimited = run("limited", "tiny-erratic:erratic", "json", "1s");
    limited = ResultsJson.read(output.resolve("limited/results.json"));
  }

  private static String run(String folder, String selection, String endpoints, String timeLimit) {
    Path faults = TestEntries.impls().getParent().resolve("faults");
    return CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), selection, "--endpoints",
        endpoints, "--warmup", "0", "--rewarm", "0", "--rounds", Integer.toString(ROUNDS), "--extra-rounds", "3",
        "--time-limit", timeLimit, "--duration", "1s", "--no-calibration", "--ladder-share", "0", "--startups", "1",
        "--seed", "5", "--output", output.resolve(folder).toString()).stderr();
  }

  @Test
  void noExtraRoundIsBegunThatWouldEndTheRunPastItsTimeLimit() {
    assertThat(stderrLimited).as(stderrLimited).contains("past --time-limit").doesNotContain("[extra round");
    assertThat(limited.rounds()).extracting(ResultsDocument.RoundRecord::index).containsExactly(1, 2, 3, 4, 5, 6);
  }

  private static CellResult json(String variant) {
    return entries.get("tiny-erratic:" + variant).cells().stream().filter(c -> c.endpoint().equals("json")).findFirst()
        .orElseThrow();
  }

  @Test
  void theCellStillWideAfterTheRoundsIsVisitedAgainInExtraRounds() {
    assertThat(results.method().extraRounds()).isEqualTo(3);
    assertThat(stderr).as(stderr).contains("[extra round 1/3]");
    CellResult erratic = json("erratic");
    assertThat(erratic.countedRuns()).as(stderr).hasSizeGreaterThan(ROUNDS);
    assertThat(erratic.countedRuns()).extracting(RunRecord::round).contains(ROUNDS + 1);
  }

  @Test
  void everyExtraRoundVisitsEnoughCellsForItsEffectToBeTheMachines() {
    List<ResultsDocument.RoundRecord> extra = results.rounds().stream().filter(r -> r.index() > ROUNDS).toList();
    assertThat(extra).as(stderr).isNotEmpty().allSatisfy(round -> assertThat(
        round.order().stream().filter(o -> !o.endsWith("(repeat)")).count()).isGreaterThanOrEqualTo(ExtraRounds.MIN_VISITS));
  }

  @Test
  void theExtraVisitsStayWithinAThirdOfTheRoundsVisits() {
    long extraVisits = results.entries().stream().flatMap(e -> e.cells().stream()).flatMap(c -> c.countedRuns().stream())
        .filter(r -> r.round() > ROUNDS).count();
    assertThat(extraVisits).isPositive().isLessThanOrEqualTo(ExtraRounds.visitBudget(ROUNDS, CELLS));
  }

  @Test
  void everyExtraRunCountsInItsCellAndAnUnsteadyCellStaysWide() {
    // The run is reported with every run it made: no cell's extra runs are hidden or dropped.
    for (EntryResult entry : results.entries()) {
      for (CellResult cell : entry.cells()) {
        assertThat(cell.stats().runs()).isEqualTo(cell.countedRuns().size());
      }
    }
    assertThat(json("erratic").flags()).as("an unsteady cell is not made trustworthy by more runs of it")
        .contains(Flag.WIDE_INTERVAL);
  }
}
