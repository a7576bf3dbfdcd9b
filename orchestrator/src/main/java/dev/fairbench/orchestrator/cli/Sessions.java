package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.load.LoadClient;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.runtime.EnvironmentProbe;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.Topology;
import java.time.Instant;

/** Builds the environment block shared by `run` and `conformance`. */
final class Sessions {
  private Sessions() {}

  static Environment environment(Instant now, FairbenchPaths paths, ServerRuntime runtime, LoadClient loadClient,
      String loadGenerator, RunConfig config) {
    Limits limits = config.limits();
    String note = runtime.limitsNote();
    return new Environment(now, EnvironmentProbe.hostname(), EnvironmentProbe.cpuModel(), EnvironmentProbe.cores(),
        EnvironmentProbe.kernel(), EnvironmentProbe.cgroupVersion(), runtime.limitsMode(), note, runtime.name(),
        loadGenerator, Runtime.version().toString(), EnvironmentProbe.gitCommit(paths.root()),
        EnvironmentProbe.gitDirty(paths.root()),
        new Environment.LimitsRecord(limits.serverCpus(), limits.clientCpus(), limits.memoryBytes(), limits.workers()),
        new Environment.LoadSettings(config.duration().toMillis() / 1e3, config.warmup().toMillis() / 1e3,
            config.connections(), config.threads(), config.requestTimeout().toMillis() / 1e3,
            dev.fairbench.orchestrator.pipeline.WarmMaximum.AGREEMENT),
        config.endpoints().stream().map(Endpoint::wireName).toList(), "",
        // The hosts and the path to the servers, measured once before the first server starts
        // (under the run lock); conformance alone measures nothing.
        config.benchmark() ? Topology.probe(runtime, limits, loadClient) : null,
        runtime.engineSettings(limits));
  }
}
