package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.runtime.DockerEngine;
import dev.fairbench.orchestrator.runtime.DockerRuntime;
import dev.fairbench.orchestrator.runtime.NativeRuntime;
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
    Limits limits;
    try {
      limits = new Limits(
          serverCpus == null ? profile.serverCpus() : serverCpus,
          clientCpus == null ? profile.clientCpus() : clientCpus,
          memory == null ? Defaults.MEMORY_BYTES : memory,
          workers == null ? profile.workers() : workers);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    int cores = Runtime.getRuntime().availableProcessors();
    Optional<DockerEngine> remote = serverEngine();
    if (remote.isPresent()) {
      // The server's CPU set is the server host's; the client's stays this machine's.
      int serverCores = serverHostCores(remote.get());
      if (CpuSet.highest(limits.serverCpus()) >= serverCores) {
        throw new UsageException("server CPU set " + limits.serverCpus() + " names a CPU the server host lacks (it has CPUs 0-"
            + (serverCores - 1) + ")");
      }
      if (CpuSet.highest(limits.clientCpus()) >= cores) {
        throw new UsageException("client CPU set " + limits.clientCpus() + " names a CPU this machine lacks (it has CPUs 0-"
            + (cores - 1) + ")");
      }
      return limits;
    }
    for (String cpus : new String[] {limits.serverCpus(), limits.clientCpus()}) {
      if (CpuSet.highest(cpus) >= cores) {
        throw new UsageException("CPU set " + cpus + " names a CPU this machine lacks (it has CPUs 0-" + (cores - 1) + ")");
      }
    }
    return limits;
  }

  private static int serverHostCores(DockerEngine engine) {
    try {
      Integer cores = engine.info().getNCPU();
      if (cores == null || cores < 1) {
        throw new UsageException("the server host's engine " + engine.url() + " does not say how many CPUs it has");
      }
      return cores;
    } catch (RuntimeException e) {
      if (e instanceof UsageException usage) {
        throw usage;
      }
      throw new UsageException("the server host's engine " + engine.url() + " does not answer: " + e.getMessage());
    }
  }

  ServerRuntime runtime(Path logDir) {
    Optional<DockerEngine> remote = serverEngine();
    if (remote.isPresent()) {
      if (!"docker".equals(runtime) && !"auto".equals(runtime)) {
        throw new UsageException("--server-host runs the servers on a Docker engine: --runtime " + runtime
            + " cannot be used with it (use docker or auto)");
      }
      return new DockerRuntime(logDir, remote.get());
    }
    return runtime(runtime, logDir);
  }

  static ServerRuntime runtime(String name, Path logDir) {
    return switch (resolve(name, DockerRuntime::engineReachable)) {
      case "native" -> new NativeRuntime(logDir);
      case "docker" -> new DockerRuntime(logDir);
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
