package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.runtime.DockerEngine;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.runtime.Runtimes;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Option;

/** The limits and runtime options shared by `run` and `conformance`. */
public final class LimitOptions {
  @Option(names = "--server-cpus", paramLabel = "LIST",
      description = "CPU set of the server, e.g. 1 or 2-3 (default: 1 on 2-3 cores, 2-3 from 4 cores).")
  String serverCpus;

  @Option(names = "--client-cpus", paramLabel = "LIST",
      description = "CPU set of wrk, disjoint from the server's (default: 0 on 2-3 cores, 0-1 from 4 cores).")
  String clientCpus;

  @Option(names = "--memory", paramLabel = "SIZE", converter = Converters.SizeConverter.class,
      description = "Memory limit of the server, e.g. 512m or 1g (default: 512m).")
  Long memory;

  @Option(names = "--workers", paramLabel = "N",
      description = "WORKERS given to every server (default: 1 on 2-3 cores, 2 from 4 cores).")
  Integer workers;

  @Option(names = "--runtime", paramLabel = "NAME", defaultValue = Defaults.RUNTIME,
      description = "Where servers run: native (local processes in a cgroup), docker (containers, see "
          + "docs/DOCKER.md), or auto: docker when a Docker engine answers, native otherwise. Default: ${DEFAULT-VALUE}.")
  String runtime;

  @Option(names = "--server-host", paramLabel = "DOCKER_URL",
      description = "Run the servers on another machine through its Docker engine, e.g. tcp://10.0.0.2:2376 "
          + "(TLS with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH, as the docker CLI), or unix:///PATH of a socket "
          + "forwarded with ssh -L. Images are built there, containers run on its host network under the same "
          + "limits; the load client stays here. Default: DOCKER_HOST when it names another machine. "
          + "See docs/TWO-HOSTS.md.")
  String serverHost;

  @Option(names = "--server-address", paramLabel = "ADDRESS",
      description = "The server host's address as the load client reaches it (servers bind it; default: the host "
          + "in --server-host).")
  String serverAddress;

  private Optional<DockerEngine> engine;

  /** The remote engine of --server-host (or DOCKER_HOST), empty when the servers run on this machine. */
  Optional<DockerEngine> serverEngine() {
    if (engine == null) {
      try {
        engine = DockerEngine.fromOptions(serverHost, serverAddress, System.getenv());
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    return engine;
  }

  Limits limits(Defaults.Profile profile) {
    return limits(profile, Optional.empty());
  }

  /**
   * The limits, each CPU set checked against the host it applies to: the server set against the
   * server host (this machine, or the engine of --server-host), the client set against the host
   * the load client runs on (this machine, or the engine of --client-host when that is another
   * machine; there, without --client-cpus, the client gets that host's CPUs that the server set
   * does not name).
   */
  Limits limits(Defaults.Profile profile, Optional<DockerEngine> clientHost) {
    int cores = Runtime.getRuntime().availableProcessors();
    Optional<DockerEngine> remote = serverEngine();
    Optional<DockerEngine> separateClient = clientHost.filter(e -> !e.onThisMachine());
    int serverCores = remote.map(e -> hostCores(e, "server host")).orElse(cores);
    int clientCores = separateClient.map(e -> hostCores(e, "client host")).orElse(cores);
    String server = serverCpus == null ? profile.serverCpus() : serverCpus;
    String client = clientCpus;
    if (client == null) {
      client = separateClient.isPresent() ? othersOf(server, clientCores, separateClient.get()) : profile.clientCpus();
    }
    Limits limits;
    try {
      limits = new Limits(server, client, memory == null ? Defaults.MEMORY_BYTES : memory,
          workers == null ? profile.workers() : workers);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (remote.isEmpty() && separateClient.isEmpty()) {
      for (String cpus : new String[] {limits.serverCpus(), limits.clientCpus()}) {
        if (CpuSet.highest(cpus) >= cores) {
          throw new UsageException("CPU set " + cpus + " names a CPU this machine lacks (it has CPUs 0-" + (cores - 1) + ")");
        }
      }
      return limits;
    }
    // The server's CPU set is the server host's; the client's is the client's host's.
    if (CpuSet.highest(limits.serverCpus()) >= serverCores) {
      throw new UsageException("server CPU set " + limits.serverCpus() + " names a CPU the "
          + (remote.isPresent() ? "server host" : "machine") + " lacks (it has CPUs 0-" + (serverCores - 1) + ")");
    }
    if (CpuSet.highest(limits.clientCpus()) >= clientCores) {
      throw new UsageException("client CPU set " + limits.clientCpus() + " names a CPU "
          + (separateClient.isPresent() ? "the client host" : "this machine") + " lacks (it has CPUs 0-" + (clientCores - 1) + ")");
    }
    return limits;
  }

  /** The CPUs 0..cores-1 that {@code serverCpus} does not name, as a cpuset list. */
  static String othersOf(String serverCpus, int cores, DockerEngine clientHost) {
    java.util.BitSet server = CpuSet.parse(serverCpus);
    StringBuilder out = new StringBuilder();
    for (int cpu = 0; cpu < cores; cpu++) {
      if (!server.get(cpu)) {
        out.append(out.isEmpty() ? "" : ",").append(cpu);
      }
    }
    if (out.isEmpty()) {
      throw new UsageException("the client host " + clientHost.url() + " has CPUs 0-" + (cores - 1)
          + ", all named by the server CPU set " + serverCpus + "; give --client-cpus (for now the two sets must differ "
          + "as numbers, docs/TWO-HOSTS.md)");
    }
    return out.toString();
  }

  private static int hostCores(DockerEngine engine, String what) {
    try {
      Integer cores = engine.info().getNCPU();
      if (cores == null || cores < 1) {
        throw new UsageException("the " + what + "'s engine " + engine.url() + " does not say how many CPUs it has");
      }
      return cores;
    } catch (RuntimeException e) {
      if (e instanceof UsageException usage) {
        throw usage;
      }
      throw new UsageException("the " + what + "'s engine " + engine.url() + " does not answer: "
          + Runtimes.rootMessage(e));
    }
  }

  ServerRuntime runtime(Path logDir) {
    Optional<DockerEngine> remote = serverEngine();
    if (remote.isPresent()) {
      if (!"docker".equals(runtime) && !"auto".equals(runtime)) {
        throw new UsageException("--server-host runs the servers on a Docker engine: --runtime " + runtime
            + " cannot be used with it (use docker or auto)");
      }
      return Runtimes.onEngine(logDir, remote.get());
    }
    return runtime(runtime, logDir);
  }

  static ServerRuntime runtime(String name, Path logDir) {
    return switch (resolve(name, Runtimes::dockerUsable)) {
      case "native" -> Runtimes.of(RuntimeKind.NATIVE, logDir);
      case "docker" -> Runtimes.of(RuntimeKind.DOCKER, logDir);
      default -> throw new UsageException("unknown runtime \"" + name + "\"; available: auto, native, docker");
    };
  }

  /** "auto" becomes docker when an engine answers, native otherwise; other names stay as they are. */
  static String resolve(String name, BooleanSupplier engineReachable) {
    if (!"auto".equals(name)) {
      return name;
    }
    return engineReachable.getAsBoolean() ? "docker" : "native";
  }
}
