package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A selector's runtime suffix refused on the command line: one clear line and exit 2, no stack trace, nothing written. */
class RuntimeSelectorCliTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path temp;

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void anUnknownRuntimeIsAUsageErrorNamingTheKnownOnes() {
    Path output = temp.resolve("run");

    assertThat(execute("run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
        "tiny-python:stdlib@podman", "--output", output.toString())).isEqualTo(ExitCodes.USAGE);

    assertThat(err.toString()).startsWith("fairbench: unknown runtime \"podman\" in \"tiny-python:stdlib@podman\"; "
        + "runtimes: native, docker\n").doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(output).doesNotExist();
  }

  @Test
  void aSuffixWithoutAnEntryIsAUsageError() {
    assertThat(execute("conformance", "--runtime", "native", "--impls", TestEntries.impls().toString(), "@docker"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("\"@docker\" names no entry before the @").doesNotContain("\tat ");
  }

  @Test
  void theHelpShowsTheSuffix() {
    assertThat(execute("run", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("ENTRY[:VARIANT][@RUNTIME]").contains("@native or @docker");
  }
}
