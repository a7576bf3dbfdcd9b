package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.cli.FairbenchCommand;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.Watchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * tiny-python natively and in Docker in one run (`run --runtime native tiny-python:stdlib
 * tiny-python:stdlib@docker`): both measured in the same rounds, each with its own id, runtime,
 * freezer and limits, and nothing of either runtime left running or paused afterwards. Needs a
 * Docker engine, the local python:3.11-slim-bookworm image and the environment the launcher exports.
 */
@EnabledIf("dockerAndPythonImage")
class MixedRuntimesIntegrationTest {
  static final String NATIVE_ID = "tiny-python:stdlib";
  static final String DOCKER_ID = "tiny-python:stdlib@docker";

  @TempDir static Path dir;
  static int exitCode;
  static String stdout;
  static String stderr;
  static ResultsDocument results;
  static Map<String, EntryResult> entries;

  @BeforeAll
  static void runBothRuntimesInOneRun() throws Exception {
    assertThat(TestEntries.onPath("wrk")).as("wrk must be installed").isTrue();
    Path impls = tinyPythonWithADockerfile(dir.resolve("impls"));
    CliRun run = CliRun.of("run", "--runtime", "native", "--impls", impls.toString(), NATIVE_ID, DOCKER_ID,
        "--endpoints", "json", "--rounds", "2", "--duration", "1s", "--warmup", "1s", "--rewarm", "0", "--seed", "11",
        "--startups", "1", "--no-calibration", "--output", dir.resolve("run").toString());
    exitCode = run.exitCode();
    stdout = run.stdout();
    stderr = run.stderr();
    results = ResultsJson.read(dir.resolve("run/results.json"));
    entries = results.entries().stream().collect(Collectors.toMap(EntryResult::id, Function.identity()));
  }

  /** The orchestrator's tiny-python fixture (stdlib variant only) with a Dockerfile, as an entry folder. */
  static Path tinyPythonWithADockerfile(Path impls) throws IOException {
    Path entry = Files.createDirectories(impls.resolve("tiny-python"));
    Path fixture = TestEntries.impls().resolve("tiny-python");
    Files.copy(fixture.resolve("server.py"), entry.resolve("server.py"));
    Files.copy(fixture.resolve("fairbench.toml"), entry.resolve("fairbench.toml"));
    Files.writeString(entry.resolve("Dockerfile"), """
        ARG RUNTIME_IMAGE=python:3.11-slim-bookworm
        FROM ${RUNTIME_IMAGE}
        WORKDIR /app
        COPY server.py /app/server.py
        USER nobody
        CMD ["python3", "-u", "/app/server.py"]
        """);
    return impls;
  }

  @Test
  void bothRuntimesAreMeasuredAndEachKeepsItsIdAndRuntime() {
    assertThat(exitCode).as(stderr).isEqualTo(ExitCodes.OK);
    assertThat(stdout).contains("Measured 2 of 2 entries.");
    assertThat(results.entries()).extracting(EntryResult::id).containsExactly(NATIVE_ID, DOCKER_ID);
    assertThat(entries.get(NATIVE_ID).runtime()).isEqualTo(RuntimeKind.NATIVE);
    assertThat(entries.get(DOCKER_ID).runtime()).isEqualTo(RuntimeKind.DOCKER);
    for (EntryResult entry : results.entries()) {
      assertThat(entry.status()).as(entry.id() + ": " + entry.reason()).isEqualTo(EntryStatus.MEASURED);
      assertThat(entry.entry()).isEqualTo("tiny-python");
      assertThat(entry.variant()).isEqualTo("stdlib");
      assertThat(entry.cells()).singleElement().satisfies(cell -> {
        assertThat(cell.endpoint()).isEqualTo("json");
        assertThat(cell.countedRuns()).hasSize(2).allSatisfy(r -> assertThat(r.requestsPerSecond()).isPositive());
      });
      assertThat(entry.openFiles()).as(entry.id()).isNotNull();
      assertThat(entry.openFiles().is(8192)).as(entry.id() + " gets the same open-file limit").isTrue();
      assertThat(entry.startup().runtime()).isEqualTo(entry.runtime().wireName());
    }
    assertThat(entries.get(NATIVE_ID).freeze().mechanism()).startsWith("cgroup-");
    assertThat(entries.get(DOCKER_ID).freeze().mechanism()).isEqualTo("docker-pause");
    assertThat(entries.get(DOCKER_ID).limitsReadBack()).startsWith("cpuset 1, memory 536870912 B");
    assertThat(entries.get(NATIVE_ID).limitsReadBack()).contains("cpuset.cpus=1").contains("536870912");
  }

