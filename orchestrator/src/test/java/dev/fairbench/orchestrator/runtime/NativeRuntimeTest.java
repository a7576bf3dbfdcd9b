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
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
