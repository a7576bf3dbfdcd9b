package dev.fairbench.orchestrator.runtime;

import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Info;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.results.Environment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the Docker engine applies to the servers' containers: `docker info`'s security options,
 * cgroup driver and version, and the view from inside a container started as the servers are
 * (host network, their CPU set and memory limit, no security option): its seccomp mode from
 * /proc/self/status and its AppArmor label from /proc/self/attr/current, as the kernel sees them.
 */
final class EngineSecurity {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  /** Prints what the kernel applies to the container's first process. */
  static final String SCRIPT = "grep -E '^(Seccomp|Seccomp_filters|NoNewPrivs):' /proc/self/status;"
      + " printf 'apparmor: %s\\n' \"$(cat /proc/self/attr/current 2>&1 | tr -d '\\0')\"";

  private EngineSecurity() {}

  static Environment.EngineSettings probe(DockerEngine engine, Limits limits) {
    Info info;
    try {
      info = engine.info();
    } catch (RuntimeException e) {
      return new Environment.EngineSettings(List.of(), "unknown", "unknown", List.of(), "unknown", "unknown",
          "docker info failed: " + DockerRuntime.rootMessage(e));
    }
    List<String> options = info.getSecurityOptions() == null ? List.of() : info.getSecurityOptions();
    String driver = blankTo(info.getCGroupDriver(), "unknown");
    String version = blankTo(info.getCGroupVersion(), "1"); // engines before API 1.41 say nothing: v1
    List<String> securityOpt = new ArrayList<>();
    ContainerCommands.Outcome outcome = ContainerCommands.runOnce(engine.client(), Topology.PROBE_IMAGE,
        List.of(), List.of("sh", "-c", SCRIPT), TIMEOUT,
        new HostConfig().withNetworkMode("host").withCpusetCpus(limits.serverCpus())
            .withMemory(limits.memoryBytes()).withMemorySwap(limits.memoryBytes()),
        inspect -> {
          if (inspect.getHostConfig() != null && inspect.getHostConfig().getSecurityOpts() != null) {
            securityOpt.addAll(inspect.getHostConfig().getSecurityOpts());
          }
        });
    if (outcome.exitCode() != 0) {
      return new Environment.EngineSettings(options, engineSeccomp(options), engineAppArmor(options), securityOpt,
          driver, version, "not checked in a container: " + Topology.PROBE_IMAGE + " " + outcome.firstLineOrWhy()
              + "; seccomp and AppArmor as docker info lists them");
    }
    return of(options, outcome.output(), securityOpt, driver, version);
  }

  /** From `docker info`'s options and the probe container's output ({@link #SCRIPT}). */
  static Environment.EngineSettings of(List<String> options, String containerOutput, List<String> securityOpt,
      String driver, String version) {
    String mode = field(containerOutput, "Seccomp:").orElse("");
    String filters = field(containerOutput, "Seccomp_filters:").orElse("");
    String kernelSeccomp = switch (mode) {
      case "0" -> "off in the container";
      case "1" -> "strict mode";
      case "2" -> "filter mode" + (filters.isEmpty() ? "" : ", " + filters + " filter" + ("1".equals(filters) ? "" : "s"));
      default -> "mode unknown";
    };
    String seccomp = engineSeccomp(options) + " (" + kernelSeccomp + ")";
    String label = field(containerOutput, "apparmor:").orElse("");
    String apparmor;
    if (label.isEmpty() || label.toLowerCase(Locale.ROOT).contains("invalid argument")
        || label.toLowerCase(Locale.ROOT).contains("no such file")) {
      apparmor = "none (" + (engineAppArmor(options).equals("none") ? "the engine lists no AppArmor and " : "")
          + "the kernel reports no AppArmor label)";
    } else {
      apparmor = label;
    }
    return new Environment.EngineSettings(options, seccomp, apparmor, securityOpt, driver, version,
        "a container of " + Topology.PROBE_IMAGE + " started as the servers are: /proc/self/status and /proc/self/attr/current");
  }

  /** The profile of docker info's "name=seccomp,profile=X", or "none" when seccomp is not listed. */
  static String engineSeccomp(List<String> options) {
    for (String option : options) {
      if (option.startsWith("name=seccomp")) {
        for (String part : option.split(",")) {
          if (part.startsWith("profile=")) {
            return part.substring("profile=".length());
          }
        }
        return "default";
      }
    }
    return "none";
  }

  /** "docker-default" when docker info lists AppArmor (the profile it gives unprivileged containers), else "none". */
  static String engineAppArmor(List<String> options) {
    return options.stream().anyMatch(o -> o.equals("name=apparmor") || o.startsWith("name=apparmor,")) ? "docker-default" : "none";
  }

  private static Optional<String> field(String output, String name) {
    return output.lines().filter(l -> l.startsWith(name)).findFirst().map(l -> l.substring(name.length()).trim());
  }

  private static String blankTo(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
