package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.runtime.DockerEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `run --client-host`: what a wrong URL, an engine that does not answer, or a wrong setup says. */
class ClientHostOptionTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path temp;

  private int run(String... options) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    String[] args = new String[options.length + 8];
    args[0] = "run";
    System.arraycopy(options, 0, args, 1, options.length);
    System.arraycopy(new String[] {"--runtime", "native", "--impls", TestEntries.impls().toString(), "--output",
        temp.resolve("out").toString(), "tiny-python:stdlib"}, 0, args, options.length + 1, 7);
    return cli.execute(args);
  }

  private void assertOneClearLine() {
    assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aUrlThatIsNoEngineUrlIsAUsageError() {
    assertThat(run("--client-host", "ftp://192.0.2.30:21")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--client-host ftp://192.0.2.30:21").contains("tcp://HOST:PORT");
    assertOneClearLine();
  }

  @Test
  void sshSaysHowToForwardTheSocket() {
    assertThat(run("--client-host", "ssh://bench@client")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("ssh -nNT -L").contains("--client-host unix:///tmp/fairbench-engine.sock");
    assertOneClearLine();
  }

  @Test
  void aClientHostOnAnotherMachineNeedsTheServersOnAServerHost() {
    assertThat(run("--client-host", "tcp://192.0.2.30:2375")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("another machine").contains("--server-host");
    assertOneClearLine();
  }

  @Test
  void anEngineThatDoesNotAnswerIsOneLineAndExit2() {
    String socket = temp.resolve("no-engine.sock").toString();
    assertThat(run("--client-host", "unix://" + socket)).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip()).startsWith("fairbench run: unavailable: the client host's engine unix://" + socket
        + " does not answer").doesNotContain("\n");
    assertOneClearLine();
  }

  @Test
  void onAnotherMachineTheClientGetsTheCpusTheServerSetDoesNotName() {
    DockerEngine there = DockerEngine.clientHost("tcp://192.0.2.30:2375", Map.of());
    assertThat(LimitOptions.othersOf("1", 4, there)).isEqualTo("0,2,3");
    assertThat(LimitOptions.othersOf("2-3", 2, there)).isEqualTo("0,1");
    assertThatThrownBy(() -> LimitOptions.othersOf("0-1", 2, there)).isInstanceOf(UsageException.class)
        .hasMessageContaining("--client-cpus");
  }
}
