package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.runtime.ServerStartException.Stage;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds entries with their manifest's steps and runs them as local processes, confined by a
 * cgroup (or taskset), with HOST=127.0.0.1, PORT and WORKERS set.
 */
public final class NativeRuntime implements ServerRuntime, EntryBuilder {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);
  private static final int TAIL_LINES = 20;
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path logDir;
  private LimitsBackend backend;

  /** @param logDir where build and server logs go, one file each per variant */
  public NativeRuntime(Path logDir) {
    this.logDir = logDir;
  }

  /** With a given backend instead of the detected one (tests: the taskset fallback on a cgroup machine). */
  NativeRuntime(Path logDir, LimitsBackend backend) {
    this.logDir = logDir;
    this.backend = backend;
  }

  @Override
  public String name() {
    return "native";
  }

  @Override
  public RuntimeKind kind() {
    return RuntimeKind.NATIVE;
  }

  @Override
  public synchronized String limitsMode() {
    return backend().mode();
  }

  /** Why the limits are weaker than a cgroup, empty when a cgroup is used. */
  @Override
  public synchronized String limitsNote() {
    return backend().note();
  }

  private LimitsBackend backend() {
    if (backend == null) {
      backend = LimitsBackend.detect();
      Leftovers.announce(Leftovers.sweepNative(backend));
    }
    return backend;
  }

  @Override
  public Availability availability(EntryVariant variant) {
    for (String tool : variant.requires()) {
      if (!Commands.onPath(tool)) {
        return Availability.unavailable("missing tool " + tool);
      }
    }
    return Availability.ofProbe(variant, PROBE_TIMEOUT);
  }

  @Override
  public RunningServer start(EntryVariant variant, Limits limits, int port) throws ServerStartException {
    return start(variant, limits, port, true);
  }

  /** Without the build steps: the variant was built by an earlier {@link #start} in this run. */
  @Override
  public RunningServer startBuilt(EntryVariant variant, Limits limits, int port) throws ServerStartException {
    return start(variant, limits, port, false);
  }

  private RunningServer start(EntryVariant variant, Limits limits, int port, boolean build) throws ServerStartException {
    String fileStem = variant.id().replace(':', '_');
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the log folder " + logDir, e);
    }
    if (build) {
      build(variant, logDir.resolve(fileStem + ".build.log"));
    }
    checkPortFree(port);

    LimitsBackend.Group group;
    String groupName = ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + "-" + fileStem;
    synchronized (this) {
      try {
        group = backend().create(groupName, limits);
      } catch (IOException e) {
        throw new ServerStartException(Stage.LIMITS_FAILED,
            variant.id() + ": cannot apply the limits with " + backend().mode() + ": " + e.getMessage(), "");
      }
    }

    // A start without a build is an extra start (start-time figures, a later process with --forks): appended to one log
    // beside the first server's, so that no start's output is lost.
    Path log = logDir.resolve(fileStem + (build ? ".server.log" : ".restart.server.log"));
    Map<String, String> env = new HashMap<>(variant.startEnv());
    env.put("HOST", "127.0.0.1");
    env.put("PORT", Integer.toString(port));
    env.put("WORKERS", Integer.toString(limits.workers()));
    String marker = Watchdog.owner() + "/" + groupName;
    env.put(NativeServer.MARKER, marker);
    List<String> command = variant.startCommand("127.0.0.1", port, limits.workers());
    // The same open-file limit as in Docker (--ulimit nofile): set here, read back from /proc/PID/limits.
    ProcessBuilder builder = new ProcessBuilder(group.wrap(OpenFiles.wrap(Defaults.OPEN_FILES, command)))
        .directory(variant.dir().toFile())
        .redirectErrorStream(true)
        .redirectOutput(build ? ProcessBuilder.Redirect.to(log.toFile()) : ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(env);
    Process process;
    long launchedAt;
    try {
      Watchdog.ensureStarted();
      launchedAt = System.nanoTime();
      process = builder.start();
      if (backend() instanceof TasksetOnly) {
        Watchdog.watchProcess(process.pid()); // no cgroup: the watchdog kills the tree by pid
      }
    } catch (IOException e) {
      group.destroy();
      throw new ServerStartException(Stage.EXITED_AT_START,
          variant.id() + ": `" + String.join(" ", command) + "` could not start: " + e.getMessage(), "");
    }
    URI base = URI.create("http://127.0.0.1:" + port);
    NativeServer server = new NativeServer(variant, limits, port, base, process, group, backend().mode(), log,
        launchedAt, marker);
    ServerRegistry.track(server);
    try {
      server.readyAt(awaitReady(variant, server, process));
    } catch (ServerStartException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * Runs the variant's [build] steps in its folder with [build].env set, the output to {@code log}
   * (truncated first). Also what `fairbench test-entries` builds with.
   */
  public void build(EntryVariant variant, Path log) throws ServerStartException {
    try {
      Files.deleteIfExists(log);
      Files.createFile(log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the build log " + log, e);
    }
    long deadline = System.nanoTime() + variant.buildTimeout().toNanos();
    for (List<String> step : variant.buildSteps()) {
      Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
      try {
        Files.writeString(log, "$ " + envPrefix(variant.buildEnv()) + String.join(" ", step) + "\n",
            java.nio.file.StandardOpenOption.APPEND);
        Commands.Outcome outcome = Commands.run(step, variant.dir(), variant.buildEnv(), left, log);
        if (!outcome.succeeded()) {
          throw new ServerStartException(Stage.BUILD_FAILED,
              variant.id() + ": build failed: " + outcome.describe(step, variant.buildTimeout()) + " (log: " + log + ")",
              Commands.tail(log, TAIL_LINES));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the build log " + log, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServerStartException(Stage.BUILD_FAILED, variant.id() + ": build interrupted", Commands.tail(log, TAIL_LINES));
      }
    }
  }

  /** "A=1 B=2 " for the log line of a command run with these variables. */
  static String envPrefix(Map<String, String> env) {
    return env.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + e.getValue() + " ").reduce("", String::concat);
  }

  /** Fails before starting anything when another process already listens on the port. */
  static void checkPortFree(int port) throws ServerStartException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (BindException e) {
      throw new ServerStartException(Stage.PORT_IN_USE,
          "port " + port + " on 127.0.0.1 is already in use by another process; stop it or pick another port", "");
    } catch (IOException e) {
      throw new ServerStartException(Stage.PORT_IN_USE, "cannot check port " + port + ": " + e.getMessage(), "");
    }
  }

  /** A port that is free on 127.0.0.1 right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }

  private static long awaitReady(EntryVariant variant, NativeServer server, Process process) throws ServerStartException {
    return Readiness.forPlaintext(variant, server, () -> {
      if (process.isAlive()) {
        return Optional.empty();
      }
      int code = process.exitValue();
      return Optional.of(code == 125 && !server.limitsMode().equals("taskset") ? "could not join its cgroup (exit 125)"
          : code == OpenFiles.EXIT_CODE ? "could not be given the open-file limit " + Defaults.OPEN_FILES
              + " (exit " + code + "; `ulimit -n " + Defaults.OPEN_FILES + "` failed: the orchestrator's own hard limit "
              + "is lower, see `ulimit -Hn`)"
          : "exited with code " + code);
    }, "server", "raise start.ready_timeout_seconds if it is slow");
  }
}
