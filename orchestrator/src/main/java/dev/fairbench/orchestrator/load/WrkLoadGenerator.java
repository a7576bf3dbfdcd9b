package dev.fairbench.orchestrator.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs wrk on the load client (pinned to the client CPU set: taskset here, the container's cpuset
 * on a client host), with our Lua script, and reads its machine-readable result line. The client's
 * CPU time is wrk's, counted by the {@link LoadClient} exactly around the one run.
 */
public final class WrkLoadGenerator implements LoadGenerator {
  private static final String SCRIPT_RESOURCE = "/dev/fairbench/orchestrator/load/fairbench.lua";

  private final LoadClient client;
  private final String script;
  private final String version;
  /** Request bodies staged on the client, by content: written once, not per run. */
  private final Map<String, String> bodies = new ConcurrentHashMap<>();

  private WrkLoadGenerator(LoadClient client, String script, String version) {
    this.client = client;
    this.script = script;
    this.version = version;
  }

  /** wrk as a local process pinned to {@code clientCpus}. @throws LoadException when wrk or taskset is missing */
  public static WrkLoadGenerator create(String clientCpus) throws LoadException {
    return create(new LocalLoadClient(clientCpus));
  }

  /** wrk on {@code client}. @throws LoadException when wrk (or, here, taskset) is missing there */
  public static WrkLoadGenerator create(LoadClient client) throws LoadException {
    for (String tool : List.of("wrk", "taskset")) {
      if (tool.equals("taskset") && !(client instanceof LocalLoadClient)) {
        continue;
      }
      if (!client.has(tool)) {
        throw new LoadException(tool + " is not on PATH" + (client instanceof LocalLoadClient ? "" : " in " + client.describe())
            + "; install it (Debian: apt-get install -y " + (tool.equals("wrk") ? "wrk" : "util-linux") + ")");
      }
    }
    byte[] lua;
    try (InputStream in = WrkLoadGenerator.class.getResourceAsStream(SCRIPT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the wrk script " + SCRIPT_RESOURCE + " is missing from the jar");
      }
      lua = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the wrk script " + SCRIPT_RESOURCE, e);
    }
    String script = client.stage("fairbench-wrk.lua", lua);
    // wrk -v prints "wrk 4.1.0 [epoll] Copyright ..." and exits 1: its output is read either way.
    String version = client instanceof LocalLoadClient ? detectVersion()
        : client.output(List.of("sh", "-c", "wrk -v 2>&1; true")).map(WrkLoadGenerator::parseVersion).orElse("unknown");
    // The script is part of the client: how it is written changes what wrk costs per request (docs/ORCHESTRATOR.md,
    // "Overhead"), so runs made with another script say so, and compare lists it as a difference.
    return new WrkLoadGenerator(client, script, version + " (script " + scriptDigest(lua) + ")");
  }

  /** The first 8 hex digits of the script's SHA-256. */
  static String scriptDigest(byte[] lua) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(lua), 0, 4);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** wrk -v prints "wrk 4.1.0 [epoll] Copyright ..." and exits 1. */
  static String detectVersion() {
    try {
      Process process = new ProcessBuilder("wrk", "-v").redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor(5, TimeUnit.SECONDS);
      return parseVersion(out);
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static String parseVersion(String output) {
    for (String line : output.split("\\R")) {
      if (line.startsWith("wrk ")) {
        String[] words = line.split("\\s+");
        return words.length > 1 ? "wrk " + words[1] : line.trim();
      }
    }
    return "unknown";
  }

  @Override
  public String name() {
    return "wrk";
  }

  @Override
  public String version() {
    return version;
  }

  /** The command line of one run (without the client's pinning), as started. */
  List<String> command(LoadSpec spec, String bodyFile) {
    return List.of("wrk",
        "-t", Integer.toString(spec.threads()),
        "-c", Integer.toString(spec.connections()),
        "-d", spec.duration().toSeconds() + "s",
        "--timeout", Math.max(1, spec.timeout().toSeconds()) + "s",
        "-s", script,
        spec.baseUrl().resolve(spec.endpoint().path()).toString(),
        "--", spec.endpoint().method(), bodyFile == null ? "-" : bodyFile,
        Integer.toString(spec.pipeline()), spec.keepAlive() ? "0" : "1");
  }

  @Override
  public LoadResult run(LoadSpec spec) throws LoadException, InterruptedException {
    String body = spec.endpoint().body();
    String bodyFile = null;
    if (body != null) {
      bodyFile = bodies.get(body);
      if (bodyFile == null) {
        bodyFile = client.stage("fairbench-body-" + Integer.toHexString(body.hashCode()) + ".json",
            body.getBytes(StandardCharsets.UTF_8));
        bodies.put(body, bodyFile);
      }
    }
    LoadClient.Execution run = client.run("wrk", command(spec, bodyFile), Duration.ofSeconds(spec.duration().toSeconds() + 30));
    String output = run.stdout() + (run.stderr().isEmpty() ? "" : "\n" + run.stderr());
    if (run.exitCode() != 0) {
      throw new LoadException("wrk exited with " + run.exitCode() + ": " + lastLines(output));
    }
    LoadResult result = WrkOutputParser.parse(output).withClientCpu(run.cpuSeconds(), run.cpuUtilisation());
    // Pipelining, wrk times a batch of `depth` requests as one, then corrects that histogram for coordinated
    // omission with an interval per request (src/stats.c, stats_correct): the samples it adds below the
    // histogram's minimum are counted but never read, so its percentiles and mean describe nothing (p99 of
    // 0 µs on nginx). Nothing is recorded rather than that.
    return spec.pipeline() > 1 ? result.withoutLatency() : result;
  }

  private static String lastLines(String output) {
    String[] lines = output.strip().split("\\R");
    return String.join(" | ", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 3), lines.length));
  }
}
