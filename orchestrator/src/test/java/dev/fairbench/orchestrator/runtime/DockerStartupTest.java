package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.pipeline.StartupMeasurement;
import dev.fairbench.orchestrator.results.StartupFigures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** Start times, memory and image size of the tiny-python fixture in a container. */
@EnabledIf("dev.fairbench.orchestrator.runtime.DockerRuntimeTest#dockerUsable")
class DockerStartupTest {
  private static final Limits LIMITS = new Limits("1", "0", 256L << 20, 1);

  @TempDir Path logs;

  @Test
  void aContainerStartIsTimedFromItsCreationAndItsImageSizedAboveItsBase(@TempDir Path dir) throws Exception {
    EntryVariant tiny = DockerRuntimeTest.tinyPython(dir, "", "/app/server.py");
    DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
    long before = System.nanoTime();
    try (RunningServer server = runtime.start(tiny, LIMITS, NativeRuntime.freePort())) {
      assertThat(server.launchedAt()).isGreaterThan(before);
      assertThat(server.readyAt()).isGreaterThan(server.launchedAt());
      MemoryReading memory = server.memory();
      assertThat(memory.method()).isIn(MemoryReading.V1_METHOD, MemoryReading.V2_METHOD);
      assertThat(memory.bytes()).isPositive().isLessThan(256L << 20);
    }

    StartupFigures figures = StartupMeasurement.measure(runtime, tiny, LIMITS, new StartupMeasurement.Options(2, false, 20));
    System.out.println(dev.fairbench.orchestrator.results.ResultsJson.mapper().writeValueAsString(figures));

    assertThat(figures.note()).isEmpty();
    assertThat(figures.runtime()).isEqualTo("docker");
    StartupFigures.StartTime all = figures.warm().get(StartupFigures.ALL);
    assertThat(all.n()).isEqualTo(2);
    assertThat(all.minMillis()).isPositive().isLessThanOrEqualTo(all.maxMillis());
    assertThat(figures.memory().idleBytes()).isPositive();
    assertThat(figures.memory().peakBytes()).isGreaterThanOrEqualTo(figures.memory().idleBytes());
    assertThat(figures.size().imageBytes()).isPositive();
    assertThat(figures.size().baseImage()).isEqualTo("python:3.11-slim-bookworm");
    assertThat(figures.size().layersAboveBase()).isGreaterThanOrEqualTo(1);
    assertThat(figures.size().bytesAboveBase()).isPositive().isLessThan(figures.size().imageBytes());
    assertThat(figures.size().buildOutputBytes()).isEqualTo(-1);
  }

  @Test
  void aStartWithoutABuildNeedsTheImage(@TempDir Path dir) throws Exception {
    EntryVariant never = DockerRuntimeTest.variant(dir, "never-built-" + ProcessHandle.current().pid(), "default");

    assertThatThrownBy(() -> new DockerRuntime(logs, "test").startBuilt(never, LIMITS, NativeRuntime.freePort()))
        .isInstanceOfSatisfying(ServerStartException.class,
            e -> assertThat(e.stage()).isEqualTo(ServerStartException.Stage.BUILD_FAILED))
        .hasMessageContaining("no image fairbench/never-built-");
  }
}
