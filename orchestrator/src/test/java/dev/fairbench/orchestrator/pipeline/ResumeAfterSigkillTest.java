package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.cli.FairbenchCommand;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The orchestrator really SIGKILLed in round 2 of 3 (a child JVM), then resumed in its folder. */
class ResumeAfterSigkillTest {
  @TempDir Path output;

  @Test
  void aRunKilledBySigkillInRoundTwoIsResumedToEveryRound() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process orchestrator = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        "-Dfairbench.verdicts=none",
        FairbenchCommand.class.getName(), "run", "--runtime", "native", "--impls", TestEntries.impls().toString(),
        "tiny-python:stdlib", "--endpoints", "plaintext,json", "--duration", "1s", "--warmup", "0", "--rewarm", "0",
        "--rounds", "3", "--startups", "1", "--no-calibration", "--seed", "4", "--output", output.toString()))
        .redirectErrorStream(true).start();
    StringBuilder seen = new StringBuilder();
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(orchestrator.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.append(line).append('\n');
        if (line.contains("[round 2/")) {
          break; // round 1 is written: kill it now, no hook runs
        }
      }
      assertThat(seen.toString()).contains("[round 2/");
      orchestrator.destroyForcibly(); // SIGKILL
      assertThat(orchestrator.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      orchestrator.destroyForcibly();
    }
    ResultsDocument killed = ResultsJson.read(output.resolve("results.json"));
    assertThat(killed.entries().getFirst().cells()).allSatisfy(c -> assertThat(c.countedRuns()).isNotEmpty());

    CliRun resume = CliRun.of("run", "--resume", output.toString());

    assertThat(resume.exitCode()).as(resume.stderr()).isEqualTo(ExitCodes.OK);
    ResultsDocument resumed = ResultsJson.read(output.resolve("results.json"));
    for (CellResult cell : resumed.entries().getFirst().cells()) {
      assertThat(cell.countedRuns()).extracting(r -> r.round()).containsExactlyInAnyOrder(1, 2, 3);
    }
    assertThat(resumed.breaks()).singleElement().asString().contains("after round 1 of 3").contains("from round 2");
    for (ResultsDocument.RoundRecord round : resumed.rounds()) {
      assertThat(round.order().stream().filter(n -> !n.endsWith("(repeat)")).toList()).isEqualTo(Pipeline.shuffledOrder(
          List.of("tiny-python:stdlib plaintext", "tiny-python:stdlib json"), 4, round.index()));
    }
  }
}
