package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole pipeline on the repository's java-reference entry, with 1-second runs. */
class JavaReferenceIntegrationTest {
  @TempDir Path output;

  @Test
  void javaReferenceIsBuiltCheckedMeasuredAndReported() throws Exception {
    Path impls = TestEntries.repositoryRoot().resolve("impls");
    assertThat(impls.resolve("java-reference/fairbench.toml")).exists();

    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", impls.toString(), "java-reference", "--duration", "1s", "--rounds", "1", "--rewarm", "0", "--no-calibration",
        "--warmup", "1s", "--output", output.toString());
    int exit = run.exitCode();

    assertThat(exit).as(run.stderr()).isEqualTo(ExitCodes.OK);
    ResultsDocument results = ResultsJson.read(output.resolve("results.json"));
    PipelineAssertions.environmentIsComplete(results.environment());
    assertThat(results.entries()).hasSize(1);
    PipelineAssertions.isFullyMeasured(results.entries().getFirst(), 4, 1);
    assertThat(results.entries().getFirst().workersModel()).isEqualTo("threads");
    if (results.environment().limitsMode().startsWith("cgroup")) {
      assertThat(results.entries().getFirst().limitsReadBack())
          .as("the limits as the kernel reports them for the server's cgroup")
          .contains("cpuset.cpus=" + results.environment().limits().serverCpus())
          .containsPattern("memory\\.(limit_in_bytes|max)=" + results.environment().limits().memoryBytes());
    }
    assertThat(Files.readString(output.resolve("report.md"))).contains("| java-reference (Java) |");
  }
}
