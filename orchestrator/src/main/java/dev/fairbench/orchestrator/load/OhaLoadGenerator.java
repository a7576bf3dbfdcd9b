package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.config.CpuSet;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sends requests at a fixed rate with oha on the load client (pinned to the client CPU set), and reads its
 * JSON summary. oha schedules each request at its slot whether or not the previous ones have been
 * answered, and with --latency-correction measures latency from that slot: a server that cannot
 * keep up shows growing latencies and a lower achieved rate instead of a politely slowed client.
 * With -w the requests still in flight at the deadline are awaited (bounded by the request
 * timeout), so a healthy run has no "aborted due to deadline" errors. --disable-compression drops the
 * Accept-Encoding oha sends by default: wrk asks for no compression, and the answers of a throughput
 * and a rate cell of one endpoint must be the same work.
 */
public final class OhaLoadGenerator {
  public static final String MISSING = "oha not found on PATH (cargo install oha --locked)";

  private final LoadClient client;
  private final String version;

  OhaLoadGenerator(String clientCpus, String version) {
    this(new LocalLoadClient(clientCpus), version);
  }

  OhaLoadGenerator(LoadClient client, String version) {
    this.client = client;
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
    return create(new LocalLoadClient(clientCpus));
  }

  /** oha on {@code client}. @throws LoadException when oha (or, here, taskset) is missing there */
  public static OhaLoadGenerator create(LoadClient client) throws LoadException {
    if (!client.has("oha")) {
      throw new LoadException(client instanceof LocalLoadClient ? MISSING : "oha is not on PATH in " + client.describe());
    }
    if (client instanceof LocalLoadClient && !client.has("taskset")) {
      throw new LoadException("taskset not found on PATH (Debian: apt-get install -y util-linux)");
    }
    String version = client.output(List.of("oha", "--version"))
        .map(OhaLoadGenerator::parseVersion).orElse("oha (unknown version)");
    return new OhaLoadGenerator(client, version);
  }

  /** "oha 1.16.0" from the first line of oha --version. */
  static String parseVersion(String output) {
    return output.lines().map(String::strip).filter(l -> l.startsWith("oha")).findFirst().orElse("oha (unknown version)");
  }

  public String version() {
    return version;
  }

  /**
   * The header lines oha adds to every request besides Host, Content-Type and Content-Length (its
   * {@code lib.rs}: Accept and User-Agent; Accept-Encoding is disabled), as the answer check must
   * send them to be answered as oha is.
   */
  public List<String> requestHeaders() {
    return requestHeaders(version);
  }

  /** @param version as {@link #version()} gives it: "oha 1.16.0" */
  public static List<String> requestHeaders(String version) {
    String agent = version.matches("oha \\S+") ? version.replace(' ', '/') : "oha";
    return List.of("accept: */*", "user-agent: " + agent);
  }

  /** The command line of one run, as started (locally pinned with taskset; a client container has its cpuset). */
  List<String> command(Spec spec) {
    List<String> command = new ArrayList<>(client instanceof LocalLoadClient
        ? List.of("taskset", "-c", client.cpus()) : List.of());
    command.addAll(tool(spec));
    return command;
  }

  /** oha and its arguments. */
  List<String> tool(Spec spec) {
    List<String> command = new ArrayList<>(List.of(
        "oha",
        "-z", spec.duration().toMillis() + "ms",
        "-q", BigDecimal.valueOf(spec.rate()).stripTrailingZeros().toPlainString(),
        "-c", Integer.toString(spec.connections()),
        "-t", spec.timeout().toMillis() + "ms",
        "-w", "--latency-correction", "--disable-compression", "--no-tui", "--output-format", "json",
        "--worker-threads", Integer.toString(CpuSet.count(client.cpus())),
        "-m", spec.endpoint().method()));
    if (spec.endpoint().body() != null) {
      command.addAll(List.of("-T", "application/json", "-d", spec.endpoint().body()));
    }
    command.add(spec.baseUrl().resolve(spec.endpoint().path()).toString());
    return command;
  }

  public ConstantRateResult run(Spec spec) throws LoadException, InterruptedException {
    // Past the deadline oha waits at most one request timeout for what is in flight.
    long limitSeconds = spec.duration().toSeconds() + spec.timeout().toSeconds() + 30;
    LoadClient.Execution run = client.run("oha", tool(spec), Duration.ofSeconds(limitSeconds));
    if (run.exitCode() != 0) {
      throw new LoadException("oha exited with " + run.exitCode() + ": "
          + lastLine(run.stderr()).or(() -> lastLine(run.stdout())).orElse("no output"));
    }
    return OhaOutputParser.parse(run.stdout()).withClientCpu(run.cpuSeconds(), run.cpuUtilisation());
  }

  private static Optional<String> lastLine(String text) {
    List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    return lines.isEmpty() ? Optional.empty() : Optional.of(lines.getLast());
  }
}
