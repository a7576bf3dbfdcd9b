package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.DockerClientFactory;

/**
 * An orchestrator killed with SIGKILL while its server is frozen (the OOM killer, a CI timeout:
 * no shutdown hook runs) leaves nothing behind: its watchdog thaws and kills the server, removes
 * its cgroups or its paused container within a few seconds, and the next sweep says what it did —
 * also of a server's process that left its cgroups and its process tree (found by its marker).
 */
class WatchdogTest {
  private static final Pattern FROZEN = Pattern.compile("FROZEN by (\\S+) watchdog=(-?\\d+) (.*)");
  private static final long DEADLINE_MILLIS = 5000;

  @TempDir Path logs;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"native", "taskset", "daemon"})
  void aKilledOrchestratorsFrozenServerIsKilledAndItsCgroupsRemoved(String kind) throws Exception {
    int port = NativeRuntime.freePort();
    Process orchestrator = startOrchestrator(kind, port, List.of());
    try {
      Matcher frozen = awaitFrozen(orchestrator);
      Map<String, String> started = fields(frozen.group(3));
      List<Long> pids = Arrays.stream(started.get("pids").split(",")).map(Long::parseLong).toList();
      List<Path> groups = started.get("cgroups").isEmpty() ? List.of()
          : Arrays.stream(started.get("cgroups").split(",")).map(Path::of).toList();
      assertThat(Long.parseLong(frozen.group(2))).as("a watchdog runs").isPositive();
      assertThat(pids).as(kind.equals("daemon") ? "the started process, the daemon and its forked worker"
          : "the server and its forked worker").hasSize(kind.equals("daemon") ? 3 : 2);
      assertThat(listening(port)).as("a frozen listener still takes connections").isTrue();
      if (kind.equals("native") && frozen.group(1).equals("cgroup-v1-freezer")) {
        assertThat(groups).anySatisfy(g -> assertThat(Files.readString(g.resolve("freezer.state")).trim()).isEqualTo("FROZEN"));
      }

      orchestrator.destroyForcibly(); // SIGKILL: no shutdown hook
      assertThat(orchestrator.waitFor(10, TimeUnit.SECONDS)).isTrue();
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      while (System.currentTimeMillis() < deadline
          && (listening(port) || pids.stream().anyMatch(WatchdogTest::alive) || groups.stream().anyMatch(Files::exists))) {
        Thread.sleep(100);
      }
      System.out.printf("%s: the watchdog cleaned up %d ms after the SIGKILL%n", kind,
          DEADLINE_MILLIS - (deadline - System.currentTimeMillis()));
      assertThat(listening(port)).as("nothing listens on " + port + " after the orchestrator was killed").isFalse();
      assertThat(pids).as("every process of the server is gone").noneMatch(WatchdogTest::alive);
      assertThat(groups).as("the server's cgroups are removed").noneMatch(Files::exists);
      assertThat(awaitWatchdogGone(Long.parseLong(frozen.group(2)))).as("the watchdog exits when done").isTrue();
      List<String> report = Watchdog.collectReports();
      assertThat(report).as("the next command says what the watchdog did")
          .anySatisfy(line -> assertThat(line).matches("killed pid " + pids.getFirst() + " \\(\\S*python3 -u \\S*server\\.py\\) .*")
              .endsWith("(by the watchdog of the killed orchestrator " + orchestrator.pid() + ")"));
      if (!groups.isEmpty()) {
        assertThat(report).anySatisfy(line -> assertThat(line).startsWith("thawed cgroup "));
        for (Path group : groups) {
          assertThat(report).anySatisfy(line -> assertThat(line).startsWith("removed cgroup " + group + " "));
        }
      }
    } finally {
      orchestrator.destroyForcibly();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"native", "taskset", "daemon"})
  void withItsWatchdogKilledTooTheNextSweepRemovesTheFrozenServerAndSaysWhat(String kind) throws Exception {
    int port = NativeRuntime.freePort();
    Process orchestrator = startOrchestrator(kind, port, List.of());
    try {
      Matcher frozen = awaitFrozen(orchestrator);
      Map<String, String> started = fields(frozen.group(3));
      List<Long> pids = Arrays.stream(started.get("pids").split(",")).map(Long::parseLong).toList();
      List<Path> groups = started.get("cgroups").isEmpty() ? List.of()
          : Arrays.stream(started.get("cgroups").split(",")).map(Path::of).toList();
      ProcessHandle.of(Long.parseLong(frozen.group(2))).orElseThrow().destroyForcibly(); // the watchdog first
      assertThat(awaitWatchdogGone(Long.parseLong(frozen.group(2)))).isTrue();
      orchestrator.destroyForcibly();
      assertThat(orchestrator.waitFor(10, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(1000);
      assertThat(pids).as("nothing removed the server yet").allMatch(WatchdogTest::alive);

      List<String> swept = Leftovers.sweepNative(kind.equals("taskset") ? new TasksetOnly("test") : LimitsBackend.detect());
      for (long pid : pids) {
        assertThat(swept).anySatisfy(line -> assertThat(line).matches("killed pid " + pid + " \\(\\S*python3 -u \\S*server\\.py\\)"
            + (kind.equals("taskset") || kind.equals("daemon") && pid != pids.getFirst() ? ", found by the server marker it inherited" : "")));
      }
      for (Path group : groups) {
        assertThat(swept).contains("removed cgroup " + group);
      }
      if (!groups.isEmpty()) {
        assertThat(swept).anySatisfy(line -> assertThat(line).startsWith("thawed cgroup "));
      }
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      while (System.currentTimeMillis() < deadline && (listening(port) || pids.stream().anyMatch(WatchdogTest::alive))) {
        Thread.sleep(100);
      }
      assertThat(pids).noneMatch(WatchdogTest::alive);
      assertThat(groups).noneMatch(Files::exists);
      assertThat(listening(port)).isFalse();
    } finally {
      orchestrator.destroyForcibly();
    }
  }

  @Test
  @EnabledIf("dev.fairbench.orchestrator.runtime.DockerRuntimeTest#dockerUsable")
  void aKilledOrchestratorsPausedContainerIsRemoved(@TempDir Path dir) throws Exception {
    int port = 18000 + (int) (ProcessHandle.current().pid() % 900);
    Process orchestrator = startOrchestrator("docker", port, List.of(dir.toString()));
    try {
      Matcher frozen = awaitFrozen(orchestrator);
      assertThat(frozen.group(1)).isEqualTo("docker-pause");
      String id = fields(frozen.group(3)).get("container");
      var client = DockerClientFactory.instance().client();
      assertThat(client.inspectContainerCmd(id).exec().getState().getPaused()).isTrue();

      orchestrator.destroyForcibly();
      assertThat(orchestrator.waitFor(10, TimeUnit.SECONDS)).isTrue();
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      while (System.currentTimeMillis() < deadline && (listening(port) || containerExists(id))) {
        Thread.sleep(100);
      }
      System.out.printf("docker: the watchdog removed the container %d ms after the SIGKILL%n",
          DEADLINE_MILLIS - (deadline - System.currentTimeMillis()));
      assertThat(containerExists(id)).as("the paused container is removed").isFalse();
      assertThat(listening(port)).as("nothing listens on " + port).isFalse();
      assertThat(awaitWatchdogGone(Long.parseLong(frozen.group(2)))).isTrue();
      assertThat(Watchdog.collectReports()).anySatisfy(line -> assertThat(line).startsWith("removed container ")
          .contains("(fairbench/tiny-python:default, paused)"));
    } finally {
      orchestrator.destroyForcibly();
    }
  }

  private Process startOrchestrator(String kind, int port, List<String> more) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> argv = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        KilledOrchestrator.class.getName(), kind, Integer.toString(port), logs.toString()));
    argv.addAll(more);
    return new ProcessBuilder(argv).redirectErrorStream(true).start();
  }

  private static Matcher awaitFrozen(Process orchestrator) throws Exception {
    StringBuilder seen = new StringBuilder();
    BufferedReader lines = new BufferedReader(new InputStreamReader(orchestrator.getInputStream(), StandardCharsets.UTF_8));
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      seen.append(line).append('\n');
      Matcher frozen = FROZEN.matcher(line);
      if (frozen.matches()) {
        return frozen;
      }
    }
    throw new AssertionError("the orchestrator ended before its server was frozen:\n" + seen);
  }

  private static Map<String, String> fields(String text) {
    Map<String, String> fields = new java.util.HashMap<>();
    for (String field : text.split(" ")) {
      int eq = field.indexOf('=');
      fields.put(field.substring(0, eq), field.substring(eq + 1));
    }
    return fields;
  }

  private static boolean awaitWatchdogGone(long pid) throws InterruptedException {
    for (int i = 0; i < 100 && alive(pid); i++) {
      Thread.sleep(100);
    }
    return !alive(pid);
  }

  private static boolean alive(long pid) {
    return ProcFs.startTime(pid) >= 0;
  }

  private static boolean containerExists(String id) {
    return !DockerClientFactory.instance().client().listContainersCmd().withShowAll(true)
        .withIdFilter(List.of(id)).exec().isEmpty();
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  static {
    TestEntries.impls(); // the fixtures are on the classpath the child JVM gets
  }
}
