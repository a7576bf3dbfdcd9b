package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `fairbench rate` end to end on the fixture entries: the conformant Python server gets 20 req/s
 * for 2 s on two endpoints, the variant that FAILs conformance is not loaded; and the usage errors.
 */
class RateCommandTest {
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
  void rateCellsAreCellsOfTheSamePipelineAndTheSameResultsDocument() throws Exception {
    assertThat(TestEntries.onPath("oha")).as("oha must be on PATH (cargo install oha --locked)").isTrue();
    assertThat(TestEntries.onPath("python3")).as("python3 runs the fixture server").isTrue();
    Path dir = temp.resolve("rate");

    int exit = execute("rate", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
        "tiny-python:wrong-json", "--rate", "20,5%", "--duration", "2s", "--warmup", "1s", "--rewarm", "0",
        "--rounds", "2", "--connections", "4", "--endpoints", "plaintext,validate", "--no-calibration",
        "--output", dir.toString());

    assertThat(exit).as(err.toString()).isEqualTo(ExitCodes.FAILED);
    ResultsDocument document = ResultsJson.read(dir.resolve("results.json"));
    assertThat(document.method().kind()).isEqualTo(CellKind.RATE);
    assertThat(document.method().rates()).containsExactly("20", "5%");
    assertThat(document.environment().loadGenerator()).startsWith("oha ");
    Map<String, EntryResult> entries =
        document.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));

    EntryResult wrong = entries.get("tiny-python:wrong-json");
    assertThat(wrong.status()).isEqualTo(EntryStatus.CONFORMANCE_FAILED);
    assertThat(wrong.reason()).contains("2.3").contains("not benchmarked");
    assertThat(wrong.cells()).isEmpty();

    EntryResult good = entries.get("tiny-python:stdlib");
    assertThat(good.status()).as(good.reason()).isEqualTo(EntryStatus.MEASURED);
    assertThat(good.cells()).extracting(CellResult::name)
        .containsExactly("plaintext@20", "plaintext@5%", "validate@20", "validate@5%");
    for (CellResult cell : good.cells()) {
      assertThat(cell.kind()).isEqualTo(CellKind.RATE);
      assertThat(cell.status()).as(cell.reason()).isEqualTo(CellStatus.MEASURED);
      assertThat(cell.countedRuns()).hasSize(2);
      for (RunRecord run : cell.countedRuns()) {
        RunRecord.RateRecord rate = run.rate();
        if (cell.rate().equals("20")) {
          // 20 req/s for 2 s: 40 scheduled; a timer tick either side is tolerated in what was sent.
          assertThat(rate.scheduled()).isEqualTo(40);
          assertThat(rate.sent()).as(cell.name()).isBetween(36L, 42L);
        } else {
          assertThat(rate.targetRate()).as("5% of the maximum measured in the warm-up").isPositive().isNotEqualTo(20.0);
        }
        assertThat(rate.statuses()).containsOnlyKeys("200");
        assertThat(rate.clientErrors()).isEmpty();
        assertThat(rate.unsent()).isEqualTo(Math.max(0, rate.scheduled() - rate.sent()));
        // The requests due in the run's last 10 ms that oha's deadline cut are the client's, left out of success.
        assertThat(rate.cutAtDeadline()).isLessThanOrEqualTo(rate.unsent());
        assertThat(rate.successRate()).isEqualTo((double) rate.ok() / (rate.scheduled() - rate.cutAtDeadline()));
        assertThat(run.latencyMicros().p50()).isPositive().isLessThanOrEqualTo(run.latencyMicros().p99());
        assertThat(run.serverCpuSeconds()).isPositive();
      }
      assertThat(cell.stats().rate()).isNotNull();
    }
    String report = Files.readString(dir.resolve("report.md"));
    assertThat(report).contains("## Constant rate").containsPattern("\\| tiny-python:stdlib \\| plaintext@20 \\| [0-9.,]+ / 20 \\|");
    assertThat(Files.readString(dir.resolve("report.html"))).contains("<section id=\"rate\">");
    assertThat(out.toString()).contains("Results: " + dir.resolve("results.json"));
  }

  @Test
  void helpExplainsTheRateTheCorrectionAndTheFlags() {
    assertThat(execute("rate", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("Usage: fairbench rate").contains("--rate=RATE").contains("--duration")
        .contains("--warmup").contains("--connections").contains("--endpoints").contains("--server-cpus")
        .contains("--client-cpus").contains("--memory").contains("--workers").contains("--impls")
        .contains("--rounds").contains("coordinated omission").contains("scheduled request");
  }

  @Test
  void theRateIsRequiredAndPositive() {
    assertThat(execute("rate", "--impls", TestEntries.impls().toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--mode rate needs --rate");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "0")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("a rate must be a positive number");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "--endpoints", "nope"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown endpoint \"nope\"");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "--server-cpus", "0",
        "--client-cpus", "0")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("must be disjoint");
  }

  /** An entry that does not exist: a rate let through stops the run there, before anything starts. */
  private static final String NO_SUCH_ENTRY = "no-such-entry";

  private String refusal(String command, String rate) {
    err.getBuffer().setLength(0);
    assertThat(execute(command, "--impls", TestEntries.impls().toString(), "--rate", rate, NO_SUCH_ENTRY))
        .as("--rate " + rate + ": " + err).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).as("--rate " + rate).doesNotContain("unknown entry").doesNotContain("\tat ")
        .contains("Try `fairbench " + command + " --help`.");
    assertThat(err.toString().lines().count()).as("--rate " + rate + ": one line and the pointer to --help").isEqualTo(2);
    return err.toString();
  }

  @Test
  void aRateIsFromOneRequestASecondToWhatOhaCanScheduleOrAShareOfTheMaximumUpTo100Percent() {
    assertThat(refusal("rate", "1e-9")).contains("a rate must be at least 1 request per second, so that every run "
        + "(whole seconds) schedules a request, got \"1e-9\"");
    assertThat(refusal("rate", "0.5")).contains("at least 1 request per second");
    assertThat(refusal("rate", "0")).contains("a rate must be a positive number of requests per second, got \"0\"");
    assertThat(refusal("rate", "-5")).contains("a rate must be a positive number of requests per second, got \"-5\"");
    assertThat(refusal("rate", "1e400")).contains("at most 1,000,000,000 requests per second (oha schedules requests "
        + "in whole nanoseconds), got \"1e400\"");
    assertThat(refusal("rate", "2e9")).contains("at most 1,000,000,000 requests per second");
    assertThat(refusal("rate", "150%")).contains("a share of the maximum is at most 100%, got \"150%\"");
    assertThat(refusal("rate", "1e400%")).contains("a share of the maximum is at most 100%");
    assertThat(refusal("rate", "0%")).contains("a share of the maximum must be more than 0%, got \"0%\"");
    for (String notANumber : new String[] {"NaN", "Infinity", "NaN%", "1000f", "0x10", "fast", "%", ""}) {
      assertThat(refusal("rate", notANumber)).contains("a rate is a number of requests per second (1000) or a share "
          + "of the cell's maximum (90%), got \"" + notANumber + "\"");
    }
    for (String empty : new String[] {"10,", ",", "10,,5%"}) {
      assertThat(refusal("rate", empty)).as("picocli's split drops an empty part; it is refused all the same")
          .contains("got \"\"");
    }
    assertThat(refusal("run", "1e-9")).contains("at least 1 request per second");
    assertThat(refusal("run", ",")).as("not taken for no --rate, and a throughput run").contains("got \"\"");

    for (String rate : new String[] {"1", "1.5", "1e3", "1000000000", "100%", "0.5%", " 20 , 5% "}) {
      err.getBuffer().setLength(0);
      assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", rate, NO_SUCH_ENTRY))
          .isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString()).as("--rate " + rate + " is a rate").contains("unknown entry " + NO_SUCH_ENTRY);
    }
  }

  @Test
  void anUnknownEntryIsAUsageError() {
    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "nginx"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown entry nginx").contains("tiny-python:stdlib");
  }

  /** A fresh JVM with a PATH that lacks oha: the environment of this one cannot be changed. */
  @Test
  void withoutOhaItSaysSoInOneLineAndExits2() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    // As the fairbench launcher runs it: without the flag, Java 22+ warns on stderr when JNA loads
    // (Testcontainers looking for a Docker engine that is not running).
    List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        "-Dfairbench.verdicts=none",
        "-D" + FairbenchPaths.ROOT_PROPERTY + "=" + TestEntries.repositoryRoot(),
        FairbenchCommand.class.getName(), "rate", "--impls", TestEntries.impls().toString(), "--rate", "10",
        "--output", temp.resolve("none").toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    Path stderr = temp.resolve("stderr.txt");
    Process process = builder.redirectError(stderr.toFile()).start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(Files.readString(stderr)).isEqualTo(ExitCodes.USAGE);
    assertThat(Files.readString(stderr).strip()).isEqualTo("fairbench rate: unavailable: " + OhaLoadGenerator.MISSING);
    assertThat(stdout).isEmpty();
    assertThat(temp.resolve("none")).doesNotExist();
  }
}
