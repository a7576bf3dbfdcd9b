package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.orchestrator.core.RuntimeKind;
import java.time.Instant;
import java.util.List;

/**
 * Where and how a run was measured, so results describe themselves.
 *
 * @param limitsMode   how the server limits were enforced: "cgroup-v1", "cgroup-v2" or "taskset"
 * @param limitsNote   why the limits are weaker than a cgroup; empty when a cgroup was used
 * @param orchestratorPlacement where the orchestrator's own threads ran while cells were measured, as checked
 * @param topology     every host of the run and the network path between the load client and the
 *                     servers, measured at the start of the run; null in results written before it
 *                     existed and where it was not measured (conformance only)
 * @param engine       what the Docker engine applies to the servers' containers (security profiles,
 *                     cgroup driver and version); null when no server ran in a container, and in results
 *                     written before it
 * @param runtimes     the runtimes of a run that mixed them (`go-gin@docker` beside `--runtime native`),
 *                     the default one ({@code runtime}) first; empty (and left out of the file) when every
 *                     server ran in {@code runtime}
 */
public record Environment(
    Instant timestamp,
    String hostname,
    String cpuModel,
    int cores,
    String kernel,
    String cgroupVersion,
    String limitsMode,
    String limitsNote,
    String runtime,
    String loadGenerator,
    String javaVersion,
    String gitCommit,
    boolean gitDirty,
    LimitsRecord limits,
    LoadSettings load,
    List<String> endpoints,
    String orchestratorPlacement,
    Topology topology,
    EngineSettings engine,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RuntimeUse> runtimes) {

  public Environment {
    runtimes = runtimes == null ? List.of() : List.copyOf(runtimes);
  }

  /** Every server in one runtime. */
  public Environment(Instant timestamp, String hostname, String cpuModel, int cores, String kernel, String cgroupVersion,
      String limitsMode, String limitsNote, String runtime, String loadGenerator, String javaVersion, String gitCommit,
      boolean gitDirty, LimitsRecord limits, LoadSettings load, List<String> endpoints, String orchestratorPlacement,
      Topology topology, EngineSettings engine) {
    this(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime, loadGenerator,
        javaVersion, gitCommit, gitDirty, limits, load, endpoints, orchestratorPlacement, topology, engine, List.of());
  }

  /** Without engine settings: a native run. */
  public Environment(Instant timestamp, String hostname, String cpuModel, int cores, String kernel, String cgroupVersion,
      String limitsMode, String limitsNote, String runtime, String loadGenerator, String javaVersion, String gitCommit,
      boolean gitDirty, LimitsRecord limits, LoadSettings load, List<String> endpoints, String orchestratorPlacement,
      Topology topology) {
    this(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime, loadGenerator,
        javaVersion, gitCommit, gitDirty, limits, load, endpoints, orchestratorPlacement, topology, null);
  }

  public Environment withOrchestratorPlacement(String placement) {
    return new Environment(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime,
        loadGenerator, javaVersion, gitCommit, gitDirty, limits, load, endpoints, placement, topology, engine,
        runtimes);
  }

  public Environment withTopology(Topology measured) {
    return new Environment(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime,
        loadGenerator, javaVersion, gitCommit, gitDirty, limits, load, endpoints, orchestratorPlacement, measured, engine,
        runtimes);
  }

  public Environment withEngine(EngineSettings settings) {
    return new Environment(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime,
        loadGenerator, javaVersion, gitCommit, gitDirty, limits, load, endpoints, orchestratorPlacement, topology, settings,
        runtimes);
  }

  public Environment withRuntimes(List<RuntimeUse> used) {
    return new Environment(timestamp, hostname, cpuModel, cores, kernel, cgroupVersion, limitsMode, limitsNote, runtime,
        loadGenerator, javaVersion, gitCommit, gitDirty, limits, load, endpoints, orchestratorPlacement, topology, engine,
        used);
  }

  /** Whether the servers ran in more than one runtime, in the same rounds. */
  public boolean mixedRuntimes() {
    return runtimes.size() > 1;
  }

  /**
   * The runtimes for reports: "native runtime", or "native (cgroup-v1) and docker (docker-cgroup-v1)
   * runtimes, in the same rounds".
   */
  public String describeRuntimes() {
    if (!mixedRuntimes()) {
      return runtime + " runtime";
    }
    return String.join(" and ", runtimes.stream().map(r -> r.runtime().wireName() + " (" + r.limitsMode() + ")").toList())
        + " runtimes, in the same rounds";
  }

  /**
   * Which server ran where, for reports: "native (cgroup-v1): go-gin, nginx; docker
   * (docker-cgroup-v1): go-gin@docker"; empty when every server ran in {@code runtime}.
   */
  public String serversByRuntime() {
    return String.join("; ", runtimes.stream().map(r -> r.name() + " (" + r.limitsMode()
        + (r.limitsNote().isEmpty() ? "" : ", " + r.limitsNote()) + "): " + String.join(", ", r.servers())).toList());
  }

  /**
   * One runtime of a run that mixed runtimes. Every server got the same limits ({@code limits}),
   * whatever its runtime: each server's CPU set, memory limit and open-file limit were read back
   * after its start and checked equal to them.
   *
   * @param runtime    native or docker
   * @param name       its name as {@code runtime} above says it (docker-remote for a remote engine)
   * @param limitsMode how it enforced the limits, e.g. cgroup-v1, docker-cgroup-v1
   * @param limitsNote why its limits are weaker than a cgroup; empty when they are not
   * @param servers    the ids of the servers prepared in it, in order (the calibration server's in the default one)
   */
  public record RuntimeUse(RuntimeKind runtime, String name, String limitsMode, String limitsNote, List<String> servers) {
    public RuntimeUse {
      limitsNote = limitsNote == null ? "" : limitsNote;
      servers = servers == null ? List.of() : List.copyOf(servers);
    }
  }

  /**
   * What the Docker engine applies to every server container (fairbench asks for no security
   * option, so the engine's defaults), as `docker info` lists it and as a container started like
   * the servers shows it.
   *
   * @param securityOptions `docker info` SecurityOptions as listed, e.g. "name=seccomp,profile=default"
   * @param seccomp         the seccomp profile: the engine's ("default", "builtin", a file), or
   *                        "none" when the engine lists no seccomp; with the kernel's view of a
   *                        container's first process, e.g. "default (filter mode, 1 filter)"
   * @param apparmor        the AppArmor profile of a container's process as the kernel reports it
   *                        (/proc/PID/attr/current, e.g. "docker-default (enforce)"), or "none"
   *                        with why (the kernel or the engine has no AppArmor)
   * @param securityOpt     the container's HostConfig.SecurityOpt, as inspect reports it (empty:
   *                        the engine's defaults)
   * @param cgroupDriver    `docker info` CgroupDriver: "cgroupfs" or "systemd"
   * @param cgroupVersion   `docker info` CgroupVersion: "1" or "2"
   * @param checked         how the container's view was read, or why it was not
   */
  public record EngineSettings(List<String> securityOptions, String seccomp, String apparmor, List<String> securityOpt,
      String cgroupDriver, String cgroupVersion, String checked) {
    public EngineSettings {
      securityOptions = securityOptions == null ? List.of() : List.copyOf(securityOptions);
      securityOpt = securityOpt == null ? List.of() : List.copyOf(securityOpt);
    }

    /** One line for reports: "seccomp default (filter mode, 1 filter); AppArmor none; cgroup v1 (cgroupfs driver)". */
    public String describe() {
      return "seccomp " + seccomp + "; AppArmor " + apparmor
          + (securityOpt.isEmpty() ? "" : "; security options " + String.join(", ", securityOpt))
          + "; cgroup v" + cgroupVersion + " (" + cgroupDriver + " driver)";
    }
  }

  /**
   * Where the run's parts ran and what lies between them (docs/TWO-HOSTS.md).
   *
   * @param layout  "one-host" (load client and servers on this machine), "two-hosts" (servers on
   *                a remote engine's host, or the load client on a client host's engine) or
   *                "three-hosts" (orchestrator, load client and servers each on its own host)
   * @param hosts   every host: the one running the orchestrator and the load client first
   * @param network the path from the load client to the servers' address, measured at the start
   */
  public record Topology(String layout, List<Host> hosts, NetworkPath network) {
    public static final String ONE_HOST = "one-host";
    public static final String TWO_HOSTS = "two-hosts";
    /** The orchestrator, the load client (`--client-host`) and the servers each on a host of its own. */
    public static final String THREE_HOSTS = "three-hosts";

    /** Whether the servers ran on another host than the orchestrator (a remote engine). */
    public boolean serversRemote() {
      return !ONE_HOST.equals(layout) && hosts.stream().noneMatch(h -> h.roles().startsWith("orchestrator")
          && h.roles().contains("servers"));
    }

    /** Whether the load client ran on the orchestrator's host (not in a container on another machine). */
    public boolean clientHere() {
      return hosts.stream().anyMatch(h -> h.roles().startsWith("orchestrator") && h.roles().contains("load client"));
    }

    /**
     * What must be equal for two runs to be compared as the same setup: the layout and each
     * host's role, CPU model, cores, kernel and cgroup version (not the measured link figures).
     */
    /** One line for reports: the layout, the server host, and the network path's round trip and throughput. */
    public String describe() {
      StringBuilder out = new StringBuilder(layout);
      for (Host host : hosts) {
        out.append("; ").append(host.roles()).append(" on ").append(host.name()).append(" (").append(host.cpuModel())
            .append(", ").append(host.cores()).append(" cores")
            .append(host.engine() == null || host.engine().equals("none") ? "" : ", " + host.engine()).append(')');
      }
      if (network != null && network.rttSamples() > 0) {
        out.append(String.format(java.util.Locale.ROOT, "; path from %s to %s: RTT p50 %.0f µs, p99 %.0f µs, one stream %.2f GB/s",
            network.from(), network.to(), network.rttP50Micros(), network.rttP99Micros(), network.throughputBytesPerSecond() / 1e9));
      }
      return out.toString();
    }

    public String signature() {
      StringBuilder out = new StringBuilder(layout);
      for (Host host : hosts) {
        out.append(" | ").append(host.roles()).append(": ").append(host.cpuModel()).append(" x").append(host.cores())
            .append(", kernel ").append(host.kernel()).append(", cgroup ").append(host.cgroupVersion());
      }
      return out.toString();
    }
  }

  /**
   * One machine of the run.
   *
   * @param roles         what ran there: "orchestrator, load client", "servers", or all three; a load
   *                      client in a container (`--client-host`) is "load client (container, CPUs LIST)"
   * @param name          its host name (the engine's Name for a remote engine)
   * @param cpuModel      /proc/cpuinfo's model name (on a remote host read in a probe container)
   * @param cores         CPUs the kernel (or the engine) reports
   * @param kernel        kernel release
   * @param engine        "docker ENGINE_VERSION at URL" where servers ran in containers, else "none"
   * @param cgroupVersion "v1", "v2", or what the engine reports
   * @param address       the address the servers listen on (127.0.0.1 on one host), empty for the client
   */
  public record Host(String roles, String name, String cpuModel, int cores, String kernel, String engine,
      String cgroupVersion, String address) {}

  /**
   * The path from the load client to the servers' address, measured with a probe server on the
   * server host (a container there, on the server CPU set; a local process on one host).
   *
   * @param from                  the load client's host name
   * @param to                    the servers' address
   * @param method                how it was measured
   * @param rttSamples            one-byte request/response exchanges timed on one TCP connection
   * @param rttP50Micros          their median round-trip time, µs
   * @param rttP99Micros          their 99th percentile, µs
   * @param throughputBytesPerSecond one TCP stream from the server host to the client, bytes/s: the
   *                              most a response stream can carry (the link's ceiling as this path sees it)
   * @param throughputSeconds     how long that stream was timed
   */
  public record NetworkPath(String from, String to, String method, int rttSamples, double rttP50Micros,
      double rttP99Micros, double throughputBytesPerSecond, double throughputSeconds) {}

  /** The limits every server got. */
  public record LimitsRecord(String serverCpus, String clientCpus, long memoryBytes, int workers) {
    /** "server CPUs 1, client CPUs 0, memory 512 MiB, WORKERS=1". */
    public String describe() {
      return String.format(java.util.Locale.ROOT, "server CPUs %s, client CPUs %s, memory %d MiB, WORKERS=%d", serverCpus,
          clientCpus, memoryBytes >> 20, workers);
    }
  }

  /**
   * The load profile of every cell.
   *
   * @param warmupRise      a cell's warm-up repeats its run of {@code warmupSeconds} while one is more
   *                        than this share faster than the one before (at most six runs; at a
   *                        share-of-max rate until two in a row are within it of each other); null in
   *                        files made before 2026-12-06 14:00 UTC, whose cells had one warm-up run but
   *                        at a share-of-max rate
   */
  public record LoadSettings(
      double durationSeconds,
      double warmupSeconds,
      int connections,
      int threads,
      double timeoutSeconds,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Double warmupRise) {

    /** "runs of 1 s, warm-up runs of 2 s while one is over 5% faster than the last, 64 connections, 1 thread(s), timeout 2 s". */
    public String describe() {
      return "runs of " + seconds(durationSeconds) + ", warm-up " + warmupDescription() + ", " + connections
          + " connections, " + threads + " thread(s), timeout " + seconds(timeoutSeconds);
    }

    /** "2 s", "0.5 s": whole seconds without a decimal. */
    public static String seconds(double s) {
      return s == Math.rint(s) ? String.format(java.util.Locale.ROOT, "%.0f s", s)
          : String.format(java.util.Locale.ROOT, "%.1f s", s);
    }

    /** What each cell's warm-up was: "2 s", or "runs of 2 s while one is over 5% faster than the last". */
    public String warmupDescription() {
      String run = seconds(warmupSeconds);
      return warmupRise == null || warmupSeconds == 0 ? run
          : String.format(java.util.Locale.ROOT, "runs of %s while one is over %.0f%% faster than the last", run,
              warmupRise * 100);
    }
  }
}
