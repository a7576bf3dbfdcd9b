package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.load.ConstantRateResult;
import dev.fairbench.orchestrator.load.OhaLoadGenerator;
import dev.fairbench.orchestrator.load.RateResults;
import dev.fairbench.orchestrator.load.RateResults.Cell;
import dev.fairbench.orchestrator.load.RateResults.EntryRecord;
import dev.fairbench.orchestrator.load.RateResults.Measurement;
import dev.fairbench.orchestrator.results.EntryStatus;
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
  void loadsTheConformantEntryAtTheRateAndSkipsTheOneThatFailsConformance() throws Exception {
    assertThat(TestEntries.onPath("oha")).as("oha must be on PATH (cargo install oha --locked)").isTrue();
    assertThat(TestEntries.onPath("python3")).as("python3 runs the fixture server").isTrue();
    Path dir = temp.resolve("rate");

    int exit = execute("rate", "--runtime", "native", "--impls", TestEntries.impls().toString(), "tiny-python:stdlib",
        "tiny-python:wrong-json", "--rate", "20", "--duration", "2s", "--warmup", "1s", "--connections", "4",
        "--endpoints", "plaintext,validate", "--output", dir.toString());

    assertThat(exit).as(err.toString()).isEqualTo(ExitCodes.FAILED);
    RateResults.Document document = RateResults.read(dir.resolve("rate.json"));
    assertThat(document.kind()).isEqualTo("constant-rate");
    assertThat(document.environment().loadGenerator()).startsWith("oha ");
    assertThat(document.environment().endpoints()).containsExactly("plaintext", "validate");
    assertThat(document.settings().targetRate()).isEqualTo(20);
    assertThat(document.settings().latencyCorrection()).isTrue();
    Map<String, EntryRecord> entries =
        document.entries().stream().collect(Collectors.toMap(EntryRecord::id, Function.identity()));

    EntryRecord wrong = entries.get("tiny-python:wrong-json");
    assertThat(wrong.status()).isEqualTo(EntryStatus.CONFORMANCE_FAILED);
    assertThat(wrong.reason()).contains("2.3").contains("not loaded");
    assertThat(wrong.cells()).isEmpty();
    assertThat(dir.resolve(wrong.conformance().report())).exists();

    EntryRecord good = entries.get("tiny-python:stdlib");
    assertThat(good.status()).as(good.reason()).isEqualTo(EntryStatus.MEASURED);
    assertThat(good.conformance().verdict()).isNotEqualTo("FAIL");
    assertThat(good.cells()).extracting(Cell::endpoint).containsExactly("plaintext", "validate");
    for (Cell cell : good.cells()) {
      assertThat(cell.status()).as(cell.reason()).isEqualTo(Cell.MEASURED);
      Measurement m = cell.measurement();
      assertThat(m.scheduled()).isEqualTo(40);
      // 20 req/s for 2 s: oha schedules 40; a timer tick either side is tolerated.
      assertThat(m.sent()).as(cell.endpoint()).isBetween(36L, 42L);
      assertThat(m.statusCounts()).containsOnlyKeys("200");
      assertThat(m.completed()).isEqualTo(m.sent());
      assertThat(m.errorCounts()).isEmpty();
      assertThat(m.successRate()).isEqualTo(1.0);
      assertThat(m.achievedRate()).isBetween(17.0, 21.0);
      assertThat(m.latencyMicros().p50()).isPositive().isLessThanOrEqualTo(m.latencyMicros().p99());
      assertThat(m.latencyMicros().p99()).isLessThanOrEqualTo(m.latencyMicros().max());
      assertThat(m.serverCpuSeconds()).isPositive();
      assertThat(m.serverPeakRssBytes()).isPositive();
      assertThat(m.clientCpuSeconds()).isNotNegative();
      assertThat(cell.flags()).doesNotContain("invalid");
    }

    String table = out.toString();
    assertThat(table).containsPattern("entry\\s+endpoint\\s+status 200\\s+other status\\s+errors\\s+success\\s+p50 ms"
        + "\\s+p99 ms\\s+max ms\\s+achieved/target req/s\\s+flags");
    assertThat(table).containsPattern("tiny-python:stdlib\\s+plaintext\\s+\\d+\\s+0\\s+0\\s+100\\.000%");
    assertThat(table).containsPattern("tiny-python:stdlib\\s+validate\\s+\\d+\\s+0\\s+0\\s+100\\.000%");
    assertThat(table).contains("not loaded: tiny-python:wrong-json: conformance-failed: conformance FAIL in clause");
    assertThat(table).contains("Results: " + dir.resolve("rate.json"));
    assertThat(err.toString()).contains("[1/2] tiny-python:stdlib").contains("plaintext: ").contains("req/s");
  }

  @Test
  void theTableHasARowPerCellAndSaysWhyTheOthersWereNotLoaded() {
    Measurement late = new Measurement(6000, 1958.1, 2.03, 12000, 3990, 3980, 10, 3970.0 / 3990,
        Map.of("200", 3970L, "503", 10L), Map.of("timeout", 10L),
        new ConstantRateResult.Latency(642064, 1278232, 1351233, 1374549, 1374624, 717074), 1.9, 50_000_000,
        60_000_000, 0.2, 0.1);
    EntryRecord measured = new EntryRecord("py-fastapi", "py-fastapi", "default", "Python", "FastAPI", Map.of(),
        EntryStatus.PARTIAL, "some endpoints could not be measured", "", null,
        List.of(new Cell("json", Cell.MEASURED, "", late, List.of("saturated", "invalid")),
            new Cell("user", Cell.FAILED, "the server exited with code 1 during the run", null, List.of())));
    EntryRecord skipped = new EntryRecord("elixir-phoenix", "elixir-phoenix", "default", "Elixir", "Phoenix",
        Map.of(), EntryStatus.UNAVAILABLE, "hex.pm is unreachable", "", null, List.of());

    assertThat(RateCommand.table(List.of(measured, skipped)).lines().toList()).containsExactly(
        "entry       endpoint  status 200  other status  errors  success  p50 ms   p99 ms   max ms"
            + "  achieved/target req/s  flags",
        "py-fastapi  json            3970            10      10  99.499%  642.06  1351.23  1374.62"
            + "          1958.1 / 6000  saturated, invalid",
        "py-fastapi  user               -             -       -        -       -        -        -"
            + "                      -  failed: the server exited with code 1 during the run",
        "not loaded: elixir-phoenix: unavailable: hex.pm is unreachable");
  }

  @Test
  void helpExplainsTheRateTheCorrectionAndTheFlags() {
    assertThat(execute("rate", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("Usage: fairbench rate").contains("--rate=REQ/S").contains("--duration")
        .contains("--warmup").contains("--connections").contains("--endpoints").contains("--server-cpus")
        .contains("--client-cpus").contains("--memory").contains("--workers").contains("--impls")
        .contains("--latency-correction").contains("saturated").contains("invalid");
  }

  @Test
  void theRateIsRequiredAndPositive() {
    assertThat(execute("rate", "--impls", TestEntries.impls().toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--rate");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "0")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--rate must be a positive number");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "--endpoints", "nope"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown endpoint \"nope\"");

    assertThat(execute("rate", "--impls", TestEntries.impls().toString(), "--rate", "10", "--server-cpus", "0",
        "--client-cpus", "0")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("must be disjoint");
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
    List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
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
