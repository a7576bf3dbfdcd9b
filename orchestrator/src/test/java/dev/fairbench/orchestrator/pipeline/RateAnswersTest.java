package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answer check of constant-rate cells, end to end (src/test/resources/faults/tiny-faulty): oha's own
 * request is answered once at the warm-up and its body counted, as oha counts. The variant that answers
 * GET /json with a shorter body after 1,500 requests does so in rounds 2 and 3 of 800 requests; the same
 * server without the fault reads the checked body in every run.
 */
class RateAnswersTest {
  @TempDir static Path output;
  static String stderr;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runTheShortAndTheSteadyServerAtAFixedRate() throws Exception {
    assertThat(TestEntries.onPath("oha")).as("oha must be on PATH (cargo install oha --locked)").isTrue();
    Path faults = TestEntries.impls().getParent().resolve("faults");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-faulty:short-answers",
        "tiny-faulty:steady", "--mode", "rate", "--rate", "800", "--duration", "1s", "--warmup", "0", "--rewarm", "0",
        "--rounds", "3", "--connections", "4", "--endpoints", "json", "--no-calibration", "--startups", "1",
        "--seed", "7", "--output", output.resolve("run").toString());
    stderr = run.stderr();
    assertThat(output.resolve("run/results.json")).as(stderr).exists();
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  private static CellResult cell(String id) {
    EntryResult entry = entries.get(id);
    assertThat(entry).as(stderr).isNotNull();
    CellResult cell = entry.cells().getFirst();
    assertThat(cell.kind()).isEqualTo(CellKind.RATE);
    assertThat(cell.countedRuns()).as(cell.reason() + "\n" + stderr).hasSize(3);
    return cell;
  }

  @Test
  void aRateCellRecordsTheCheckedBodyAndTheBodiesOhaRead() {
    CellResult steady = cell("tiny-faulty:steady");
    assertThat(steady.answerBytes()).as("the body of {\"message\": \"Hello, World!\"} (Python's json.dumps)").isEqualTo(28);
    assertThat(steady.countedRuns()).allSatisfy(run -> assertThat(run.bytes()).isEqualTo(run.requests() * 28));
    assertThat(steady.flags()).doesNotContain(Flag.ANSWERS_DIFFER);
  }

  @Test
  void aServerThatAnswersTheRateLoadWithLessThanItWasCheckedWithIsFlaggedAnswersDiffer() {
    CellResult shortAnswers = cell("tiny-faulty:short-answers");
    assertThat(shortAnswers.answerBytes()).isEqualTo(28);
    assertThat(shortAnswers.flags()).contains(Flag.ANSWERS_DIFFER);
    assertThat(Quality.trustworthy(shortAnswers)).isFalse();
  }
}
