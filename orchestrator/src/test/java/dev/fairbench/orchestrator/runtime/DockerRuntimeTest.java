package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.WorkersModel;
import dev.fairbench.orchestrator.runtime.DockerRuntime.LimitsReadBack;
import dev.fairbench.orchestrator.runtime.DockerServer.CgroupFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

class DockerRuntimeTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void cgroupV1FilesComeFromTheCpuacctAndMemoryHierarchies() {
    CgroupFiles files = CgroupFiles.parse(42, List.of(
        "12:pids:/docker/abc",
        "5:memory:/docker/abc",
        "3:cpuacct:/docker/abc",
        "1:name=systemd:/docker/abc"), Path.of("/sys/fs/cgroup"));

    assertThat(files.cpuUsage()).isEqualTo(Path.of("/sys/fs/cgroup/cpuacct/docker/abc/cpuacct.usage"));
    assertThat(files.cpuInNanos()).isTrue();
    assertThat(files.memoryPeak()).isEqualTo(Path.of("/sys/fs/cgroup/memory/docker/abc/memory.max_usage_in_bytes"));
    assertThat(files.procs()).isEqualTo(Path.of("/sys/fs/cgroup/cpuacct/docker/abc/cgroup.procs"));
  }

  @Test
  void cgroupV1CombinedControllersUseTheCombinedMount(@TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("cpu,cpuacct"));

    CgroupFiles files = CgroupFiles.parse(42, List.of("4:cpu,cpuacct:/docker/abc"), root);

    assertThat(files.cpuUsage()).isEqualTo(root.resolve("cpu,cpuacct/docker/abc/cpuacct.usage"));
  }

  @Test
  void cgroupV2FilesComeFromTheUnifiedHierarchy() {
    CgroupFiles files = CgroupFiles.parse(42, List.of("0::/system.slice/docker-abc.scope"), Path.of("/sys/fs/cgroup"));

    assertThat(files.cpuUsage()).isEqualTo(Path.of("/sys/fs/cgroup/system.slice/docker-abc.scope/cpu.stat"));
    assertThat(files.cpuInNanos()).isFalse();
    assertThat(files.memoryPeak()).isEqualTo(Path.of("/sys/fs/cgroup/system.slice/docker-abc.scope/memory.peak"));
  }

  @Test
  void cgroupV2CpuSecondsAreReadFromUsageUsec(@TempDir Path root) throws IOException {
    Path group = Files.createDirectories(root.resolve("docker/abc"));
    Files.writeString(group.resolve("cpu.stat"), "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n");
    Files.writeString(group.resolve("memory.peak"), "73400320\n");

    CgroupFiles files = CgroupFiles.parse(42, List.of("0::/docker/abc"), root);

    assertThat(files.cpuSeconds()).isEqualTo(2.5);
    assertThat(files.memoryPeakBytes()).isEqualTo(73400320L);
  }

  @Test
  void aVanishedCgroupReadsAsUnknown(@TempDir Path root) {
    CgroupFiles files = CgroupFiles.parse(42, List.of("3:cpuacct:/docker/gone", "5:memory:/docker/gone"), root);

    assertThat(files.cpuSeconds()).isEqualTo(-1);
    assertThat(files.memoryPeakBytes()).isEqualTo(-1);
    assertThat(files.pids()).isEmpty();
  }

  @Test
  void limitsReadBackNamesEveryDifference() {
    Limits asked = new Limits("1", "0", 512 * MIB, 1);

    OpenFileLimit nofile = new OpenFileLimit(8192, 8192, "docker inspect HostConfig.Ulimits");
    assertThat(new LimitsReadBack("1", 512 * MIB, 512 * MIB, nofile).differences(asked)).isEmpty();
    assertThat(new LimitsReadBack("0-1", 512 * MIB, -1, nofile).differences(asked))
        .isEqualTo("cpuset 0-1 instead of 1; memory+swap -1 instead of 536870912 bytes");
    assertThat(new LimitsReadBack(null, 0, 0, null).differences(asked))
        .contains("cpuset null instead of 1", "memory 0 instead of 536870912 bytes", "nofile unset instead of 8192:8192");
    assertThat(new LimitsReadBack("1", 512 * MIB, 512 * MIB, new OpenFileLimit(1024, 4096, "x")).differences(asked))
        .isEqualTo("nofile 1024:4096 instead of 8192:8192");
  }

  @Test
  void missingEnvironmentNamesWhatTestcontainersNeedsHere() {
    assertThat(DockerRuntime.missingEnvironment(Map.of()))
        .containsExactly("TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1", "TESTCONTAINERS_RYUK_DISABLED=true");
    assertThat(DockerRuntime.missingEnvironment(
        Map.of("TESTCONTAINERS_RYUK_DISABLED", "TRUE", "TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1"))).isEmpty();
    assertThat(DockerRuntime.missingEnvironment(
        Map.of("TESTCONTAINERS_RYUK_DISABLED", "false", "TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")))
        .containsExactly("TESTCONTAINERS_RYUK_DISABLED=true");
  }

  @Test
  void aBaseImageThatCannotBePulledPointsToMakeBaseImages() {
    assertThat(DockerRuntime.hint("Step 1/9 : FROM golang:1.26-bookworm\n"
        + "Get \"https://registry-1.docker.io/v2/\": dial tcp: lookup registry-1.docker.io: no such host"))
        .contains("docker/make-base-images");
    assertThat(DockerRuntime.hint("pull access denied for fairbench/nothing, repository does not exist"))
        .contains("docker/make-base-images");
    assertThat(DockerRuntime.hint("error[E0308]: mismatched types")).isEmpty();
  }

  @Test
  void onlyContainersNamedByTheRuntimeForARunThatIsGoneCountAsLeftovers() {
    long alive = ProcessHandle.current().pid();
    assertThat(DockerRuntime.legacyOfDeadRun("fairbench-20260101-120000-" + alive + "-1-go-gin_default")).isFalse();
    assertThat(DockerRuntime.legacyOfDeadRun("fairbench-20260101-120000-999999999-1-go-gin_default")).isTrue();
    assertThat(DockerRuntime.legacyOfDeadRun("fairbench-test-42-3-tiny-python_default")).isTrue();
    assertThat(DockerRuntime.legacyOfDeadRun("silly_gates")).as("run by hand from a fairbench image").isFalse();
  }

  @Test
  void imageNamesAreLowerCaseEntryAndVariant() {
    assertThat(DockerRuntime.imageName(variant(Path.of("/x"), "Tiny-Python", "granian-orjson")))
        .isEqualTo("fairbench/tiny-python:granian-orjson");
  }

  /**
   * Against a real engine: needs Docker, the local python:3.11-slim-bookworm (or a registry), and
   * the environment the launcher exports (TESTCONTAINERS_RYUK_DISABLED, TESTCONTAINERS_HOST_OVERRIDE).
   */
  @Nested
  @EnabledIf("dev.fairbench.orchestrator.runtime.DockerRuntimeTest#dockerUsable")
  class WithAnEngine {
    private static final Limits LIMITS = new Limits("1", "0", 256 * MIB, 1);

    @TempDir
    Path logs;

    @Test
    void runsTheEntryOnTheHostNetworkUnderTheLimitsAndRemovesItOnClose(@TempDir Path dir) throws Exception {
      EntryVariant tiny = tinyPython(dir, "", "/app/server.py");
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      String containerId;
      try (RunningServer server = runtime.start(tiny, LIMITS, 18811)) {
        DockerServer docker = (DockerServer) server;
        containerId = docker.containerId();
        HttpResponse<String> response = get(server.baseUrl().resolve("/plaintext"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello, World!");

        InspectContainerResponse inspect = client().inspectContainerCmd(containerId).exec();
        assertThat(inspect.getHostConfig().getNetworkMode()).isEqualTo("host");
        assertThat(inspect.getConfig().getEnv()).contains("HOST=127.0.0.1", "PORT=18811", "WORKERS=1");
        assertThat(inspect.getConfig().getLabels()).containsEntry(DockerRuntime.LABEL_ENTRY, "tiny-python");
        assertThat(docker.limitsReadBack())
            .isEqualTo("cpuset 1, memory 268435456 B, memory+swap 268435456 B, nofile=8192:8192");
        assertThat(inspect.getHostConfig().getUlimits()).extracting(u -> u.getName() + "=" + u.getSoftLong() + ":" + u.getHardLong())
            .containsExactly("nofile=8192:8192");
        assertThat(docker.openFiles()).hasValueSatisfying(l -> {
          assertThat(l.is(8192)).isTrue();
          assertThat(l.source()).isEqualTo("/proc/1/limits of the container");
        });
        String base = DockerServer.imageLabels(client(), "python:3.11-slim-bookworm").get(DockerRuntime.LABEL_OFFLINE_BASE);
        assertThat(docker.offlineBase()).isEqualTo(Optional.ofNullable(base));

        ThreadSample before = server.sampleThreads();
        for (int i = 0; i < 200; i++) {
          get(server.baseUrl().resolve("/json"));
        }
        ResourceUsage usage = server.usage();
        assertThat(usage.cpuSeconds()).isPositive();
        assertThat(usage.source()).startsWith("docker-cgroup");
        assertThat(usage.memoryPeakBytes()).isPositive().isLessThanOrEqualTo(256 * MIB);
        assertThat(server.observeWorkers(before).processes()).isGreaterThanOrEqualTo(1);
        assertThat(server.isAlive()).isTrue();
      }
      assertThat(client().listContainersCmd().withShowAll(true).withIdFilter(List.of(containerId)).exec()).isEmpty();
    }

    @Test
    void aPausedContainerAnswersNothingAndUsesNoCpuUntilItIsUnpaused(@TempDir Path dir) throws Exception {
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      RunningServer server = runtime.start(tinyPython(dir, "", "/app/server.py"), LIMITS, 18814);
      String containerId = ((DockerServer) server).containerId();
      try {
        FreezeTiming frozen = server.freeze();
        assertThat(frozen.mechanism()).isEqualTo("docker-pause");
        assertThat(server.frozen()).isTrue();
        assertThat(client().inspectContainerCmd(containerId).exec().getState().getPaused()).isTrue();
        assertThat(server.isAlive()).as("paused is alive").isTrue();
        try (PendingRequest pending = new PendingRequest(18814)) {
          double cpu = server.usage().cpuSeconds();
          assertThat(pending.answeredWithin(Duration.ofSeconds(1))).as("a paused server answers nothing").isFalse();
          assertThat(server.usage().cpuSeconds()).as("a paused server uses no CPU").isEqualTo(cpu);

          FreezeTiming thawed = server.thaw();
          assertThat(server.frozen()).isFalse();
          assertThat(pending.response(Duration.ofSeconds(5))).as("the pending request is answered after the unpause")
              .startsWith("HTTP/1.1 200").endsWith("Hello, World!");
          System.out.printf(java.util.Locale.ROOT, "docker-pause: pause %.3f ms, unpause %.3f ms%n",
              frozen.took().toNanos() / 1e6, thawed.took().toNanos() / 1e6);
        }
        assertThat(get(server.baseUrl().resolve("/plaintext")).body()).isEqualTo("Hello, World!");
        server.freeze();
      } finally {
        server.close();
      }
      assertThat(client().listContainersCmd().withShowAll(true).withIdFilter(List.of(containerId)).exec())
          .as("a paused container is removed on close").isEmpty();
      assertThatThrownBy(server::thaw).isInstanceOf(FreezeException.class).hasMessageContaining("closed");
    }

    @Test
    void aContainerKilledForItsMemoryIsReportedAsSuch(@TempDir Path dir) throws Exception {
      // Once ready, the server's own process fills 400 MiB: over the 256 MiB limit, with no swap.
      Files.writeString(dir.resolve("hog.py"), """
          import runpy, threading
          threading.Timer(3, lambda: globals().__setitem__("hog", b"x" * (400 * 1024 * 1024))).start()
          runpy.run_path("/app/server.py", run_name="__main__")
          """);
      EntryVariant hog = tinyPython(dir, "COPY hog.py /app/hog.py", "/app/hog.py");
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());
      try (RunningServer server = runtime.start(hog, LIMITS, 18812)) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (server.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertThat(server.exitReason()).hasValueSatisfying(
            reason -> assertThat(reason).contains("killed for exceeding its memory limit of 256 MiB"));
      }
    }

    @Test
    void aFailingBuildKeepsTheTailOfItsLog(@TempDir Path dir) throws Exception {
      EntryVariant broken = tinyPython(dir,
          "RUN echo 'compiling main.c'; echo 'main.c:3: error: expected ;' >&2; exit 3", "/app/server.py");
      DockerRuntime runtime = new DockerRuntime(logs, "test-" + ProcessHandle.current().pid());

      assertThatThrownBy(() -> runtime.start(broken, LIMITS, 18813))
          .isInstanceOfSatisfying(ServerStartException.class, e -> {
            assertThat(e.stage()).isEqualTo(ServerStartException.Stage.BUILD_FAILED);
            assertThat(e.logTail()).contains("main.c:3: error: expected ;");
            assertThat(e.getMessage()).contains("docker build failed", "main.c:3: error: expected ;");
          });
    }
  }

  static boolean dockerUsable() {
    return DockerRuntime.missingEnvironment(System.getenv()).isEmpty()
        && DockerClientFactory.instance().isDockerAvailable();
  }

  private static DockerClient client() {
    return DockerClientFactory.instance().client();
  }

  private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  /** The orchestrator's tiny-python fixture in a folder of its own, with a Dockerfile. */
  static EntryVariant tinyPython(Path dir, String extraStep, String script) throws IOException {
    Files.copy(TestEntries.impls().resolve("tiny-python/server.py"), dir.resolve("server.py"));
    Files.writeString(dir.resolve("Dockerfile"), """
        ARG RUNTIME_IMAGE=python:3.11-slim-bookworm
        FROM ${RUNTIME_IMAGE}
        COPY server.py /app/server.py
        %s
        USER nobody
        CMD ["python3", "-u", "%s"]
        """.formatted(extraStep, script));
    return variant(dir, "tiny-python", "default");
  }

  static EntryVariant variant(Path dir, String entry, String name) {
    return new EntryVariant(entry, name, dir, dir.resolve("fairbench.toml"), "Python", "http.server", "stdlib",
        "test", List.of(), Map.of(), List.of(), List.of(), Duration.ofSeconds(300),
        List.of("python3", "-u", "server.py"), Map.of(), Duration.ofSeconds(30), WorkersModel.PROCESSES,
        "Dockerfile", Map.of(), List.of(), List.of());
  }
}
