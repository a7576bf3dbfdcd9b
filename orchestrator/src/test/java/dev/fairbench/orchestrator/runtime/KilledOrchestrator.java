package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.ManifestReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The orchestrator side of {@link WatchdogTest}, run in a JVM of its own: starts tiny-python
 * with a runtime, freezes it, prints what it started, then waits to be killed with SIGKILL.
 * Arguments: native | taskset | daemon (natively, tiny-escapes:daemon: a server that leaves its process
 * tree and its cgroups) | docker, the port, the log folder, and for docker the folder
 * with the Dockerfile.
 */
public final class KilledOrchestrator {
  private KilledOrchestrator() {}

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    int port = Integer.parseInt(args[1]);
    Path logs = Path.of(args[2]);
    Limits limits = new Limits("1", "0", 256L << 20, 2);
    RunningServer server;
    String what;
    if (kind.equals("docker")) {
      server = new DockerRuntime(logs, "watchdog-test").start(DockerRuntimeTest.tinyPython(Path.of(args[3]), "", "/app/server.py"), limits, port);
      what = "container=" + ((DockerServer) server).containerId();
    } else {
      EntryVariant tiny = kind.equals("daemon")
          ? new ManifestReader().read(TestEntries.impls().resolveSibling("faults").resolve("tiny-escapes")).stream()
              .filter(v -> v.id().equals("tiny-escapes:daemon")).findFirst().orElseThrow()
          : new ManifestReader().read(TestEntries.impls().resolve("tiny-python")).getFirst();
      NativeRuntime runtime = kind.equals("taskset")
          ? new NativeRuntime(logs, new TasksetOnly("test: the SIGSTOP fallback")) : new NativeRuntime(logs);
      NativeServer nativeServer = (NativeServer) runtime.start(tiny, limits, port);
      server = nativeServer;
      // Every process that carries the server's marker: its tree, and for "daemon" what left tree and cgroups.
      List<Long> marked = ProcFs.withVariable(NativeServer.MARKER).entrySet().stream()
          .filter(e -> e.getValue().startsWith(Watchdog.owner() + "/")).map(Map.Entry::getKey).sorted().toList();
      what = "pids=" + String.join(",", marked.stream().map(String::valueOf).toList())
          + " cgroups=" + String.join(",", NativeRuntimeTest.fairbenchCgroups(nativeServer.pid()).stream().map(Path::toString).toList());
    }
    FreezeTiming timing = server.freeze();
    System.out.println("FROZEN by " + timing.mechanism() + " watchdog=" + Watchdog.pid() + " " + what);
    System.out.flush();
    Thread.sleep(600_000);
  }
}
