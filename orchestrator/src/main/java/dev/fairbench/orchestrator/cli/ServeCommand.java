package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.ListenCheck;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    header = "Build and start one entry under the limits, print its URL, and keep it running until Ctrl-C.",
    description = {
      "Builds ENTRY[:VARIANT] and starts it exactly as `run` and `conformance` do (the same runtime, "
          + "limits, HOST=127.0.0.1, PORT and WORKERS), then stays in the foreground: try it with curl or "
          + "`fairbench conformance --url URL`. Ctrl-C (or SIGTERM) stops the server and removes what it made "
          + "(exit 130 or 143, the usual codes of an interrupted program). Exit 1 when the entry cannot be built "
          + "or started or its server exits by itself, 2 for a usage error (unknown entry, an entry with variants "
          + "named without one, a bad option)."
    })
public final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;
  @Mixin LimitOptions limitOptions;

  @Option(names = "--port", paramLabel = "N", defaultValue = "8080",
      description = "Port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int port;

  @Parameters(paramLabel = "ENTRY[:VARIANT]", arity = "1", description = "The entry (or entry:variant) to serve.")
  String selector;

  @Override
  public Integer call() throws InterruptedException {
    if (port < 1 || port > 65535) {
      throw new UsageException("--port must be between 1 and 65535, got " + port);
    }
    FairbenchPaths paths = FairbenchPaths.detect();
    EntryCatalog catalog = impls.catalog(paths);
    List<Selection> selections;
    try {
      selections = catalog.select(List.of(selector));
    } catch (UnknownEntryException e) {
      throw new UsageException(e.getMessage());
    }
    if (selections.size() > 1) {
      throw new UsageException(selector + " has variants; name one: "
          + String.join(", ", selections.stream().map(Selection::id).toList()));
    }
    Selection selection = selections.getFirst();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (selection.variant().isEmpty()) {
      err.println("fairbench serve: " + selection.id() + ": manifest error: " + selection.manifestError().orElse("?"));
      return ExitCodes.FAILED;
    }
    EntryVariant variant = selection.variant().get();
    Limits limits = limitOptions.limits(Defaults.forThisMachine());
    Path logDir = paths.results()
        .resolve("serve-" + variant.id().replace(':', '_') + "-" + Converters.timestamp(Instant.now()))
        .toAbsolutePath().normalize();
    ServerRuntime runtime = limitOptions.runtime(logDir);
    Availability availability = runtime.availability(variant);
    if (!availability.available()) {
      err.println("fairbench serve: " + variant.id() + " is unavailable with the " + runtime.name() + " runtime: "
          + availability.reason());
      return ExitCodes.FAILED;
    }

    err.println("Building and starting " + variant.id() + " with the " + runtime.name() + " runtime (logs: " + logDir + ")...");
    err.flush();
    RunningServer server;
    try {
      server = runtime.start(variant, limits, port);
    } catch (ServerStartException e) {
      err.println("fairbench serve: " + e.getMessage());
      return ExitCodes.FAILED;
    }

    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean stopping = new AtomicBoolean();
    Thread hook = new Thread(() -> {
      stopping.set(true);
      err.println();
      err.println("Stopping " + variant.id() + "...");
      err.flush();
      server.close();
      stopped.countDown();
    }, "fairbench-serve-stop");
    Runtime.getRuntime().addShutdownHook(hook);

    if (!runtime.remote()) {
      // What `conformance` and `run` refuse before the suite (SPEC 0.1), said while the entry is being written.
      ListenCheck.beyondHost(server)
          .ifPresent(wider -> err.println("fairbench serve: warning: " + variant.id() + " " + wider
              + "; conformance and run fail it before the suite"));
    }
    out.println(variant.id() + " is serving at " + server.baseUrl());
    out.printf("  runtime %s, limits %s: server CPUs %s, memory %d MiB, WORKERS=%d%n", runtime.name(),
        runtime.limitsMode(), limits.serverCpus(), limits.memoryBytes() / (1024 * 1024), limits.workers());
    out.println("  server log: " + server.log());
    out.println("  try: curl " + server.baseUrl() + "/plaintext");
    out.println("       ./fairbench conformance --url " + server.baseUrl());
    out.println("Press Ctrl-C to stop.");
    out.flush();

    try {
      while (server.isAlive() && !stopping.get()) {
        Thread.sleep(500);
      }
    } catch (InterruptedException e) {
      // Stopped from within this JVM (not by a signal): stop the server too, as Ctrl-C would.
      server.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway
      }
      Thread.currentThread().interrupt();
      return ExitCodes.INTERRUPTED;
    }
    if (!stopping.get()) {
      // A Ctrl-C in a terminal reaches the server's processes too: give the shutdown a moment
      // to start before calling its end the server's own doing.
      Thread.sleep(300);
    }
    if (!stopping.get()) {
      // The server ended by itself: say why, clean up, and take the hook back.
      err.println("fairbench serve: " + variant.id() + " stopped by itself: " + server.exitReason().orElse("exited"));
      String tail = server.logTail(20);
      if (!tail.isEmpty()) {
        err.println(tail.indent(4).stripTrailing());
      }
      server.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down: the hook runs anyway
      }
      return ExitCodes.FAILED;
    }
    stopped.await();
    return ExitCodes.OK;
  }
}
