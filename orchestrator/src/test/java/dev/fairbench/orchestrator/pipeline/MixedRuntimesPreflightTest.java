package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.events.RunListener;
import dev.fairbench.orchestrator.load.LocalLoadClient;
import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.RuntimeUnavailableException;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which runtime each selector puts its server in, the ids and runtimes recorded, and the runs
 * refused before anything starts — with runtimes that start nothing (every entry unavailable).
 */
class MixedRuntimesPreflightTest {
  private static final Limits LIMITS = new Limits("1", "0", 512L << 20, 1);

  @TempDir Path dir;
  private final List<String> made = new ArrayList<>();

  /** A runtime that starts nothing: every entry is unavailable with it. */
  record Inert(RuntimeKind kind, String name, boolean remote, String limitsNote) implements ServerRuntime {
    Inert(RuntimeKind kind) {
      this(kind, kind.wireName(), false, "");
    }

    @Override
    public Availability availability(EntryVariant variant) {
      return Availability.unavailable("inert " + kind.wireName() + " runtime of the test");
    }

    @Override
    public String limitsMode() {
      return kind == RuntimeKind.DOCKER ? "docker-cgroup-v1" : limitsNote.isEmpty() ? "cgroup-v1" : "taskset";
    }

    @Override
    public RunningServer start(EntryVariant variant, Limits limits, int port) {
      throw new AssertionError("nothing is started");
    }
  }

  private RunSession.RuntimeMaker maker(ServerRuntime other) {
    return (kind, logs) -> {
      made.add(kind.wireName() + " " + dir.relativize(logs));
      assertThat(kind).isEqualTo(other.kind());
      return other;
    };
  }

  private RunSession.Request request(List<String> selectors, ServerRuntime defaultRuntime, RunSession.RuntimeMaker maker,
      EntryCatalog catalog) {
    return request(selectors, defaultRuntime, maker, catalog, true);
  }

  private RunSession.Request request(List<String> selectors, ServerRuntime defaultRuntime, RunSession.RuntimeMaker maker,
      EntryCatalog catalog, boolean baselines) {
    RunConfig config = RunConfig.conformanceOnly(LIMITS, Duration.ofSeconds(2), Duration.ofMinutes(10));
    return new RunSession.Request(selectors, catalog, dir.resolve("calibration"), "nginx", config, dir.resolve("out"),
        logs -> defaultRuntime, (now, runtime, client, loadGenerator, cfg) -> ResultsFixtures.environment(), baselines,
        "", "", null, "", LocalLoadClient::new, maker);
  }

  private RunSession.Request request(List<String> selectors, ServerRuntime defaultRuntime, RunSession.RuntimeMaker maker) {
    return request(selectors, defaultRuntime, maker, EntryCatalog.load(TestEntries.impls()));
  }

  private static ResultsDocument run(RunSession.Request request) throws Exception {
    return RunSession.run(request, RunListener.NONE, new PrintWriter(new StringWriter())).results();
  }

  @Test
  void aServerInTheOtherRuntimeCarriesItsSuffixAndEachRecordsItsRuntime() throws Exception {
    ResultsDocument results = run(request(List.of("tiny-python:stdlib", "tiny-python:stdlib@docker",
        "tiny-python:stdlib@native"), new Inert(RuntimeKind.NATIVE), maker(new Inert(RuntimeKind.DOCKER))));

    assertThat(results.entries()).extracting(EntryResult::id)
        .as("@native names the default runtime: the same server as the plain selector, once")
        .containsExactly("tiny-python:stdlib", "tiny-python:stdlib@docker");
    assertThat(results.entries()).extracting(EntryResult::runtime).containsExactly(RuntimeKind.NATIVE, RuntimeKind.DOCKER);
    assertThat(results.entries()).extracting(EntryResult::reason)
        .containsExactly("inert native runtime of the test", "inert docker runtime of the test");
    assertThat(results.entries()).allSatisfy(e -> {
      assertThat(e.status()).isEqualTo(EntryStatus.UNAVAILABLE);
      assertThat(e.entry()).isEqualTo("tiny-python");
      assertThat(e.variant()).isEqualTo("stdlib");
    });
    assertThat(made).as("the second runtime is made once, its logs in a folder of their own")
        .containsExactly("docker out/logs/docker");
    assertThat(results.invocation().selectors()).as("what --resume runs again")
        .containsExactly("tiny-python:stdlib", "tiny-python:stdlib@docker", "tiny-python:stdlib@native");
    assertThat(results.invocation().runtime()).isEqualTo("native");
  }

