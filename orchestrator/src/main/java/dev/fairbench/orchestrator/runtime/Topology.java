package dev.fairbench.orchestrator.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Info;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.load.LoadClient;
import dev.fairbench.orchestrator.results.Environment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Describes the hosts of a run and measures the network path from the load client to the servers'
 * address, once, at the start of a run (docs/TWO-HOSTS.md).
 *
 * <p>The probe server is a small Perl script (perl-base is in every Debian image, and on this
 * machine): in a container on the servers' engine (host network, the server CPU set, 64 MiB) for
 * the docker runtimes, a local process on the server CPU set for the native runtime. It prints the
 * host's CPU model and then answers two kinds of connection: "P" echoes single bytes (the
 * round-trip time of a minimal request: the path's latency floor), "B" streams zeros until the
 * client closes (one TCP stream's throughput from the server host to the client: the most a
 * response stream can carry on this path). On one host both measure loopback.
 */
public final class Topology {
  /** The probe container's image on a docker engine; every Debian-based base image has perl. */
  public static final String PROBE_IMAGE = System.getProperty("fairbench.probe.image",
      Optional.ofNullable(System.getenv("FAIRBENCH_PROBE_IMAGE")).orElse("debian:bookworm-slim"));

  static final int RTT_WARMUP = 200;
  static final int RTT_SAMPLES = 2000;
  static final Duration STREAM_WARMUP = Duration.ofMillis(250);
  static final Duration STREAM_TIMED = Duration.ofSeconds(1);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  static final String SCRIPT = String.join("\n",
      "use strict; use IO::Socket::INET; use Socket qw(IPPROTO_TCP TCP_NODELAY);",
      "$SIG{PIPE} = 'IGNORE'; $| = 1;",
      "my ($addr, $port) = @ARGV; my $model = 'unknown';",
      "if (open(my $c, '<', '/proc/cpuinfo')) { while (<$c>) { if (/^model name\\s*:\\s*(.*)$/) { $model = $1; last } } }",
      "my $l = IO::Socket::INET->new(LocalAddr => $addr, LocalPort => $port, Listen => 16, ReuseAddr => 1, Proto => 'tcp')",
      "  or die \"cannot listen on $addr:$port: $!\\n\";",
      "print \"cpu-model $model\\nlistening\\n\";",
      "while (my $s = $l->accept) {",
      "  setsockopt($s, IPPROTO_TCP, TCP_NODELAY, 1); my $b = '';",
      "  if (sysread($s, $b, 1)) {",
      "    if ($b eq 'P') { syswrite($s, 'P'); while (sysread($s, $b, 1)) { last unless syswrite($s, $b) } }",
      "    elsif ($b eq 'B') { my $chunk = \"\\0\" x 262144; while (1) { last unless defined syswrite($s, $chunk) } }",
      "    elsif ($b eq 'Q') { close $s; last }",
      "  }",
      "  close $s;",
      "}",
      "");

  private Topology() {}

  /**
   * The topology of a run on {@code runtime} with the load client on this machine: see
   * {@link #probe(ServerRuntime, Limits, LoadClient)}.
   */
  public static Environment.Topology probe(ServerRuntime runtime, Limits limits) {
    return probe(runtime, limits, null);
  }

