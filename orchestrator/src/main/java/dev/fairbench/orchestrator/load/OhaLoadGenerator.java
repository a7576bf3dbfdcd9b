package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.runtime.ClockTicks;
import dev.fairbench.orchestrator.runtime.Commands;
import dev.fairbench.orchestrator.runtime.ProcFs;
import dev.fairbench.orchestrator.runtime.ServerRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Sends requests at a fixed rate with oha, pinned with taskset to the client CPU set, and reads its
 * JSON summary. oha schedules each request at its slot whether or not the previous ones have been
 * answered, and with --latency-correction measures latency from that slot: a server that cannot
 * keep up shows growing latencies and a lower achieved rate instead of a politely slowed client.
 * With -w the requests still in flight at the deadline are awaited (bounded by the request
 * timeout), so a healthy run has no "aborted due to deadline" errors.
 */
public final class OhaLoadGenerator {
  public static final String MISSING = "oha not found on PATH (cargo install oha --locked)";

  private final String clientCpus;
  private final String version;

  OhaLoadGenerator(String clientCpus, String version) {
    this.clientCpus = clientCpus;
    this.version = version;
  }

  /** One run: which endpoint, how many requests per second, for how long, over how many connections. */
  public record Spec(URI baseUrl, Endpoint endpoint, double rate, Duration duration, int connections,
      Duration timeout) {
    public Spec {
      if (!(rate > 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException("the rate must be a positive number of requests per second, got " + rate);
      }
      if (connections < 1) {
        throw new IllegalArgumentException("need at least one connection, got " + connections);
      }
      if (duration.toMillis() < 1000) {
        throw new IllegalArgumentException("a run lasts at least 1 s, got " + duration.toMillis() + " ms");
      }
    }
  }

  /** @throws LoadException with {@link #MISSING} when oha is not on PATH, or when taskset is missing */
  public static OhaLoadGenerator create(String clientCpus) throws LoadException {
    if (!Commands.onPath("oha")) {
      throw new LoadException(MISSING);
    }
    if (!Commands.onPath("taskset")) {
      throw new LoadException("taskset not found on PATH (Debian: apt-get install -y util-linux)");
    }
    String version = Commands.output(List.of("oha", "--version"), Path.of("."), Duration.ofSeconds(10))
        .map(OhaLoadGenerator::parseVersion).orElse("oha (unknown version)");
    return new OhaLoadGenerator(clientCpus, version);
  }

  /** "oha 1.16.0" from the first line of oha --version. */
  static String parseVersion(String output) {
    return output.lines().map(String::strip).filter(l -> l.startsWith("oha")).findFirst().orElse("oha (unknown version)");
  }

  public String version() {
    return version;
  }

  /** The command line of one run, as started. */
  List<String> command(Spec spec) {
    List<String> command = new ArrayList<>(List.of(
        "taskset", "-c", clientCpus, "oha",
        "-z", spec.duration().toMillis() + "ms",
        "-q", BigDecimal.valueOf(spec.rate()).stripTrailingZeros().toPlainString(),
        "-c", Integer.toString(spec.connections()),
        "-t", spec.timeout().toMillis() + "ms",
        "-w", "--latency-correction", "--no-tui", "--output-format", "json",
        "--worker-threads", Integer.toString(CpuSet.count(clientCpus)),
        "-m", spec.endpoint().method()));
    if (spec.endpoint().body() != null) {
      command.addAll(List.of("-T", "application/json", "-d", spec.endpoint().body()));
    }
    command.add(spec.baseUrl().resolve(spec.endpoint().path()).toString());
    return command;
  }

  public ConstantRateResult run(Spec spec) throws LoadException, InterruptedException {
    Path stderr = null;
    try {
      stderr = Files.createTempFile("fairbench-oha", ".err");
      long ticksBefore = ProcFs.reapedChildrenTicks();
      long started = System.nanoTime();
      Process process = new ProcessBuilder(command(spec)).redirectError(stderr.toFile()).start();
      ServerRegistry.track(process);
      // Past the deadline oha waits at most one request timeout for what is in flight.
      long limitSeconds = spec.duration().toSeconds() + spec.timeout().toSeconds() + 30;
      String output;
      try {
        output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(limitSeconds, TimeUnit.SECONDS)) {
          throw new LoadException("oha did not finish within " + limitSeconds + " s");
        }
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
        ServerRegistry.untrack(process);
      }
      double wall = (System.nanoTime() - started) / 1e9;
      if (process.exitValue() != 0) {
        throw new LoadException("oha exited with " + process.exitValue() + ": "
            + lastLine(Files.readString(stderr)).or(() -> lastLine(output)).orElse("no output"));
      }
      double cpu = (double) (ProcFs.reapedChildrenTicks() - ticksBefore) / ClockTicks.perSecond();
      return OhaOutputParser.parse(output).withClientCpu(cpu, cpu / wall);
    } catch (IOException e) {
      throw new LoadException("cannot run oha: " + e.getMessage());
    } finally {
      if (stderr != null) {
        try {
          Files.deleteIfExists(stderr);
        } catch (IOException e) {
          // a temp file; harmless
        }
      }
    }
  }

  private static Optional<String> lastLine(String text) {
    List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    return lines.isEmpty() ? Optional.empty() : Optional.of(lines.getLast());
  }
}