  @Test
  void theEnvironmentSaysTheRunMixedRuntimesAndWhichServerRanWhere() throws Exception {
    Environment env = run(request(List.of("tiny-python@docker", "tiny-python:stdlib"), new Inert(RuntimeKind.NATIVE),
        maker(new Inert(RuntimeKind.DOCKER)))).environment();

    assertThat(env.mixedRuntimes()).isTrue();
    assertThat(env.runtime()).as("the default runtime").isEqualTo("native");
    assertThat(env.runtimes()).containsExactly(
        new Environment.RuntimeUse(RuntimeKind.NATIVE, "native", "cgroup-v1", "", List.of("tiny-python:stdlib")),
        new Environment.RuntimeUse(RuntimeKind.DOCKER, "docker", "docker-cgroup-v1", "",
            List.of("tiny-python:stdlib@docker", "tiny-python:wrong-json@docker")));
    assertThat(env.serversByRuntime()).isEqualTo("native (cgroup-v1): tiny-python:stdlib; "
        + "docker (docker-cgroup-v1): tiny-python:stdlib@docker, tiny-python:wrong-json@docker");
  }

  @Test
  void withDockerAsTheDefaultTheNativeServerCarriesTheSuffix() throws Exception {
    ResultsDocument results = run(request(List.of("tiny-python:stdlib", "tiny-python:stdlib@native"),
        new Inert(RuntimeKind.DOCKER), maker(new Inert(RuntimeKind.NATIVE))));

    assertThat(results.entries()).extracting(EntryResult::id).containsExactly("tiny-python:stdlib", "tiny-python:stdlib@native");
    assertThat(results.entries()).extracting(EntryResult::runtime).containsExactly(RuntimeKind.DOCKER, RuntimeKind.NATIVE);
  }

  @Test
  void aRunInOneRuntimeIsAsBeforeAndMakesNoSecondRuntime() throws Exception {
    ResultsDocument results = run(request(List.of("tiny-python:stdlib"), new Inert(RuntimeKind.NATIVE),
        (kind, logs) -> { throw new AssertionError("no second runtime"); }));

    assertThat(results.entries()).extracting(EntryResult::id).containsExactly("tiny-python:stdlib");
    assertThat(results.entries()).extracting(EntryResult::runtime).containsExactly(RuntimeKind.NATIVE);
    assertThat(results.environment().mixedRuntimes()).isFalse();
    assertThat(results.environment().runtimes()).isEmpty();
  }

  @Test
  void aFrameworkInTheOtherRuntimeStandsOnItsBaselineInThatRuntime() throws Exception {
    EntryCatalog ladder = EntryCatalog.load(TestEntries.impls().resolveSibling("ladder"));
    var framework = ladder.select(List.of("tiny-framework")).getFirst();
    var baseline = ladder.select(List.of("tiny-bare")).getFirst();

    assertThat(new Placement(framework, new Inert(RuntimeKind.DOCKER), true).standsOn()).isEqualTo("tiny-bare@docker");
    assertThat(new Placement(framework, new Inert(RuntimeKind.NATIVE), false).standsOn()).isEqualTo("tiny-bare");
    assertThat(new Placement(baseline, new Inert(RuntimeKind.DOCKER), true).id()).isEqualTo("tiny-bare@docker");
    assertThat(new Placement(baseline, new Inert(RuntimeKind.DOCKER), true).standsOn()).isEmpty();
  }

  @Test
  void theCalibrationServerIsListedWithTheDefaultRuntime() throws Exception {
    EntryCatalog catalog = EntryCatalog.load(TestEntries.impls());
    var stdlib = catalog.select(List.of("tiny-python:stdlib")).getFirst();
    ServerRuntime nativeRuntime = new Inert(RuntimeKind.NATIVE);
    ServerRuntime docker = new Inert(RuntimeKind.DOCKER);
    Placement nginx = Placement.inDefault(catalog.select(List.of("tiny-python:wrong-json")).getFirst(), nativeRuntime);

    Environment env = RunSession.withRuntimes(ResultsFixtures.environment(),
        List.of(new Placement(stdlib, docker, true)), Optional.of(nginx), RunConfig.conformanceOnly(LIMITS, Duration.ZERO, Duration.ofMinutes(10)));

    assertThat(env.runtimes()).extracting(Environment.RuntimeUse::runtime).containsExactly(RuntimeKind.NATIVE, RuntimeKind.DOCKER);
    assertThat(env.runtimes().getFirst().servers()).containsExactly("tiny-python:wrong-json");
    assertThat(env.runtimes().get(1).servers()).containsExactly("tiny-python:stdlib@docker");
  }

