package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.load.LoadClient;
import dev.fairbench.orchestrator.load.LoadException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** How the load client container's wrapper reports a run, and what it says when it cannot start. */
class ClientContainerTest {
  @TempDir Path temp;

  @Test
  void theWrappersLastLineGivesTheExitCodeCgroupCpuAndWallTimeAndIsNotPartOfTheToolsOutput() throws Exception {
    LoadClient.Execution raw = new LoadClient.Execution(0, "FAIRBENCH-RESULT requests=10\n",
        "a warning\nFAIRBENCH-CLIENT rc=0 cpu-before=1000000000 cpu-after=1750000000 start=5000000000 end=7000000000 "
            + "children-ticks=3 clk-tck=100\n", 0, 0);

    LoadClient.Execution run = ClientContainer.measured("wrk", raw);

    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).isEqualTo("FAIRBENCH-RESULT requests=10\n");
    assertThat(run.stderr()).isEqualTo("a warning\n");
    assertThat(run.cpuSeconds()).isEqualTo(0.75);
    assertThat(run.wallSeconds()).isEqualTo(2.0);
    assertThat(run.cpuUtilisation()).isEqualTo(0.375);
  }

  @Test
  void withoutACgroupFileTheShellsReapedChildrenCount() throws Exception {
    LoadClient.Execution raw = new LoadClient.Execution(0, "", "FAIRBENCH-CLIENT rc=3 cpu-before=-1 cpu-after=-1 "
        + "start=0 end=1000000000 children-ticks=42 clk-tck=100\n", 0, 0);

    LoadClient.Execution run = ClientContainer.measured("oha", raw);

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.cpuSeconds()).isEqualTo(0.42);
  }

  @Test
  void aRunWithoutTheWrappersLineIsALoadErrorWithWhatItPrinted() {
    assertThatThrownBy(() -> ClientContainer.measured("wrk",
        new LoadClient.Execution(126, "", "sh: 1: exec: wrk: not found\n", 0, 0)))
        .isInstanceOf(LoadException.class).hasMessageContaining("exit 126").hasMessageContaining("wrk: not found");
  }

  @Test
  void thePathClientsOutputGivesTheRoundTripsAndTheStreamsBytes() throws Exception {
    ClientContainer.PathSample sample = ClientContainer.PathSample.parse("rtt 9000 8000 12000\nstream 1048576\n");

    assertThat(sample.rttNanos()).containsExactly(9000, 8000, 12000);
    assertThat(sample.streamBytes()).isEqualTo(1048576);
    assertThatThrownBy(() -> ClientContainer.PathSample.parse("rtt 1 2\n")).isInstanceOf(IOException.class)
        .hasMessageContaining("stream");
  }

  /** The wrapper itself, run by this machine's sh: the same script the container runs. */
  @Test
  void theWrapperRunsTheToolAndReportsItsExitCodeAndTimes() throws Exception {
    Path pidFile = temp.resolve("load.pid");
    Process process = new ProcessBuilder("sh", "-c", ClientContainer.WRAPPER, "fairbench-load", pidFile.toString(),
        "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo done; exit 7").start();
    String stdout = new String(process.getInputStream().readAllBytes());
    String stderr = new String(process.getErrorStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

    LoadClient.Execution run = ClientContainer.measured("sh", new LoadClient.Execution(process.exitValue(), stdout, stderr,
        0, 0));

    assertThat(run.exitCode()).isEqualTo(7);
    assertThat(process.exitValue()).isEqualTo(7);
    assertThat(run.stdout()).isEqualTo("done\n");
    assertThat(run.wallSeconds()).isPositive();
    assertThat(run.cpuSeconds()).isGreaterThanOrEqualTo(0);
    assertThat(pidFile).doesNotExist();
  }

  @Test
  @EnabledIf("dev.fairbench.orchestrator.runtime.DockerRuntimeTest#dockerUsable")
  void aMissingImageSaysHowToMakeIt() {
    DockerEngine engine = DockerEngine.clientHost("unix:///var/run/docker.sock", Map.of());

    assertThatThrownBy(() -> ClientContainer.start(engine, "fairbench/no-such-load-client:0", "0"))
        .isInstanceOf(LoadException.class).hasMessageContaining("fairbench/no-such-load-client:0 is not on")
        .hasMessageContaining("docker/make-base-images --only load-client");
  }

  @Test
  void anEngineThatDoesNotAnswerIsOneClearLine() throws Exception {
    Path socket = temp.resolve("no-engine.sock");
    Files.deleteIfExists(socket);
    DockerEngine engine = DockerEngine.clientHost("unix://" + socket, Map.of());

    assertThatThrownBy(() -> ClientContainer.start(engine, "0")).isInstanceOf(LoadException.class)
        .hasMessageContaining("the client host's engine unix://" + socket + " does not answer")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }
}
