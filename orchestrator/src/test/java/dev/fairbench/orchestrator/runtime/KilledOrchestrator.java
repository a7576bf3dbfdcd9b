package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.ManifestReader;
import java.nio.file.Path;
import java.util.List;

/**
 * The orchestrator side of {@link WatchdogTest}, run in a JVM of its own: starts tiny-python
 * with a runtime, freezes it, prints what it started, then waits to be killed with SIGKILL.
 * Arguments: native | taskset | docker, the port, the log folder, and for docker the folder
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
      EntryVariant tiny = new ManifestReader().read(TestEntries.impls().resolve("tiny-python")).getFirst();
      NativeRuntime runtime = kind.equals("taskset")
          ? new NativeRuntime(logs, new TasksetOnly("test: the SIGSTOP fallback")) : new NativeRuntime(logs);
      NativeServer nativeServer = (NativeServer) runtime.start(tiny, limits, port);
      server = nativeServer;
      List<Long> tree = ProcFs.descendantsAndSelf(ProcessHandle.of(nativeServer.pid()).orElseThrow());
      what = "pids=" + String.join(",", tree.stream().map(String::valueOf).toList())
          + " cgroups=" + String.join(",", NativeRuntimeTest.fairbenchCgroups(nativeServer.pid()).stream().map(Path::toString).toList());
    }
    FreezeTiming timing = server.freeze();
    System.out.println("FROZEN by " + timing.mechanism() + " watchdog=" + Watchdog.pid() + " " + what);
    System.out.flush();
    Thread.sleep(600_000);
  }
}