  @Test
  void anUnknownRuntimeIsRefusedBeforeAnythingIsWritten() {
    assertThatThrownBy(() -> run(request(List.of("tiny-python@podman"), new Inert(RuntimeKind.NATIVE),
        maker(new Inert(RuntimeKind.DOCKER)))))
        .isInstanceOf(RunSession.PreflightException.class)
        .hasMessage("unknown runtime \"podman\" in \"tiny-python@podman\"; runtimes: native, docker");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void anUnknownEntryWithASuffixIsAnUnknownEntry() {
    assertThatThrownBy(() -> run(request(List.of("nope@docker"), new Inert(RuntimeKind.NATIVE),
        maker(new Inert(RuntimeKind.DOCKER)))))
        .isInstanceOf(RunSession.PreflightException.class)
        .hasMessageContaining("unknown entry nope").hasMessageContaining("tiny-python:stdlib");
  }

  @Test
  void dockerWithoutAnEngineIsOneLineLikeAMissingTool() {
    RunSession.RuntimeMaker noEngine = (kind, logs) -> {
      throw new RuntimeUnavailableException("no Docker engine answers here; start one with scripts/docker-engine");
    };

    assertThatThrownBy(() -> run(request(List.of("tiny-python:stdlib", "tiny-python:stdlib@docker"),
        new Inert(RuntimeKind.NATIVE), noEngine)))
        .isInstanceOf(RunSession.MissingToolException.class)
        .hasMessage("tiny-python:stdlib@docker: the docker runtime cannot run servers here: no Docker engine answers "
            + "here; start one with scripts/docker-engine");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void aSecondRuntimeIsRefusedWhenTheServersRunOnAServerHost() {
    ServerRuntime remote = new Inert(RuntimeKind.DOCKER, "docker-remote", true, "");

    assertThatThrownBy(() -> run(request(List.of("tiny-python:stdlib", "tiny-python:stdlib@docker"), remote,
        maker(new Inert(RuntimeKind.DOCKER)))))
        .isInstanceOf(RunSession.PreflightException.class)
        .hasMessageStartingWith("tiny-python:stdlib@docker: a runtime of its own cannot be given with --server-host")
        .hasMessageContaining("@docker would run this one on this machine");
    assertThatThrownBy(() -> run(request(List.of("tiny-python:stdlib@native"), remote, maker(new Inert(RuntimeKind.NATIVE)))))
        .hasMessageStartingWith("tiny-python:stdlib@native: a runtime of its own cannot be given with --server-host");
    assertThat(made).as("refused before the second runtime is made").isEmpty();
  }

  @Test
  void aSecondRuntimeIsRefusedWhenOneCannotLimitMemory() {
    ServerRuntime taskset = new Inert(RuntimeKind.NATIVE, "native", false, "memory is not limited (no writable cgroup)");

    assertThatThrownBy(() -> run(request(List.of("tiny-python:stdlib", "tiny-python:stdlib@docker"), taskset,
        maker(new Inert(RuntimeKind.DOCKER)))))
        .isInstanceOf(RunSession.PreflightException.class)
        .hasMessageContaining("the native runtime cannot give its servers the limits the other one gives")
        .hasMessageContaining("taskset: memory is not limited")
        .hasMessageContaining("needs the same limits in both");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void noBaselinesLeavesOutTheBaselinesOfARunOverEveryEntry() throws Exception {
    EntryCatalog ladder = EntryCatalog.load(TestEntries.impls().resolveSibling("ladder"));

    assertThat(run(request(List.of(), new Inert(RuntimeKind.NATIVE), noSecondRuntime(), ladder, false)).entries())
        .extracting(EntryResult::id).containsExactly("tiny-framework");
  }

  @Test
  void aBaselineNamedIsRunEvenWithNoBaselines() throws Exception {
    EntryCatalog ladder = EntryCatalog.load(TestEntries.impls().resolveSibling("ladder"));

    assertThat(run(request(List.of("tiny-bare", "tiny-framework"), new Inert(RuntimeKind.NATIVE), noSecondRuntime(),
        ladder, false)).entries()).extracting(EntryResult::id).containsExactly("tiny-bare", "tiny-framework");
  }

  private static RunSession.RuntimeMaker noSecondRuntime() {
    return (kind, logs) -> { throw new AssertionError("no second runtime"); };
  }
}
