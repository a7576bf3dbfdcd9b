package dev.fairbench.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import dev.fairbench.orchestrator.cli.FairbenchCommand;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.ClientContainer;
import dev.fairbench.orchestrator.runtime.DockerEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * `run --client-host` end to end, in the simplest honest setup on one machine: this machine's own
 * engine (unix:///var/run/docker.sock) as the client host, so wrk and oha run by docker exec in
 * the load client container on the host network, against the tiny-python fixture as a native
 * server on 127.0.0.1. The same entry is then measured with the load client as a local process.
 *
 * <p>What it proves: the client container starts from the load-client image with the client CPU
 * set, wrk (a GET and a POST with its body copied in) and oha (rate mode) run in it and their
 * output is parsed as before, the client's CPU comes from the container (non-zero), the
 * topology records the load client as a container and the path is measured from it, and the
 * container is gone afterwards. Its figures prove nothing about performance: the "client host"
 * is this machine, sharing its CPUs and kernel with the server and with other work.
 *
 * <p>Runs only with {@code -Dfairbench.clienthost=true}; it needs the local Docker engine and the
 * load-client image (docker/make-base-images --only load-client). Asked for on a machine that
 * lacks them, it FAILS with what is missing: it is never skipped silently where it was asked for.
 */
@Tag("docker")
@EnabledIfSystemProperty(named = "fairbench.clienthost", matches = "true",
    disabledReason = "needs the local Docker engine and the load-client image: run with -Dfairbench.clienthost=true")
class ClientHostTest {
  private static final String ENGINE = "unix:///var/run/docker.sock";

  @TempDir Path temp;

  @Test
  void wrkAndOhaRunInTheClientContainerAndTheResultsSaySo() throws Exception {
    DockerEngine engine = DockerEngine.clientHost(ENGINE, Map.of());
    if (!engine.answers()) {
      fail("the client host test was asked for (-Dfairbench.clienthost=true) but no engine answers at " + ENGINE);
    }
    DockerClient docker = engine.client();
    try {
      docker.inspectImageCmd(ClientContainer.IMAGE).exec();
    } catch (RuntimeException e) {
      fail("the load client image " + ClientContainer.IMAGE + " is missing: make it with docker/make-base-images "
          + "--only load-client");
    }
    Path viaContainer = temp.resolve("client-container");
    Path rate = temp.resolve("client-container-rate");
    Path local = temp.resolve("client-local");

    Result throughput = orchestrator(benchmark(viaContainer, "--client-host", ENGINE, "--endpoints", "plaintext,validate"));
    assertThat(throughput.code).as(throughput.output).isZero();
    assertThat(throughput.output).contains("load client: the load client container fairbench-client-");
    Result constantRate = orchestrator(benchmark(rate, "--client-host", ENGINE, "--endpoints", "plaintext",
        "--mode", "rate", "--rate", "100"));
    assertThat(constantRate.code).as(constantRate.output).isZero();
    Result here = orchestrator(benchmark(local, "--endpoints", "plaintext"));
    assertThat(here.code).as(here.output).isZero();

    assertThat(docker.listContainersCmd().withShowAll(true)
        .withLabelFilter(Map.of(ClientContainer.LABEL_ROLE, "load-client")).exec())
        .as("no load client container is left").isEmpty();

    JsonNode container = ResultsJson.mapper().readTree(viaContainer.resolve("results.json").toFile());
    JsonNode environment = container.path("environment");
    assertThat(environment.path("loadGenerator").asText()).startsWith("wrk ")
        .contains(" in the load client container fairbench-client-").contains(ClientContainer.IMAGE);
    JsonNode topology = environment.path("topology");
    assertThat(topology.path("layout").asText()).isEqualTo("one-host");
    assertThat(topology.path("hosts")).hasSize(1);
    JsonNode host = topology.path("hosts").get(0);
    assertThat(host.path("roles").asText()).isEqualTo("orchestrator, load client (container, CPUs "
        + environment.path("limits").path("clientCpus").asText() + "), servers");
    assertThat(host.path("engine").asText()).startsWith("docker ").endsWith(" at " + ENGINE);
    JsonNode path = topology.path("network");
    assertThat(path.path("method").asText()).contains("measured from the load client container");
    assertThat(path.path("to").asText()).isEqualTo("127.0.0.1");
    assertThat(path.path("rttSamples").asInt()).isEqualTo(2000);
    assertThat(path.path("rttP50Micros").asDouble()).isPositive();
    assertThat(path.path("throughputBytesPerSecond").asDouble()).isPositive();

    JsonNode entry = container.path("entries").get(0);
    assertThat(entry.path("status").asText()).isEqualTo("measured");
    assertThat(entry.path("cells")).hasSize(2);
    for (JsonNode cell : entry.path("cells")) {
      JsonNode run = lastRun(cell);
      assertThat(run.path("requests").asLong()).as(cell.path("endpoint").asText()).isPositive();
      assertThat(run.path("non2xx").asLong()).as("the POST body reached wrk in the container").isZero();
      assertThat(run.path("clientCpuSeconds").asDouble()).as("from the client container's cgroup").isPositive();
      assertThat(run.path("clientCpuUtilisation").asDouble()).isPositive();
    }

    JsonNode rated = ResultsJson.mapper().readTree(rate.resolve("results.json").toFile());
    assertThat(rated.path("environment").path("loadGenerator").asText()).startsWith("oha ")
        .contains(" in the load client container ");
    JsonNode ratedRun = lastRun(rated.path("entries").get(0).path("cells").get(0));
    assertThat(ratedRun.path("requests").asLong()).isPositive();
    assertThat(ratedRun.path("clientCpuSeconds").asDouble()).isPositive();

    JsonNode localResult = ResultsJson.mapper().readTree(local.resolve("results.json").toFile());
    assertThat(localResult.path("environment").path("topology").path("hosts").get(0).path("roles").asText())
        .isEqualTo("orchestrator, load client, servers");

    // Evidence for docs/TWO-HOSTS.md, not a performance claim: everything shares these CPUs.
    System.out.println(sideBySide(localResult, container, rated));
  }

  private static JsonNode lastRun(JsonNode cell) {
    JsonNode runs = cell.path("runs");
    return runs.get(runs.size() - 1);
  }

  static String sideBySide(JsonNode... results) {
    StringBuilder out = new StringBuilder("client host test (one machine: proves plumbing, not performance)\n");
    for (JsonNode result : results) {
      JsonNode environment = result.path("environment");
      JsonNode network = environment.path("topology").path("network");
      JsonNode run = lastRun(result.path("entries").get(0).path("cells").get(0));
      out.append(String.format(Locale.ROOT, "  %-60.60s RTT p50 %.0f µs p99 %.0f µs; %,.0f req/s, client %.0f%% CPU%n",
          environment.path("loadGenerator").asText(), network.path("rttP50Micros").asDouble(),
          network.path("rttP99Micros").asDouble(), run.path("requestsPerSecond").asDouble(),
          run.path("clientCpuUtilisation").asDouble() * 100));
    }
    return out.toString();
  }

  private static String[] benchmark(Path output, String... extra) {
    List<String> args = new ArrayList<>(List.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(),
        "--duration", "1s", "--warmup", "0s", "--rewarm", "0s", "--rounds", "1", "--no-calibration", "--startups", "1",
        "--output", output.toString()));
    args.addAll(List.of(extra));
    args.add("tiny-python:stdlib");
    return args.toArray(String[]::new);
  }

  /** The CLI in a fresh JVM (its watchdog and registries are its own). */
  private Result orchestrator(String... args) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        "-Dfairbench.verdicts=none",
        "-D" + FairbenchPaths.ROOT_PROPERTY + "=" + TestEntries.repositoryRoot(), FairbenchCommand.class.getName()));
    command.addAll(List.of(args));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    while (true) {
      Result result = run(command, 300);
      // Another run on this machine holds the run lock: wait for it.
      if (result.code == 2 && result.output.contains("another fairbench run holds") && System.nanoTime() < deadline) {
        Thread.sleep(10_000);
        continue;
      }
      return result;
    }
  }

  private record Result(int code, String output) {}

  private Result run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("TESTCONTAINERS_RYUK_DISABLED", "true");
    builder.environment().put("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1");
    for (String variable : List.of("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
        "DOCKER_HOST", "DOCKER_TLS_VERIFY", "DOCKER_CERT_PATH")) {
      builder.environment().remove(variable);
    }
    Path log = Files.createTempFile(temp, "command-", ".log");
    Process process = builder.redirectOutput(log.toFile()).start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      return new Result(-1, String.join(" ", command) + ": timed out after " + timeoutSeconds + " s\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
