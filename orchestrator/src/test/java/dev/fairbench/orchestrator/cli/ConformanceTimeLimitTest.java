package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `conformance --time-limit`: how long the suite may judge one server, with --url and with entries alike. */
class ConformanceTimeLimitTest {
  @TempDir Path temp;

  /** Answers every request rightly for /plaintext, after 200 ms: a correct server, only slow. */
  private static HttpServer slowServer() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", exchange -> {
      try (exchange) {
        Thread.sleep(200);
        byte[] body = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.start();
    return server;
  }

  @Test
  void aSlowServerIsJudgedNoLongerThanTheTimeLimitGivenAndWhatWasLeftFailsAsNotJudged() throws Exception {
    HttpServer server = slowServer();
    try {
      Path json = temp.resolve("report.json");
      long start = System.nanoTime();

      CliRun run = CliRun.of("conformance", "--url", "http://127.0.0.1:" + server.getAddress().getPort(),
          "--time-limit", "3s", "--json", json.toString());

      // At 200 ms an answer the whole suite would take many minutes; a check under way ends at its next request.
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(45));
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.FAILED);
      assertThat(run.stdout()).contains("1.1     PASS");
      assertThat(Files.readString(json)).contains("not judged: the suite's time limit of 3 s had passed");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void theTimeLimitGivenBindsTheSuiteOfEveryEntryChecked() throws Exception {
    Path output = temp.resolve("checked");

    CliRun run = CliRun.of("conformance", "--runtime", "native", "--impls", TestEntries.impls().toString(),
        "--time-limit", "1ms", "--output", output.toString(), "tiny-python:stdlib");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.stdout()).contains("tiny-python:stdlib").contains("conformance-failed");
    try (Stream<Path> reports = Files.list(output.resolve("conformance"))) {
      Path report = reports.filter(p -> p.getFileName().toString().startsWith("tiny-python")).findFirst().orElseThrow();
      assertThat(Files.readString(report)).contains("not judged: the suite's time limit of 1 ms had passed");
    }
  }

  @Test
  void aTimeLimitOfNothingOrNotADurationIsAUsageErrorBeforeAnythingRuns() {
    CliRun zero = CliRun.of("conformance", "--url", "http://127.0.0.1:1", "--time-limit", "0");
    assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(zero.stderr()).contains("--time-limit must be more than 0").doesNotContain("cannot reach");

    CliRun soon = CliRun.of("conformance", "--url", "http://127.0.0.1:1", "--time-limit", "soon");
    assertThat(soon.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(soon.stderr()).contains("'soon' is not a duration");
  }
}