  @Test
  void eachRoundVisitsTheServersOfBothRuntimes() {
    assertThat(results.rounds()).hasSize(2).allSatisfy(round -> assertThat(round.order())
        .filteredOn(o -> !o.endsWith("(repeat)")).containsExactlyInAnyOrder(NATIVE_ID + " json", DOCKER_ID + " json"));
  }

  @Test
  void theEnvironmentAndTheReviewSayWhichServerRanWhere() throws Exception {
    Environment env = results.environment();
    assertThat(env.runtime()).isEqualTo("native");
    assertThat(env.mixedRuntimes()).isTrue();
    assertThat(env.runtimes()).extracting(Environment.RuntimeUse::runtime).containsExactly(RuntimeKind.NATIVE, RuntimeKind.DOCKER);
    assertThat(env.runtimes()).extracting(Environment.RuntimeUse::servers).containsExactly(List.of(NATIVE_ID), List.of(DOCKER_ID));
    assertThat(env.engine()).as("the engine's settings, for the Docker servers").isNotNull();
    assertThat(results.invocation().selectors()).containsExactly(NATIVE_ID, DOCKER_ID);
    assertThat(Files.readString(dir.resolve("run/fairness.md"))).contains("this run mixed runtimes")
        .contains("- Runtime: docker").contains("- Runtime: native");
    assertThat(dir.resolve("run/conformance/tiny-python_stdlib.json")).exists();
    assertThat(dir.resolve("run/conformance/tiny-python_stdlib@docker.json")).exists();
    assertThat(dir.resolve("run/logs/tiny-python_stdlib.server.log")).exists();
    assertThat(dir.resolve("run/logs/docker/tiny-python_stdlib.server.log")).exists();
    // The runtime column, then the load client's side (client_steal_s, orchestrator_cpu_s), then the wake-ups and the
    // wait for them, then the memory's latency before and after.
    assertThat(Files.readAllLines(dir.resolve("run/runs.csv")))
        .anyMatch(l -> l.startsWith(DOCKER_ID + ",entry,json,")
            && l.matches(".*,docker,[0-9.]+,[0-9.]+,[0-9.e+]+,[0-9.e+]+,[0-9.e+]+,(true|false),[0-9.e+]+,[0-9.e+]+,[0-9.e+]+"));
  }

  @Test
  void theTwoAreComparedWithinTheRun() {
    CliRun compare = CliRun.of("compare", dir.resolve("run/results.json").toString(), "--entries", NATIVE_ID + "," + DOCKER_ID);

    assertThat(compare.exitCode()).as(compare.stderr()).isEqualTo(ExitCodes.OK);
    assertThat(compare.stdout()).contains(NATIVE_ID + " → " + DOCKER_ID);
  }

  @Test
  void nothingOfEitherRuntimeIsLeftRunningOrPaused() throws IOException {
    List<Integer> ports = ports(stderr);
    assertThat(ports).as("both servers said where they were ready").hasSizeGreaterThanOrEqualTo(2);
    assertThat(ports).allSatisfy(port -> assertThat(listening(port)).as("something listens on " + port).isFalse());
    assertNothingLeftBy(ProcessHandle.current().pid());
  }

