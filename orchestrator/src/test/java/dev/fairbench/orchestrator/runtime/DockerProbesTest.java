package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.WorkersModel;
import dev.fairbench.orchestrator.results.Environment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** Versions, engine settings and workers read where a container's server runs, not on this machine. */
class DockerProbesTest {
  @Test
  void theStagesOfAClassicBuildAreTheImagesTheirLastStepsMade() {
    List<String> log = List.of(
        "$ docker build --network host -f impls/go-gin/Dockerfile -t fairbench/go-gin:default impls/go-gin",
        "Step 1/18 : ARG BUILD_IMAGE=golang:1.26-bookworm",
        "Step 3/18 : FROM ${BUILD_IMAGE} AS build",
        " ---> 64faa0e6de8d",
        "Step 4/18 : WORKDIR /src",
        " ---> Using cache",
        " ---> ac688125483b",
        "Step 9/18 : RUN go build -trimpath -ldflags=\"-s -w\" -o /out/server .",
        " ---> Running in 5e8e9a3c1d2f",
        "Removing intermediate container 5e8e9a3c1d2f",
        " ---> 3d7467050240",
        "Step 10/18 : FROM ${RUNTIME_IMAGE}",
        " ---> 2e8266cab4f2",
        "Step 11/18 : COPY --from=build /out/server /usr/local/bin/server",
        " ---> f0a1741fd850",
        "Successfully built f0a1741fd850");

    assertThat(ContainerCommands.buildStageImages(log)).containsExactly("3d7467050240");
    assertThat(ContainerCommands.buildStageImages(log.subList(9, log.size()))).as("one stage: no build stage").isEmpty();
  }

  @Test
  void engineSettingsComeFromDockerInfoAndTheKernelsViewOfAContainer() {
    Environment.EngineSettings settings = EngineSecurity.of(
        List.of("name=seccomp,profile=default", "name=cgroupns"),
        "Seccomp:\t2\nSeccomp_filters:\t1\napparmor: cat: /proc/self/attr/current: Invalid argument\n",
        List.of(), "cgroupfs", "1");

    assertThat(settings.seccomp()).isEqualTo("default (filter mode, 1 filter)");
    assertThat(settings.apparmor()).isEqualTo("none (the engine lists no AppArmor and the kernel reports no AppArmor label)");
    assertThat(settings.describe()).isEqualTo("seccomp default (filter mode, 1 filter); AppArmor none (the engine lists "
        + "no AppArmor and the kernel reports no AppArmor label); cgroup v1 (cgroupfs driver)");

    Environment.EngineSettings confined = EngineSecurity.of(
        List.of("name=apparmor", "name=seccomp,profile=builtin", "name=cgroupns"),
        "Seccomp:\t0\nSeccomp_filters:\t0\napparmor: docker-default (enforce)\n",
        List.of("seccomp=unconfined"), "systemd", "2");
    assertThat(confined.seccomp()).isEqualTo("builtin (off in the container)");
    assertThat(confined.apparmor()).isEqualTo("docker-default (enforce)");
    assertThat(confined.describe()).contains("security options seccomp=unconfined", "cgroup v2 (systemd driver)");
    assertThat(EngineSecurity.engineSeccomp(List.of("name=cgroupns"))).isEqualTo("none");
  }

  /**
   * Against a real engine: needs Docker, the local python:3.11-slim-bookworm, and the environment
   * the launcher exports (TESTCONTAINERS_RYUK_DISABLED, TESTCONTAINERS_HOST_OVERRIDE).
   */
  @Nested
  @EnabledIf("dev.fairbench.orchestrator.runtime.DockerRuntimeTest#dockerUsable")
  class WithAnEngine {
    private static final Limits LIMITS = new Limits("1", "0", 256L << 20, 1);

    @TempDir
    Path logs;

