package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.ProcFs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native server runs as root and can write itself out of its cgroups (src/test/resources/faults/
 * tiny-escapes): then it may use the load client's CPU and its CPU time goes uncounted. Checked after
 * the start, before the suite, and again after the runs.
 */
@EnabledIf("rootWithCgroups")
class OutsideLimitsTest {
  @TempDir static Path output;
  static String stderr;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runTheEscapingEntries() throws Exception {
    Path faults = TestEntries.impls().getParent().resolve("faults");
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", faults.toString(), "tiny-escapes", "--endpoints", "json",
        "--warmup", "0", "--rewarm", "0", "--rounds", "2", "--duration", "1s", "--startups", "1", "--no-calibration",
        "--seed", "3", "--output", output.resolve("run").toString());
    stderr = run.stderr();
    ResultsDocument results = ResultsJson.read(output.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  @Test
  void aServerOutsideItsCgroupsAfterTheStartIsNotMeasured() {
    EntryResult atStart = entries.get("tiny-escapes:at-start");
    assertThat(atStart.status()).as(stderr).isEqualTo(EntryStatus.LIMITS_FAILED);
    assertThat(atStart.reason()).contains("runs outside its limits: pid ").contains("is not in the server's cgroups");
    assertThat(atStart.conformance()).as("not even the suite").isNull();
  }

  @Test
  void aServerThatLeftItsProcessTreeAndItsCgroupsIsFoundByItsSocketAndStoppedWithTheRest() throws Exception {
    EntryResult daemon = entries.get("tiny-escapes:daemon");
    assertThat(daemon.status()).as(stderr).isEqualTo(EntryStatus.LIMITS_FAILED);
    assertThat(daemon.reason()).contains("is not in the server's cgroups");
    assertThat(processesWithTheirEnvironmentHolding("TINY_FAULT=escape-daemon")).as("left running after the run").isEmpty();
  }

  @Test
  void aDaemonBesideTheServerOutsideItsCgroupsIsFoundByTheMarkerItInheritedAndStopped() throws Exception {
    EntryResult helper = entries.get("tiny-escapes:helper");
    assertThat(helper.status()).as(stderr).isEqualTo(EntryStatus.LIMITS_FAILED);
    assertThat(helper.reason()).contains("is not in the server's cgroups");
    assertThat(processesWithTheirEnvironmentHolding("TINY_FAULT=escape-helper")).as("left running after the run").isEmpty();
  }

  @Test
  void aServerThatLeavesItsCgroupsUnderLoadHasItsCellFailedAfterTheRuns() {
    CellResult cell = entries.get("tiny-escapes:under-load").cells().getFirst();
    assertThat(cell.status()).as(stderr).isEqualTo(CellStatus.PARTIAL);
    assertThat(cell.reason()).startsWith("after the runs it ran outside its limits: pid ")
        .contains("is not in the server's cgroups");
    assertThat(stderr).contains("1 server was found outside its limits after the runs");
  }

  @Test
  void aServerThatStaysInsideIsMeasured() {
    EntryResult steady = entries.get("tiny-escapes:steady");
    assertThat(steady.status()).isEqualTo(EntryStatus.MEASURED);
    assertThat(steady.cells().getFirst().status()).isEqualTo(CellStatus.MEASURED);
  }

  /** The processes whose environment holds the assignment NAME=value (as /proc/PID/environ has it). */
  private static List<Long> processesWithTheirEnvironmentHolding(String assignment) {
    String name = assignment.substring(0, assignment.indexOf('='));
    String value = assignment.substring(assignment.indexOf('=') + 1);
    return ProcFs.withVariable(name).entrySet().stream().filter(e -> e.getValue().equals(value))
        .map(Map.Entry::getKey).toList();
  }

  static boolean rootWithCgroups() {
    return "root".equals(System.getProperty("user.name"))
        && (Files.isDirectory(Path.of("/sys/fs/cgroup/cpuset")) || Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers")));
  }
}
