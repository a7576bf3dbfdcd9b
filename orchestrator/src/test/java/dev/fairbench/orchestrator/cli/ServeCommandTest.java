package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ServeCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void anEntryIsRequired() {
    assertThat(execute("serve")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("ENTRY[:VARIANT]");
  }

  @Test
  void anUnknownEntryIsAUsageErrorListingTheKnownOnes() {
    assertThat(execute("serve", "--runtime", "native", "--impls", TestEntries.impls().toString(), "nginx"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown entry nginx").contains("tiny-python:stdlib");
  }

  @Test
  void anEntryWithVariantsNeedsOneNamed() {
    assertThat(execute("serve", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("has variants; name one").contains("tiny-python:stdlib");
  }

  @Test
  void aBadPortIsAUsageError() {
    assertThat(execute("serve", "--port", "70000", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--port must be between 1 and 65535");
  }

  @Test
  void anUnknownRuntimeIsAUsageError() {
    assertThat(execute("serve", "--runtime", "podman", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown runtime");
  }
}
