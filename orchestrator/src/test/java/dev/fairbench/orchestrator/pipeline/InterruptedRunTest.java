package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.FairbenchCommand;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stopping the orchestrator (SIGTERM, as Ctrl-C's SIGINT) mid-run leaves no server listening. */
class InterruptedRunTest {
  private static final Pattern READY = Pattern.compile("ready at http://127\\.0\\.0\\.1:(\\d+)");

  @TempDir Path output;

  @Test
  void terminatingTheOrchestratorStopsTheServer() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process orchestrator = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        "-Dfairbench.verdicts=none",
        FairbenchCommand.class.getName(), "run", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
        "--duration", "30s", "--warmup", "0", "--rounds", "1", "--no-calibration", "--output", output.toString()))
        .redirectErrorStream(true).start();
    int port = -1;
    StringBuilder seen = new StringBuilder();
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(orchestrator.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.append(line).append('\n');
        Matcher ready = READY.matcher(line);
        if (ready.find()) {
          port = Integer.parseInt(ready.group(1));
        }
        if (port > 0 && line.contains("[round 1/")) {
          break; // the suite passed and the load is starting: stop the orchestrator now
        }
      }
      assertThat(port).as(seen.toString()).isPositive();
      assertThat(listening(port)).as("the server listens before the stop").isTrue();

      orchestrator.destroy(); // SIGTERM
      assertThat(orchestrator.waitFor(30, TimeUnit.SECONDS)).as("the orchestrator stops").isTrue();
    } finally {
      orchestrator.destroyForcibly();
    }
    assertThat(listening(port)).as("nothing listens on " + port + " after the orchestrator stopped").isFalse();
    assertThat(Files.readString(output.resolve("results.json"))).as("the results written so far stay readable")
        .contains("\"environment\"");
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