  /**
   * The topology of a run on {@code runtime}: its hosts, and the path to the servers' address
   * measured with the probe server on the server CPU set, from where the load client runs (this
   * JVM, or the client container of `--client-host`). Never throws: what cannot be measured says
   * why in the network path's method (its figures are then -1).
   *
   * @param loadClient where wrk and oha run; null or a local client for this machine
   */
  public static Environment.Topology probe(ServerRuntime runtime, Limits limits, LoadClient loadClient) {
    Optional<DockerEngine> engine = runtime instanceof DockerRuntime docker ? Optional.of(docker.engine()) : Optional.empty();
    boolean remote = engine.map(DockerEngine::remote).orElse(false);
    String address = engine.map(DockerEngine::serverAddress).orElse("127.0.0.1");
    ClientContainer container = loadClient instanceof ClientContainer c ? c : null;
    boolean clientHere = container == null || container.engine().onThisMachine();
    boolean clientWithServers = container != null && remote && container.engine().url().equals(engine.get().url());
    ClientContainer.EngineHost clientHost = container == null ? null : container.host();
    String from = container == null || clientHere ? EnvironmentProbe.hostname() : clientHost.name();
    int port = NativeRuntime.freePort();
    String cpuModel = "unknown";
    Environment.NetworkPath path;
    try (ProbeServer server = engine.isPresent()
        ? ProbeServer.inContainer(engine.get(), address, port, limits.serverCpus())
        : ProbeServer.local(port, limits.serverCpus())) {
      cpuModel = server.cpuModel();
      path = container == null ? measure(from, address, port) : measureFrom(container, from, address, port);
    } catch (IOException | RuntimeException e) {
      path = new Environment.NetworkPath(from, address, "not measured: " + DockerRuntime.rootMessage(e), 0, -1, -1, -1, 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      path = new Environment.NetworkPath(from, address, "not measured: interrupted", 0, -1, -1, -1, 0);
    }
    String clientRole = container == null ? "load client" : "load client (container, CPUs " + container.cpus() + ")";
    List<String> roles = new ArrayList<>(List.of("orchestrator"));
    if (clientHere) {
      roles.add(clientRole);
    }
    if (!remote) {
      roles.add("servers");
    }
    String hereEngine = container != null && clientHere ? clientHost.engine()
        : engine.filter(e -> !e.remote()).map(Topology::engineName).orElse("none");
    List<Environment.Host> hosts = new ArrayList<>();
    hosts.add(new Environment.Host(String.join(", ", roles), EnvironmentProbe.hostname(), EnvironmentProbe.cpuModel(),
        EnvironmentProbe.cores(), EnvironmentProbe.kernel(), hereEngine, EnvironmentProbe.cgroupVersion(),
        remote ? "" : address));
    if (!clientHere && !clientWithServers) {
      hosts.add(new Environment.Host(clientRole, clientHost.name(), clientHost.cpuModel(), clientHost.cores(),
          clientHost.kernel(), clientHost.engine(), clientHost.cgroupVersion(), ""));
    }
    if (remote) {
      Environment.Host server = serverHost(engine.get(), cpuModel);
      hosts.add(clientWithServers ? new Environment.Host(clientRole + ", servers", server.name(), server.cpuModel(),
          server.cores(), server.kernel(), server.engine(), server.cgroupVersion(), server.address()) : server);
    }
    String layout = switch (hosts.size()) {
      case 1 -> Environment.Topology.ONE_HOST;
      case 2 -> Environment.Topology.TWO_HOSTS;
      default -> Environment.Topology.THREE_HOSTS;
    };
    return new Environment.Topology(layout, List.copyOf(hosts), path);
  }

  /** RTT and one stream's throughput to the probe server at address:port, measured in the client container. */
  static Environment.NetworkPath measureFrom(ClientContainer container, String from, String address, int port)
      throws IOException, InterruptedException {
    ClientContainer.PathSample sample = container.measurePath(address, port, RTT_WARMUP, RTT_SAMPLES, STREAM_WARMUP,
        STREAM_TIMED);
    long[] rtt = sample.rttNanos().clone();
    Arrays.sort(rtt);
    double seconds = STREAM_TIMED.toNanos() / 1e9;
    return new Environment.NetworkPath(from, address,
        "probe server (perl) on the server CPU set; measured from the load client container (perl, on the client CPU "
            + "set); RTT: one-byte exchanges on one TCP connection (TCP_NODELAY) after " + RTT_WARMUP
            + " unmeasured; throughput: one TCP stream server → client, timed " + STREAM_TIMED.toMillis() + " ms after "
            + STREAM_WARMUP.toMillis() + " ms",
        rtt.length, percentile(rtt, 0.50) / 1e3, percentile(rtt, 0.99) / 1e3, sample.streamBytes() / seconds, seconds);
  }

  /** The remote host as its engine describes it; the CPU model comes from the probe container. */
  static Environment.Host serverHost(DockerEngine engine, String cpuModel) {
    try {
      Info info = engine.info();
      String cgroup = info.getCGroupVersion() == null || info.getCGroupVersion().isBlank() ? "unknown" : "v" + info.getCGroupVersion();
      return new Environment.Host("servers", String.valueOf(info.getName()), cpuModel,
          info.getNCPU() == null ? -1 : info.getNCPU(), String.valueOf(info.getKernelVersion()), engineName(engine, info),
          cgroup, engine.serverAddress());
    } catch (RuntimeException e) {
      return new Environment.Host("servers", "unknown (" + DockerRuntime.rootMessage(e) + ")", cpuModel, -1, "unknown",
          "docker at " + engine.url(), "unknown", engine.serverAddress());
    }
  }

  private static String engineName(DockerEngine engine) {
    try {
      return engineName(engine, engine.info());
    } catch (RuntimeException e) {
      return "docker at " + engine.url();
    }
  }

  private static String engineName(DockerEngine engine, Info info) {
    return "docker " + info.getServerVersion() + " at " + engine.url();
  }

  /** RTT and one stream's throughput to the probe server at address:port. */
  static Environment.NetworkPath measure(String from, String address, int port) throws IOException {
    long[] rtt = roundTrips(address, port, RTT_WARMUP, RTT_SAMPLES);
    Arrays.sort(rtt);
    double seconds = STREAM_TIMED.toNanos() / 1e9;
    double throughput = streamBytes(address, port, STREAM_WARMUP, STREAM_TIMED) / seconds;
    return new Environment.NetworkPath(from, address,
        "probe server (perl) on the server CPU set; RTT: one-byte exchanges on one TCP connection (TCP_NODELAY) after "
            + RTT_WARMUP + " unmeasured; throughput: one TCP stream server → client, timed " + STREAM_TIMED.toMillis()
            + " ms after " + STREAM_WARMUP.toMillis() + " ms",
        rtt.length, percentile(rtt, 0.50) / 1e3, percentile(rtt, 0.99) / 1e3, throughput, seconds);
  }

  /** Nearest-rank percentile of sorted values. */
  static double percentile(long[] sorted, double share) {
    if (sorted.length == 0) {
      return -1;
    }
    int rank = (int) Math.ceil(share * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Nanoseconds of each timed one-byte exchange. */
  static long[] roundTrips(String address, int port, int warmup, int samples) throws IOException {
    try (Socket socket = connect(address, port)) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      exchange(out, in, 'P');
      long[] times = new long[samples];
      for (int i = 0; i < warmup + samples; i++) {
        long start = System.nanoTime();
        exchange(out, in, 'x');
        long took = System.nanoTime() - start;
        if (i >= warmup) {
          times[i - warmup] = took;
        }
      }
      return times;
    }
  }

  private static void exchange(OutputStream out, InputStream in, char c) throws IOException {
    out.write(c);
    out.flush();
    if (in.read() != c) {
      throw new IOException("the probe server did not echo");
    }
  }

  /** Bytes read in {@code timed} after {@code warmup} of one stream from the probe server. */
  static long streamBytes(String address, int port, Duration warmup, Duration timed) throws IOException {
    try (Socket socket = connect(address, port)) {
      socket.setReceiveBufferSize(4 << 20);
      socket.getOutputStream().write('B');
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[1 << 20];
      long warmEnd = System.nanoTime() + warmup.toNanos();
      while (System.nanoTime() < warmEnd) {
        if (in.read(buffer) < 0) {
          throw new IOException("the probe server closed the stream");
        }
      }
      long end = System.nanoTime() + timed.toNanos();
      long bytes = 0;
      while (System.nanoTime() < end) {
        int n = in.read(buffer);
        if (n < 0) {
          throw new IOException("the probe server closed the stream");
        }
        bytes += n;
      }
      return bytes;
    }
  }

  private static Socket connect(String address, int port) throws IOException {
    Socket socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(address, port), 5000);
    socket.setSoTimeout(5000);
    return socket;
  }

  /** The probe server while it runs; closing stops it. */
  abstract static class ProbeServer implements AutoCloseable {
    private String cpuModel = "unknown";

    String cpuModel() {
      return cpuModel;
    }

    /** Reads the script's first lines until "listening". */
    void awaitListening(java.util.function.Supplier<List<String>> lines, java.util.function.Supplier<Optional<String>> gone)
        throws IOException, InterruptedException {
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        for (String line : lines.get()) {
          if (line.startsWith("cpu-model ")) {
            cpuModel = line.substring("cpu-model ".length()).trim();
          } else if (line.equals("listening")) {
            return;
          }
        }
        Optional<String> why = gone.get();
        if (why.isPresent()) {
          throw new IOException("the probe server stopped: " + why.get());
        }
        Thread.sleep(100);
      }
      throw new IOException("the probe server did not listen within " + READY_TIMEOUT.toSeconds() + " s");
    }

    @Override
    public abstract void close();

    /** perl on this machine, on the server CPU set (taskset when there is one). */
    static ProbeServer local(int port, String cpus) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>();
      if (Commands.onPath("taskset")) {
        command.addAll(List.of("taskset", "-c", cpus));
      }
      command.addAll(List.of("perl", "-e", SCRIPT, "127.0.0.1", Integer.toString(port)));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      ProbeServer server = new ProbeServer() {
        @Override
        public void close() {
          process.destroy();
          try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
              process.destroyForcibly();
            }
          } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
          }
        }
      };
      try {
        server.awaitListening(() -> {
          List<String> lines = new ArrayList<>();
          try {
            while (reader.ready()) {
              lines.add(reader.readLine());
            }
          } catch (IOException e) {
            // the process is gone: the next check says so
          }
          return lines;
        }, () -> process.isAlive() ? Optional.empty() : Optional.of("perl exited with code " + process.exitValue()));
      } catch (IOException | InterruptedException e) {
        server.close();
        throw e;
      }
      return server;
    }

    /** A container of {@link #PROBE_IMAGE} on the engine's host network, bound to the servers' address. */
    static ProbeServer inContainer(DockerEngine engine, String address, int port, String cpus)
        throws IOException, InterruptedException {
      DockerClient client = engine.client();
      if (engine.remote()) {
        try {
          DockerRuntime.checkRemotePortFree(address, port);
        } catch (ServerStartException e) {
          throw new IOException(e.getMessage());
        }
      }
      String id;
      try {
        id = client.createContainerCmd(PROBE_IMAGE)
            .withName("fairbench-probe-" + ProcessHandle.current().pid() + "-" + port)
            .withCmd("perl", "-e", SCRIPT, address, Integer.toString(port))
            .withLabels(Map.of(DockerRuntime.LABEL, "true", Watchdog.LABEL_OWNER, Watchdog.owner(),
                DockerRuntime.LABEL_ORCHESTRATOR_HOST, DockerRuntime.orchestratorHost()))
            .withHostConfig(new HostConfig().withNetworkMode("host").withCpusetCpus(cpus)
                .withMemory(64L << 20).withMemorySwap(64L << 20))
            .exec().getId();
        client.startContainerCmd(id).exec();
      } catch (DockerException e) {
        throw new IOException("the probe container (" + PROBE_IMAGE + ") could not start on " + engine.url() + ": "
            + DockerRuntime.rootMessage(e), e);
      }
      ProbeServer server = new ProbeServer() {
        @Override
        public void close() {
          try {
            client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
          } catch (RuntimeException e) {
            System.err.println("fairbench: removing the probe container " + id + " failed: " + e.getMessage()
                + "; remove it with: docker rm -f " + id);
          }
        }
      };
      try {
        server.awaitListening(() -> containerLog(client, id), () -> {
          var state = client.inspectContainerCmd(id).exec().getState();
          return state != null && Boolean.TRUE.equals(state.getRunning()) ? Optional.empty()
              : Optional.of("exited " + (state == null ? "" : "with code " + state.getExitCodeLong()) + ": "
                  + String.join(" ", containerLog(client, id)));
        });
      } catch (IOException | InterruptedException | RuntimeException e) {
        server.close();
        throw e;
      }
      return server;
    }

    private static List<String> containerLog(DockerClient client, String id) {
      StringBuilder out = new StringBuilder();
      try {
        client.logContainerCmd(id).withStdOut(true).withStdErr(true)
            .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
              @Override
              public void onNext(com.github.dockerjava.api.model.Frame frame) {
                out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
              }
            }).awaitCompletion(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        // no log yet
      }
      return out.toString().lines().map(String::trim).toList();
    }
  }

  /** One line for messages: "two-hosts: client → 10.0.0.2, RTT p50 48 µs, p99 95 µs, one stream 1.1 GB/s". */
  public static String describe(Environment.Topology topology) {
    Environment.NetworkPath path = topology.network();
    if (path == null || path.rttSamples() == 0) {
      return topology.layout() + (path == null ? "" : " (" + path.method() + ")");
    }
    return String.format(Locale.ROOT, "%s: %s → %s, RTT p50 %.0f µs, p99 %.0f µs, one stream %.2f GB/s",
        topology.layout(), path.from(), path.to(), path.rttP50Micros(), path.rttP99Micros(),
        path.throughputBytesPerSecond() / 1e9);
  }
}
