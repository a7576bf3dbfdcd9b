package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC 0.1 through the pipeline: a server that binds every interface instead of HOST is not judged or measured. */
class ListenAddressTest {
  @TempDir Path output;

  @Test
  void aServerOnEveryInterfaceInsteadOfHostFailsBeforeTheSuiteWithTheAddressItListensOn() throws Exception {
    Path faults = TestEntries.impls().getParent().resolve("faults");

    CliRun run = CliRun.of("conformance", "--runtime", "native", "--impls", faults.toString(), "tiny-any-host",
        "--output", output.toString());

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.FAILED);
    EntryResult entry = ResultsJson.read(output.resolve("results.json")).entries().getFirst();
    assertThat(entry.status()).isEqualTo(EntryStatus.FAILED);
    assertThat(entry.reason()).contains("listens on every interface (0.0.0.0)").contains("not only on HOST=127.0.0.1")
        .contains("SPEC 0.1");
    assertThat(entry.conformance()).as("not judged: it failed before the suite").isNull();
    assertThat(run.stdout()).contains("tiny-any-host:every-interface").contains("failed");
  }
}