  /**
   * SIGTERM (as Ctrl-C) while the rounds go: one server is measured, the other frozen (a frozen
   * cgroup or a paused container); the shutdown hook stops both, and nothing of the run is left.
   * It says so in one line, with no stack trace (Testcontainers' own hook removes the same containers
   * at the same time). Then `run --resume` continues it with the selectors it recorded: both runtimes again.
   */
  @Test
  void terminatingTheRunStopsTheServersOfBothRuntimesAndResumeContinuesIt() throws Exception {
    String javaCommand = ProcessHandle.current().info().command().orElse("java");
    Process orchestrator = new ProcessBuilder(List.of(javaCommand, "-cp", System.getProperty("java.class.path"),
        "-Dfairbench.verdicts=none",
        "-Dfairbench.root=" + System.getProperty("fairbench.root", TestEntries.repositoryRoot().toString()),
        FairbenchCommand.class.getName(), "run", "--runtime", "native", "--impls", dir.resolve("impls").toString(),
        NATIVE_ID, DOCKER_ID, "--endpoints", "json", "--rounds", "1", "--duration", "5s", "--warmup", "0",
        "--rewarm", "0", "--startups", "1", "--no-calibration", "--output", dir.resolve("terminated").toString()))
        .redirectErrorStream(true).start();
    StringBuilder seen = new StringBuilder();
    try (java.io.BufferedReader lines = new java.io.BufferedReader(
        new java.io.InputStreamReader(orchestrator.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.append(line).append('\n');
        if (line.contains("[round 1/")) {
          break; // both prepared and frozen, one of them about to be thawed for its visit: stop the orchestrator now
        }
      }
      List<Integer> ports = ports(seen.toString());
      assertThat(ports).as(seen.toString()).hasSize(2);
      orchestrator.toHandle().destroy(); // SIGTERM (Process.destroy would close the output it still has to say)
      assertThat(orchestrator.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("the orchestrator stops").isTrue();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.append(line).append('\n');
      }
      assertThat(seen.toString()).as("what it said when stopped")
          .contains("fairbench run: interrupted, stopping every server; " + dir.resolve("terminated/results.json")
              + " keeps the visits made before")
          .doesNotContain("Exception in thread").doesNotContain("\tat ");
      assertThat(ports).allSatisfy(port -> assertThat(listening(port)).as("something listens on " + port).isFalse());
      assertNothingLeftBy(orchestrator.pid());
    } finally {
      orchestrator.destroyForcibly();
    }

    CliRun resume = CliRun.of("run", "--resume", dir.resolve("terminated").toString());
    assertThat(resume.exitCode()).as(resume.stderr()).isEqualTo(ExitCodes.OK);
    ResultsDocument resumed = ResultsJson.read(dir.resolve("terminated/results.json"));
    assertThat(resumed.breaks()).hasSize(1);
    assertThat(resumed.entries()).extracting(EntryResult::id).containsExactly(NATIVE_ID, DOCKER_ID);
    assertThat(resumed.entries()).extracting(EntryResult::runtime).containsExactly(RuntimeKind.NATIVE, RuntimeKind.DOCKER);
    assertThat(resumed.entries()).allSatisfy(e -> assertThat(e.status()).as(e.id()).isEqualTo(EntryStatus.MEASURED));
    assertNothingLeftBy(ProcessHandle.current().pid());
  }

  private static final java.util.regex.Pattern READY = java.util.regex.Pattern.compile("ready at http://127\\.0\\.0\\.1:(\\d+)");

  static List<Integer> ports(String progress) {
    return READY.matcher(progress).results().map(m -> Integer.parseInt(m.group(1))).distinct().toList();
  }

  static boolean listening(int port) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** No container of orchestrator {@code pid} (running, paused or stopped), no cgroup of its. */
  static void assertNothingLeftBy(long pid) throws IOException {
    List<Container> ours = DockerClientFactory.instance().client().listContainersCmd().withShowAll(true)
        .withLabelFilter(List.of(Watchdog.LABEL_OWNER)).exec().stream()
        .filter(c -> c.getLabels() != null && c.getLabels().getOrDefault(Watchdog.LABEL_OWNER, "").startsWith(pid + "-"))
        .toList();
    assertThat(ours).as("containers of orchestrator " + pid + ", running or paused").isEmpty();
    String prefix = pid + "-";
    for (String hierarchy : List.of("cpuset", "memory", "cpuacct", "freezer", "unified")) {
      Path parent = Path.of("/sys/fs/cgroup", hierarchy, "fairbench");
      if (Files.isDirectory(parent)) {
        try (Stream<Path> groups = Files.list(parent)) {
          assertThat(groups.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)))
              .as("cgroups of this run under " + parent).isEmpty();
        }
      }
    }
  }

  static boolean dockerAndPythonImage() {
    try {
      return dev.fairbench.orchestrator.runtime.Runtimes.dockerUsable()
          && !DockerClientFactory.instance().client().listImagesCmd()
              .withImageNameFilter("python:3.11-slim-bookworm").exec().isEmpty();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
