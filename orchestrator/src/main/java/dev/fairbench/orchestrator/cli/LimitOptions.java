package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.runtime.DockerRuntime;
import dev.fairbench.orchestrator.runtime.NativeRuntime;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.nio.file.Path;
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
    for (String cpus : new String[] {limits.serverCpus(), limits.clientCpus()}) {
      if (CpuSet.highest(cpus) >= cores) {
        throw new UsageException("CPU set " + cpus + " names a CPU this machine lacks (it has CPUs 0-" + (cores - 1) + ")");
      }
    }
    return limits;
  }

  ServerRuntime runtime(Path logDir) {
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
