package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.RunRecord;

/** What a fully measured entry and a complete environment block look like. */
final class PipelineAssertions {
  private PipelineAssertions() {}

  static void environmentIsComplete(Environment env) {
    assertThat(env.timestamp()).isNotNull();
    assertThat(env.cpuModel()).isNotBlank();
    assertThat(env.cores()).isGreaterThanOrEqualTo(2);
    assertThat(env.kernel()).isNotBlank();
    assertThat(env.cgroupVersion()).isNotBlank();
    assertThat(env.limitsMode()).isIn("cgroup-v1", "cgroup-v2", "taskset");
    assertThat(env.runtime()).isEqualTo("native");
    assertThat(env.loadGenerator()).startsWith("wrk ");
    assertThat(env.gitCommit()).matches("[0-9a-f]{40}");
    assertThat(env.limits().serverCpus()).isNotBlank();
    assertThat(env.limits().memoryBytes()).isPositive();
    assertThat(env.load().connections()).isPositive();
    assertThat(env.orchestratorPlacement()).as("the orchestrator's move off the server CPUs is checked").contains("(checked)");
  }

  static void isFullyMeasured(EntryResult entry, int endpoints, int rounds) {
    assertThat(entry.status()).as(entry.id() + ": " + entry.reason() + "\n" + entry.logTail())
        .isEqualTo(EntryStatus.MEASURED);
    assertThat(entry.versions()).containsKey("framework").containsKey("runtime");
    assertThat(entry.versions().get("runtime")).doesNotStartWith("unknown");
    assertThat(entry.conformance()).isNotNull();
    assertThat(entry.conformance().verdict()).isIn(Verdict.PASS, Verdict.WARN);
    assertThat(entry.conformance().report()).endsWith(".json");
    assertThat(entry.cells()).hasSize(endpoints);
    for (CellResult cell : entry.cells()) {
      assertThat(cell.status()).as(cell.endpoint() + ": " + cell.reason()).isEqualTo(CellStatus.MEASURED);
      assertThat(cell.countedRuns()).as("one counted run per round").hasSize(rounds);
      assertThat(cell.countedRuns()).extracting(RunRecord::round).containsExactlyInAnyOrderElementsOf(
          java.util.stream.IntStream.rangeClosed(1, rounds).boxed().toList());
      for (RunRecord run : cell.runs()) {
        assertThat(run.requests()).as(cell.endpoint()).isPositive();
        assertThat(run.requestsPerSecond()).isPositive();
        assertThat(run.durationSeconds()).isPositive();
        assertThat(run.bytes()).isPositive();
        assertThat(run.latencyMicros().p50()).isPositive();
        assertThat(run.latencyMicros().max()).isGreaterThanOrEqualTo(run.latencyMicros().p99());
        assertThat(run.serverCpuSeconds()).as(cell.endpoint() + " server CPU").isPositive();
        assertThat(run.serverPeakRssBytes()).isPositive();
        assertThat(run.clientCpuSeconds()).as(cell.endpoint() + " client CPU").isPositive();
        assertThat(run.clientCpuUtilisation()).isPositive();
        assertThat(run.disturbance()).as("every run records its disturbance").isNotNull();
      }
      assertThat(cell.stats()).isNotNull();
      assertThat(cell.stats().medianRequestsPerSecond()).isPositive();
      assertThat(cell.stats().microsPerRequest()).isPositive();
      assertThat(cell.stats().cpuMicrosPerRequest()).isPositive();
      assertThat(cell.stats().peakRssBytes()).isPositive();
      assertThat(cell.workers()).isNotNull();
      assertThat(cell.workers().requested()).isEqualTo(1);
      assertThat(cell.workers().processes()).isPositive();
      assertThat(cell.workers().listeningProcesses()).isPositive();
      assertThat(cell.workers().threads()).isPositive();
    }
  }
}
