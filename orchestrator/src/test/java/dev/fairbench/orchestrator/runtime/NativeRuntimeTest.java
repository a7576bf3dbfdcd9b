package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.ManifestReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NativeRuntimeTest {
  @TempDir Path logs;

  private static EntryVariant tinyPython() throws Exception {
    return new ManifestReader().read(TestEntries.impls().resolve("tiny-python")).getFirst();
  }

  @Test
  void theServerRunsOnItsCpuSetUnderItsMemoryLimitAndStopsCompletely() throws Exception {
    NativeRuntime runtime = new NativeRuntime(logs);
    int port = NativeRuntime.freePort();
    NativeServer server = (NativeServer) runtime.start(tinyPython(), new Limits("1", "0", 256L << 20, 1), port);
    long pid = server.pid();
    try {
      String status = Files.readString(Path.of("/proc/" + pid + "/status"));
      assertThat(status).as("the server is pinned to CPU 1").containsPattern("Cpus_allowed_list:\\s+1\\n");
      if (runtime.limitsMode().equals("cgroup-v1")) {
        String cgroups = Files.readString(Path.of("/proc/" + pid + "/cgroup"));
        String memoryGroup = cgroups.lines().filter(l -> l.matches("\\d+:memory:.*")).findFirst().orElseThrow()
            .replaceFirst("\\d+:memory:", "");
        assertThat(memoryGroup).startsWith("/fairbench/" + ProcessHandle.current().pid() + "-");
        assertThat(Files.readString(Path.of("/sys/fs/cgroup/memory" + memoryGroup, "memory.limit_in_bytes")).trim())
            .isEqualTo(Long.toString(256L << 20));
      }
      assertThat(server.usage().peakRssBytes()).isPositive();
      assertThat(listening(port)).isTrue();
    } finally {
      server.close();
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the server process is gone").isFalse();
    assertThat(listening(port)).as("nothing listens after close").isFalse();
    assertThat(logs.resolve("tiny-python_stdlib.server.log")).exists();
  }

  @Test
  void aPortInUseIsRefusedBeforeAnythingStarts() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();

      assertThatThrownBy(() -> new NativeRuntime(logs).start(tinyPython(), new Limits("1", "0", 256L << 20, 1), port))
          .isInstanceOfSatisfying(ServerStartException.class,
              e -> assertThat(e.stage()).isEqualTo(ServerStartException.Stage.PORT_IN_USE))
          .hasMessageContaining("port " + port + " on 127.0.0.1 is already in use");
    }
    assertThat(logs.resolve("tiny-python_stdlib.server.log")).as("no server was started").doesNotExist();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"detected", "taskset"})
  void aFrozenServerAnswersNothingAndUsesNoCpuUntilItIsThawed(String backend) throws Exception {
    NativeRuntime runtime = backend.equals("taskset")
        ? new NativeRuntime(logs, new TasksetOnly("test: the SIGSTOP fallback")) : new NativeRuntime(logs);
    String expected = switch (runtime.limitsMode()) {
      case "cgroup-v1" -> "cgroup-v1-freezer";
      case "cgroup-v2" -> "cgroup-v2-freeze";
      default -> "sigstop";
    };
    int port = NativeRuntime.freePort();
    NativeServer server = (NativeServer) runtime.start(tinyPython(), new Limits("1", "0", 256L << 20, 2), port);
    long pid = server.pid();
    List<Path> groups = fairbenchCgroups(pid);
    if (!expected.equals("sigstop")) {
      assertThat(groups).as("the server's cgroups, the freezer's among them")
          .anySatisfy(g -> assertThat(g.resolve(expected.equals("cgroup-v1-freezer") ? "freezer.state" : "cgroup.freeze")).exists());
    }
    try {
      assertThat(server.frozen()).isFalse();
      FreezeTiming frozen = server.freeze();
      assertThat(frozen.mechanism()).isEqualTo(expected);
      assertThat(server.frozen()).isTrue();
      assertThat(server.isAlive()).as("frozen is alive").isTrue();
      try (PendingRequest pending = new PendingRequest(port)) {
        double cpu = server.usage().cpuSeconds();
        assertThat(pending.answeredWithin(Duration.ofSeconds(1))).as("a frozen server answers nothing").isFalse();
        assertThat(server.usage().cpuSeconds()).as("a frozen server uses no CPU").isEqualTo(cpu);

        FreezeTiming thawed = server.thaw();
        assertThat(thawed.mechanism()).isEqualTo(expected);
        assertThat(server.frozen()).isFalse();
        assertThat(pending.response(Duration.ofSeconds(5))).as("the pending request is answered after the thaw")
            .startsWith("HTTP/1.1 200").endsWith("Hello, World!");
        System.out.printf(Locale.ROOT, "%s: freeze %.3f ms, thaw %.3f ms%n", expected,
            frozen.took().toNanos() / 1e6, thawed.took().toNanos() / 1e6);
      }
      assertThat(get(server.baseUrl().resolve("/plaintext"))).isEqualTo("Hello, World!");
      server.freeze();
    } finally {
      server.close();
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("a frozen server is killed").isFalse();
    assertThat(listening(port)).as("nothing listens after close").isFalse();
    assertThat(groups).as("its cgroups are removed").allSatisfy(g -> assertThat(g).doesNotExist());
    assertThat(server.frozen()).isFalse();
  }

  @Test
  void aClosedServerCannotBeFrozen() throws Exception {
    RunningServer server = new NativeRuntime(logs).start(tinyPython(), new Limits("1", "0", 256L << 20, 1), NativeRuntime.freePort());
    server.close();
    assertThatThrownBy(server::freeze).isInstanceOf(FreezeException.class)
        .hasMessage("tiny-python:stdlib: cannot freeze a closed server");
  }

  /** The cgroup folders of a process under fairbench/, from /proc/PID/cgroup (empty for taskset). */
  static List<Path> fairbenchCgroups(long pid) throws java.io.IOException {
    return Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream()
        .map(line -> line.split(":", 3))
        .filter(parts -> parts.length == 3 && parts[2].startsWith("/fairbench/"))
        .map(parts -> parts[1].isEmpty() ? Path.of("/sys/fs/cgroup" + parts[2])
            : Path.of("/sys/fs/cgroup", parts[1].replace("name=", "")).resolve(parts[2].substring(1)))
        .toList();
  }

  private static String get(URI uri) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    }
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