    @Test
    void versionsAreProbedInTheImageOrItsBuildStageNeverOnThisMachine(@TempDir Path dir) throws Exception {
      // The folder says one version, the image another: only the image's may be recorded.
      Files.writeString(dir.resolve("VERSION"), "fixture-runtime 1.0 (this machine)\n");
      Files.copy(TestEntries.impls().resolve("tiny-python/server.py"), dir.resolve("server.py"));
      Files.writeString(dir.resolve("Dockerfile"), """
          ARG RUNTIME_IMAGE=python:3.11-slim-bookworm
          FROM ${RUNTIME_IMAGE} AS build
          RUN printf '#!/bin/sh\\necho "fixture-toolchain 7.7"\\n' > /usr/local/bin/fixture-toolchain \\
           && chmod +x /usr/local/bin/fixture-toolchain

          FROM ${RUNTIME_IMAGE}
          WORKDIR /app
          COPY server.py /app/server.py
          RUN echo "fixture-runtime 2.0 (the image)" > /app/VERSION
          USER nobody
          CMD ["python3", "-u", "/app/server.py"]
          """);
      EntryVariant variant = new EntryVariant("tiny-versions", "default", dir, dir.resolve("fairbench.toml"), "Python",
          "http.server", "stdlib", "test", List.of(),
          Map.of("runtime", List.of("cat", "VERSION"), "toolchain", List.of("fixture-toolchain"),
              "missing", List.of("no-such-tool", "--version")),
          List.of(), List.of(), Duration.ofSeconds(300), List.of("python3", "-u", "server.py"), Map.of(),
          Duration.ofSeconds(30), WorkersModel.PROCESSES, "Dockerfile", Map.of(), List.of(), List.of());
      assertThat(EnvironmentProbe.versions(variant)).containsEntry("runtime", "fixture-runtime 1.0 (this machine)");

      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      try (RunningServer server = runtime.start(variant, LIMITS, 18821)) {
        Map<String, String> versions = runtime.versions(variant, server);
        assertThat(versions).containsEntry("framework", "stdlib")
            .containsEntry("runtime", "fixture-runtime 2.0 (the image)")
            .containsEntry("toolchain", "fixture-toolchain 7.7 (build stage)");
        assertThat(versions.get("missing")).startsWith("unknown (`no-such-tool --version` failed in the image fairbench/tiny-versions:default: ")
            .contains("in the build stage ");
      }
      // Without a running server (it failed after the build): the same image.
      assertThat(runtime.versions(variant, null)).containsEntry("runtime", "fixture-runtime 2.0 (the image)");
    }

    @Test
    void theEngineSettingsAreReadFromDockerInfoAndAContainerStartedLikeTheServers() {
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      Environment.EngineSettings settings = runtime.engineSettings(LIMITS);

      assertThat(settings.checked()).startsWith("a container of ");
      assertThat(settings.seccomp()).containsPattern("\\((filter mode|off in the container|strict mode)");
      assertThat(settings.cgroupDriver()).isIn("cgroupfs", "systemd");
      assertThat(settings.cgroupVersion()).isIn("1", "2");
      System.out.println("engine settings: " + settings.describe() + "; docker info: " + settings.securityOptions());
    }

    @Test
    void aContainersWorkersAreObservedWithTheSameSamplerAsANativeServers(@TempDir Path dir) throws Exception {
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      try (RunningServer server = runtime.start(DockerRuntimeTest.tinyPython(dir, "", "/app/server.py"), LIMITS, 18822)) {
        ThreadSample before = server.sampleThreads();
        assertThat(before.processTicks()).as("processes by their host pids, with their exited threads").isNotEmpty();
        // One keep-alive connection: tiny-python serves a connection on a thread of its own, so one
        // thread does all the work (four connections split it into shares near the 10% line).
        load(server.baseUrl().resolve("/json"), Duration.ofMillis(2500), 1);
        WorkerObservation workers = server.observeWorkers(before);

        assertThat(workers.model()).isEqualTo("processes");
        assertThat(workers.observed()).as("one busy process: WORKERS=1").isEqualTo(1);
        assertThat(workers.matches()).isTrue();
        assertThat(workers.listeningProcesses()).isEqualTo(1);
        assertThat(workers.threads()).as("the container's threads are read from the host's /proc").isPositive();
        // Busy threads are named as natively. On a loaded machine this reading has come out with no
        // thread over the 10% line although the process was (left open in the closing note of stop 17).
        assertThat(workers.busy()).hasSize(workers.busyThreads())
            .allSatisfy(b -> assertThat(b).matches(".+ \\(\\d+%\\)"));
      }
    }

    /** {@code connections} HTTP/1.1 clients requesting {@code uri} back to back for {@code length}. */
    private static void load(URI uri, Duration length, int connections) throws InterruptedException {
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> clients = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        clients.add(Thread.ofPlatform().start(() -> {
          try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            while (!stop.get()) {
              try {
                http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding());
              } catch (java.io.IOException e) {
                // the next request tries again
              } catch (InterruptedException e) {
                return;
              }
            }
          }
        }));
      }
      Thread.sleep(length.toMillis());
      stop.set(true);
      for (Thread client : clients) {
        client.join(10_000);
      }
    }
  }
}
