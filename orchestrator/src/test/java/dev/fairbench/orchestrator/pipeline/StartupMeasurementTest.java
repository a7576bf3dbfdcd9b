package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.ManifestReader;
import dev.fairbench.orchestrator.results.MemoryFigures;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.results.StartupFigures.StartTime;
import dev.fairbench.orchestrator.runtime.NativeRuntime;
import dev.fairbench.orchestrator.runtime.RunningServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real starts of the tiny-python fixture, natively. The cold start is left out: it drops the machine's page cache. */
class StartupMeasurementTest {
  @TempDir Path logs;

  @Test
  void threeWarmStartsOfTinyPythonGivePositiveOrderedFigures() throws Exception {
    EntryVariant variant = new ManifestReader().read(TestEntries.impls().resolve("tiny-python")).getFirst();
    NativeRuntime runtime = new NativeRuntime(logs);
    Limits limits = new Limits("1", "0", 256L << 20, 2);
    long before = System.nanoTime();
    try (RunningServer built = runtime.start(variant, limits, NativeRuntime.freePort())) {
      assertThat(built.launchedAt()).isBetween(before, System.nanoTime());
      assertThat(built.readyAt()).as("readiness records when /plaintext first answered").isGreaterThan(built.launchedAt());
      assertThat(built.memory().bytes()).isPositive();
    }

    StartupFigures figures = StartupMeasurement.measure(runtime, variant, limits, new StartupMeasurement.Options(3, false, 50));

    // The figures, for a reader of the surefire output (compare them with a `time` + curl loop by hand).
    System.out.println(dev.fairbench.orchestrator.results.ResultsJson.mapper().writeValueAsString(figures));
    assertThat(figures.note()).isEmpty();
    assertThat(figures.runtime()).isEqualTo("native");
    assertThat(figures.pollMillis()).isEqualTo(StartupMeasurement.POLL_MILLIS);
    assertThat(figures.warm()).containsOnlyKeys("plaintext", "json", "user", "validate", StartupFigures.ALL);
    StartTime all = figures.warm().get(StartupFigures.ALL);
    for (var entry : figures.warm().entrySet()) {
      StartTime t = entry.getValue();
      assertThat(t.n()).as(entry.getKey()).isEqualTo(3);
      assertThat(t.millis()).as(entry.getKey()).hasSize(3).allSatisfy(ms -> assertThat(ms).isPositive().isLessThan(20_000));
      assertThat(t.minMillis()).isLessThanOrEqualTo(t.medianMillis());
      assertThat(t.medianMillis()).isLessThanOrEqualTo(t.maxMillis());
      for (int i = 0; i < 3; i++) {
        assertThat(all.millis().get(i)).as("every endpoint answered by the time all did").isGreaterThanOrEqualTo(t.millis().get(i));
      }
    }
    assertThat(figures.cold()).isEmpty();
    assertThat(figures.coldNote()).isEqualTo("not measured");

    MemoryFigures memory = figures.memory();
    assertThat(memory.idleBytes()).isPositive();
    assertThat(memory.afterWarmupBytes()).isPositive();
    assertThat(memory.peakBytes()).isGreaterThanOrEqualTo(Math.max(memory.idleBytes(), memory.afterWarmupBytes()));
    assertThat(memory.method()).isIn("cgroup-v1 memory.stat total_rss", "cgroup-v2 memory.stat anon", "smaps_rollup Pss_Anon");
    // WORKERS=2 forks two processes: the cgroup counts their shared pages once, and the figure stays far
    // below two Python interpreters' VmHWM summed plus the page cache.
    assertThat(memory.peakBytes()).isLessThan(200L << 20);

    assertThat(logs.resolve("tiny-python_stdlib.restart.server.log")).as("the extra starts log beside the run's server").exists();

    assertThat(figures.size().imageBytes()).isEqualTo(-1);
    assertThat(figures.size().buildOutputs()).as("py_compile leaves __pycache__").containsKey("__pycache__");
    assertThat(figures.size().buildOutputBytes()).isPositive();
    assertThat(List.of(figures.size().shownBytes())).containsExactly(figures.size().buildOutputBytes());
  }
}
