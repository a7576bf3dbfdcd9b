package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerClientException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.BuildResponseItem;
import com.github.dockerjava.api.model.HostConfig;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.runtime.ServerStartException.Stage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;

/**
 * Builds an entry's image from its Dockerfile and runs it in a container on the host network,
 * confined to the server's CPU set and memory limit, with HOST=127.0.0.1, PORT and WORKERS set.
 * The only class that talks to Docker (through Testcontainers). See docs/DOCKER.md.
 *
 * <p>The engine runs without a bridge network on fairbench machines, so Testcontainers must be
 * started with {@code TESTCONTAINERS_RYUK_DISABLED=true} (Ryuk's image cannot be pulled) and
 * {@code TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1} (otherwise it looks for the bridge's gateway and
 * fails with "network bridge not found"). Testcontainers reads both from the process environment
 * only, so the launcher must export them; {@link #availability} says so when they are missing.
 */
public final class DockerRuntime implements ServerRuntime {
  /** Labels on every image and container this runtime makes, to find leftovers. */
  public static final String LABEL = "dev.fairbench";
  public static final String LABEL_ENTRY = "dev.fairbench.entry";
  public static final String LABEL_VARIANT = "dev.fairbench.variant";
  public static final String LABEL_RUN = "dev.fairbench.run";
  /** Set on base images made by docker/make-base-images, and inherited by images built on them. */
  public static final String LABEL_OFFLINE_BASE = "dev.fairbench.offline-base.substitutes";

  static final Map<String, String> REQUIRED_ENV =
      Map.of("TESTCONTAINERS_RYUK_DISABLED", "true", "TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1");

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);
  private static final int TAIL_LINES = 20;
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static boolean swept;

  /** On containers of a remote engine: the orchestrator's host, so only its own runs' leftovers are swept there. */
  public static final String LABEL_ORCHESTRATOR_HOST = "dev.fairbench.orchestrator-host";

  private final Path logDir;
  private final String runId;
  private final DockerEngine engine;
  private String remoteLimitsMode;
  /** Per image built in this run: the images its build stages ended with, last first (see {@link #versions}). */
  private final Map<String, List<String>> buildStages = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param logDir where build and server logs go; @param runId labels the containers of this run;
   * @param engine where images are built and containers run (see {@link DockerEngine})
   */
  public DockerRuntime(Path logDir, String runId, DockerEngine engine) {
    this.logDir = Objects.requireNonNull(logDir);
    this.runId = Objects.requireNonNull(runId);
    this.engine = Objects.requireNonNull(engine);
  }

  /** On the local engine. */
  public DockerRuntime(Path logDir, String runId) {
    this(logDir, runId, DockerEngine.local());
  }

  /** A runtime on {@code engine} whose run id is the current time and this JVM's pid. */
  public DockerRuntime(Path logDir, DockerEngine engine) {
    this(logDir, LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
        + "-" + ProcessHandle.current().pid(), engine);
  }

  /** A runtime on the local engine whose run id is the current time and this JVM's pid. */
  public DockerRuntime(Path logDir) {
    this(logDir, DockerEngine.local());
  }

  /** The engine the servers run on. */
  public DockerEngine engine() {
    return engine;
  }

  @Override
  public boolean remote() {
    return engine.remote();
  }

  @Override
  public String name() {
    return engine.remote() ? "docker-remote" : "docker";
  }

  @Override
  public RuntimeKind kind() {
    return RuntimeKind.DOCKER;
  }

  /** Local: this machine's cgroup version; remote: the one the engine reports. */
  @Override
  public String limitsMode() {
    if (engine.remote()) {
      synchronized (this) {
        if (remoteLimitsMode == null) {
          try {
            String version = engine.info().getCGroupVersion();
            remoteLimitsMode = "docker-cgroup-v" + (version == null || version.isBlank() ? "1" : version);
          } catch (RuntimeException e) {
            return "docker-cgroup-unknown";
          }
        }
        return remoteLimitsMode;
      }
    }
    return Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers")) ? "docker-cgroup-v2" : "docker-cgroup-v1";
  }

  /** The environment Testcontainers needs here that this process lacks, as "NAME=value" lines. */
  static List<String> missingEnvironment(Map<String, String> env) {
    return REQUIRED_ENV.entrySet().stream()
        .filter(e -> !e.getValue().equalsIgnoreCase(env.getOrDefault(e.getKey(), "")))
        .map(e -> e.getKey() + "=" + e.getValue())
        .sorted()
        .toList();
  }

  /** Whether this process can use a Docker engine: the environment Testcontainers needs, and an engine that answers. */
  public static boolean engineReachable() {
    return missingEnvironment(System.getenv()).isEmpty() && DockerClientFactory.instance().isDockerAvailable();
  }

  /**
   * Removes every container carrying the fairbench label (left by a run that was killed), running
   * or not, and returns their names. The caller has checked {@link #engineReachable()}.
   */
  public static List<String> removeLeftoverContainers() {
    return removeContainersOfDeadRuns(true).stream().filter(line -> line.startsWith("removed container "))
        .map(line -> line.substring("removed container ".length())).toList();
  }

  /**
   * Removes (unpausing first) the containers this runtime started for orchestrators that are
   * gone, and says what it did, one line each: "removed container NAME (IMAGE, STATE)", or "kept
   * container ... of the running orchestrator PID". A container's owner is its {@value
   * Watchdog#LABEL_OWNER} label. With {@code unowned}, containers without that label (started
   * before it existed) go too when their name is one this runtime gives ("fairbench-RUN-N-...")
   * and the pid in a default run id is gone. Containers someone ran by hand from a fairbench
   * image carry its dev.fairbench label too, but neither an owner nor such a name: they stay.
   * The caller has checked {@link #engineReachable()}.
   */
  public static List<String> removeContainersOfDeadRuns(boolean unowned) {
    return removeContainersOfDeadRuns(DockerClientFactory.instance().client(), unowned, Map.of(LABEL, "true"));
  }

  /**
   * The same on {@code client}'s engine, for the containers matching {@code labels}. On a remote
   * engine only those this host's orchestrators started are candidates (their owner's pid is a pid
   * of this machine).
   */
  static List<String> removeContainersOfDeadRuns(DockerClient client, boolean unowned, Map<String, String> labels) {
    List<String> done = new java.util.ArrayList<>();
    for (var container : client.listContainersCmd().withShowAll(true)
        .withLabelFilter(labels).exec()) {
      String name = container.getNames() == null || container.getNames().length == 0
          ? container.getId().substring(0, 12) : container.getNames()[0].replaceFirst("^/", "");
      String described = name + " (" + container.getImage() + ", " + container.getState() + ")";
      String owner = container.getLabels() == null ? null : container.getLabels().get(Watchdog.LABEL_OWNER);
      if (owner != null && Watchdog.ownerAlive(owner)) {
        done.add("kept container " + described + " of the running orchestrator " + owner.substring(0, owner.indexOf('-')));
        continue;
      }
      if (owner == null && !(unowned && legacyOfDeadRun(name))) {
        continue;
      }
      if ("paused".equals(container.getState())) {
        try {
          client.unpauseContainerCmd(container.getId()).exec();
        } catch (DockerException e) {
          // the forced removal below still tries
        }
      }
      client.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
      done.add("removed container " + described);
    }
    return done;
  }

  private static final java.util.regex.Pattern DEFAULT_RUN_NAME =
      java.util.regex.Pattern.compile("fairbench-\\d{8}-\\d{6}-(\\d+)-\\d+-.*");

  /** A container name this runtime gave, and when it holds a default run id, its orchestrator pid is gone. */
  static boolean legacyOfDeadRun(String name) {
    if (!name.startsWith("fairbench-")) {
      return false;
    }
    var matcher = DEFAULT_RUN_NAME.matcher(name);
    return !matcher.matches() || ProcessHandle.of(Long.parseLong(matcher.group(1))).map(p -> !p.isAlive()).orElse(true);
  }

  /** Once per JVM: the containers (and native servers) of killed runs go before this one starts its own. */
  private static synchronized void sweepOnce(DockerEngine engine, DockerClient client) {
    if (!swept) {
      swept = true;
      try {
        List<String> done = new java.util.ArrayList<>(Leftovers.sweepNative(LimitsBackend.detect()));
        Map<String, String> labels = engine.remote()
            ? Map.of(LABEL, "true", LABEL_ORCHESTRATOR_HOST, orchestratorHost()) : Map.of(LABEL, "true");
        done.addAll(removeContainersOfDeadRuns(client, false, labels).stream().filter(l -> l.startsWith("removed ")).toList());
        Leftovers.announce(done);
      } catch (RuntimeException e) {
        System.err.println("fairbench: could not remove the containers of killed runs: " + rootMessage(e));
      }
    }
  }

  @Override
  public Availability availability(EntryVariant variant) {
    Path dockerfile = variant.dir().resolve(variant.dockerfile());
    if (!Files.isRegularFile(dockerfile)) {
      return Availability.unavailable("no Dockerfile at " + dockerfile);
    }
    if (engine.remote()) {
      if (!engine.answers()) {
        return Availability.unavailable("the server host's engine " + engine.url() + " does not answer");
      }
      // The probe runs here; the server host builds the image, which the same sources decide.
      return Availability.ofProbe(variant, PROBE_TIMEOUT);
    }
    List<String> missing = missingEnvironment(System.getenv());
    if (!missing.isEmpty()) {
      return Availability.unavailable("the docker runtime needs " + String.join(" and ", missing)
          + " in the environment (the ./fairbench launcher exports them; see docs/DOCKER.md)");
    }
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      return Availability.unavailable("no Docker engine answers; start one with scripts/docker-engine");
    }
    // The probe says whether the entry's dependencies can be had at all (e.g. hex.pm): that is
    // true of an image build as much as of a native one.
    return Availability.ofProbe(variant, PROBE_TIMEOUT);
  }

  @Override
  public RunningServer start(EntryVariant variant, Limits limits, int port) throws ServerStartException {
    return start(variant, limits, port, true);
  }

  /** Without the image build: the image an earlier {@link #start} in this run built must be there. */
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
    DockerClient client = engine.client();
    sweepOnce(engine, client);
    String image = build ? build(client, variant, logDir.resolve(fileStem + ".build.log")) : built(client, variant);
    if (engine.remote()) {
      return startRemote(client, variant, limits, port, image, fileStem);
    }
    NativeRuntime.checkPortFree(port);

    // A start without a build is an extra start (start-time figures, a later process with --forks): appended to one log
    // beside the first server's, so that no start's output is lost.
    Path log = logDir.resolve(fileStem + (build ? ".server.log" : ".restart.server.log"));
    OutputStream logStream;
    try {
      logStream = Files.newOutputStream(log, StandardOpenOption.CREATE,
          build ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the server log " + log, e);
    }
    String containerName = "fairbench-" + runId + "-" + SEQUENCE.incrementAndGet() + "-" + fileStem;
    @SuppressWarnings("resource") // closed by DockerServer.close()
    GenericContainer<?> container = new GenericContainer<>(image)
        .withNetworkMode("host")
        .withEnv(containerEnv(variant, port, limits.workers()))
        .withLabels(containerLabels(variant))
        .withCreateContainerCmdModifier(cmd -> {
          cmd.withName(containerName);
          HostConfig host = cmd.getHostConfig() == null ? new HostConfig() : cmd.getHostConfig();
          cmd.withHostConfig(host
              .withCpusetCpus(limits.serverCpus())
              .withMemory(limits.memoryBytes())
              // Equal to the memory limit: no swap on top of it.
              .withMemorySwap(limits.memoryBytes())
              // The same open-file limit as natively (`ulimit -n`): --ulimit nofile=N:N.
              .withUlimits(List.of(openFiles())));
        })
        // Readiness is ours (GET /plaintext on the host port); Testcontainers' strategies look
        // for mapped ports, which a host-network container has none of.
        .withStartupCheckStrategy(new CreatedIsEnough())
        .withStartupAttempts(1)
        .withLogConsumer(frame -> {
          byte[] bytes = frame.getBytes();
          if (bytes != null) {
            synchronized (logStream) {
              try {
                logStream.write(bytes);
                logStream.flush();
              } catch (IOException e) {
                // the log is evidence, not a reason to stop the server
              }
            }
          }
        });
    if (variant.dockerUsesStartCommand()) {
      container.withCommand(variant.startCommand("127.0.0.1", port, limits.workers()).toArray(String[]::new));
    }
    long launchedAt;
    try {
      Watchdog.watchDocker(DockerClientFactory.instance().getTransportConfig().getDockerHost().toString());
      launchedAt = System.nanoTime();
      container.start();
      Watchdog.watchContainer(container.getContainerId());
    } catch (ContainerLaunchException | DockerException e) {
      closeQuietly(logStream);
      container.stop();
      throw new ServerStartException(Stage.EXITED_AT_START,
          variant.id() + ": the container of " + image + " could not start: " + rootMessage(e), "");
    }
    DockerServer server = new DockerServer(variant, limits, port, URI.create("http://127.0.0.1:" + port),
        container.getDockerClient(), container.getContainerId(), container::stop, engine, limitsMode(), log, logStream,
        launchedAt);
    ServerRegistry.track(server);
    try {
      server.checkLimits();
      server.readyAt(awaitReady(variant, server));
    } catch (ServerStartException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** docker info's security options and cgroup settings, and what a container started like the servers shows of them. */
  @Override
  public dev.fairbench.orchestrator.results.Environment.EngineSettings engineSettings(Limits limits) {
    return EngineSecurity.probe(engine, limits);
  }

  /**
   * The [versions] commands run where the server runs: in a throwaway container of the server's
   * image (its working directory, user and the manifest's [start].env; no network), so that
   * nothing but the server ever runs in the server's own container and cgroup. A command the
   * image lacks (a compiler: the final stage of a multi-stage build has only the binary) runs in
   * the build stages' images of this run's build instead, and its line then ends in " (build
   * stage)". Never this machine's tools: their versions may differ.
   */
  @Override
  public Map<String, String> versions(EntryVariant variant, RunningServer server) {
    DockerClient client = engine.client();
    String image = imageName(variant);
    List<String> stages = buildStages.getOrDefault(image, List.of());
    List<String> env = variant.startEnv().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    return dev.fairbench.orchestrator.runtime.EnvironmentProbe.versions(variant,
        command -> versionIn(client, image, env, stages, command));
  }

  /** One [versions] command's line: in the image, else in a build stage, else why not. */
  static String versionIn(DockerClient client, String image, List<String> env, List<String> stages,
      List<String> command) {
    ContainerCommands.Outcome outcome = ContainerCommands.runOnce(client, image, env, command, PROBE_TIMEOUT);
    if (outcome.succeeded()) {
      return outcome.firstLineOrWhy();
    }
    StringBuilder why = new StringBuilder("in the image ").append(image).append(": ").append(outcome.firstLineOrWhy());
    for (String stage : stages) {
      ContainerCommands.Outcome built = ContainerCommands.runOnce(client, stage, env, command, PROBE_TIMEOUT);
      if (built.succeeded()) {
        return built.firstLineOrWhy() + " (build stage)";
      }
      why.append("; in the build stage ").append(stage).append(": ").append(built.firstLineOrWhy());
    }
    return "unknown (`" + String.join(" ", command) + "` failed " + why + ")";
  }

  /** The manifest's [start].env, then HOST, PORT and WORKERS (which the manifest may not set). */
  static Map<String, String> containerEnv(EntryVariant variant, int port, int workers) {
    Map<String, String> env = new LinkedHashMap<>(variant.startEnv());
    env.put("HOST", "127.0.0.1");
    env.put("PORT", Integer.toString(port));
    env.put("WORKERS", Integer.toString(workers));
    return env;
  }

  /**
   * On a remote engine, without Testcontainers' process-wide client: create and start the
   * container with docker-java, follow its log into the server log, and bind the server to the
   * server host's address (HOST), which is also the base URL's host.
   */
  private RunningServer startRemote(DockerClient client, EntryVariant variant, Limits limits, int port, String image,
      String fileStem) throws ServerStartException {
    String address = engine.serverAddress();
    checkRemotePortFree(address, port);
    Path log = logDir.resolve(fileStem + ".server.log");
    OutputStream logStream;
    try {
      logStream = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the server log " + log, e);
    }
    String containerName = "fairbench-" + runId + "-" + SEQUENCE.incrementAndGet() + "-" + fileStem;
    Map<String, String> labels = containerLabels(variant);
    labels.put(LABEL_ORCHESTRATOR_HOST, orchestratorHost());
    String id;
    Watchdog.watchDocker(engine.url());
    long launchedAt = System.nanoTime();
    try {
      id = client.createContainerCmd(image)
          .withName(containerName)
          .withEnv(remoteEnv(variant, address, port, limits.workers()))
          .withLabels(labels)
          .withHostConfig(new HostConfig()
              .withNetworkMode("host")
              .withCpusetCpus(limits.serverCpus())
              .withMemory(limits.memoryBytes())
              .withMemorySwap(limits.memoryBytes())
              .withUlimits(List.of(openFiles())))
          .exec().getId();
    } catch (DockerException e) {
      closeQuietly(logStream);
      throw new ServerStartException(Stage.EXITED_AT_START,
          variant.id() + ": the container of " + image + " could not be created on " + engine.url() + ": " + rootMessage(e), "");
    }
    Watchdog.watchContainer(id);
    com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame> follower =
        new com.github.dockerjava.api.async.ResultCallback.Adapter<>() {
          @Override
          public void onNext(com.github.dockerjava.api.model.Frame frame) {
            byte[] bytes = frame.getPayload();
            if (bytes != null) {
              synchronized (logStream) {
                try {
                  logStream.write(bytes);
                  logStream.flush();
                } catch (IOException e) {
                  // the log is evidence, not a reason to stop the server
                }
              }
            }
          }
        };
    Runnable remove = () -> {
      closeQuietly(follower);
      try {
        client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
      } catch (com.github.dockerjava.api.exception.NotFoundException e) {
        // already gone
      }
    };
    try {
      client.startContainerCmd(id).exec();
      client.logContainerCmd(id).withFollowStream(true).withStdOut(true).withStdErr(true).exec(follower);
    } catch (DockerException e) {
      closeQuietly(logStream);
      remove.run();
      throw new ServerStartException(Stage.EXITED_AT_START,
          variant.id() + ": the container of " + image + " could not start on " + engine.url() + ": " + rootMessage(e), "");
    }
    DockerServer server = new DockerServer(variant, limits, port, URI.create("http://" + uriHost(address) + ":" + port),
        client, id, remove, engine, limitsMode(), log, logStream, launchedAt);
    ServerRegistry.track(server);
    try {
      server.checkLimits();
      awaitReady(variant, server);
    } catch (ServerStartException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The container's environment on a remote engine: bound to the server host's address. */
  static List<String> remoteEnv(EntryVariant variant, String address, int port, int workers) {
    Map<String, String> env = containerEnv(variant, port, workers);
    env.put("HOST", address);
    return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  /** An IPv6 literal in brackets, for URLs. */
  static String uriHost(String address) {
    return address.contains(":") ? "[" + address + "]" : address;
  }

  /** The port must not answer on the server host already (a server there would be measured instead). */
  static void checkRemotePortFree(String address, int port) throws ServerStartException {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(address, port), 1000);
    } catch (IOException e) {
      return; // refused or unreachable: nothing listens there
    }
    throw new ServerStartException(Stage.PORT_IN_USE,
        "port " + port + " on the server host " + address + " is already in use; stop what listens there", "");
  }

  /** This machine's name, on the containers it starts on a remote engine. */
  static String orchestratorHost() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private Map<String, String> labels(EntryVariant variant) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(LABEL, "true");
    labels.put(LABEL_ENTRY, variant.entry());
    labels.put(LABEL_VARIANT, variant.variant());
    labels.put(LABEL_RUN, runId);
    return labels;
  }

  /** The image's labels and the owner: the watchdog and later sweeps tell by it whether the run is gone. */
  private Map<String, String> containerLabels(EntryVariant variant) {
    Map<String, String> labels = labels(variant);
    labels.put(Watchdog.LABEL_OWNER, Watchdog.owner());
    return labels;
  }

  /** The image tag of a variant: fairbench/ENTRY:VARIANT. */
  static String imageName(EntryVariant variant) {
    return "fairbench/" + variant.entry().toLowerCase(Locale.ROOT) + ":" + variant.variant().toLowerCase(Locale.ROOT);
  }

  /**
   * Builds with the engine's own builder over the entry folder (honouring its .dockerignore), on
   * the host network. The build output goes to {@code log}; a failure carries its tail.
   * Testcontainers' ImageFromDockerfile would do the same build but send the output only to
   * SLF4J, which this tool does not log.
   */
  private String build(DockerClient client, EntryVariant variant, Path log) throws ServerStartException {
    String image = imageName(variant);
    Path dockerfile = variant.dir().resolve(variant.dockerfile());
    try (OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)) {
      out.write(("$ docker build --network host -f " + dockerfile + " -t " + image + " " + variant.dir()
          + variant.imageBuildArgs().entrySet().stream().map(e -> " --build-arg " + e.getKey() + "=" + e.getValue())
              .reduce("", String::concat)
          + "\n").getBytes(StandardCharsets.UTF_8));
      var cmd = client.buildImageCmd()
          .withBaseDirectory(variant.dir().toFile())
          .withDockerfile(dockerfile.toFile())
          .withTags(Set.of(image))
          .withNetworkMode("host")
          .withLabels(labels(variant))
          .withPull(false)
          .withRemove(true)
          .withForcerm(true);
      variant.imageBuildArgs().forEach(cmd::withBuildArg);
      BuildImageResultCallback callback = cmd.exec(new BuildImageResultCallback() {
        @Override
        public void onNext(BuildResponseItem item) {
          super.onNext(item);
          String text = item.isErrorIndicated() && item.getErrorDetail() != null
              ? item.getErrorDetail().getMessage() + "\n" : item.getStream();
          if (text != null) {
            synchronized (out) {
              try {
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          }
        }
      });
      try {
        callback.awaitImageId(variant.buildTimeout().toSeconds(), TimeUnit.SECONDS);
        buildStages.put(image, ContainerCommands.buildStageImages(readLines(log)));
      } catch (DockerClientException e) {
        callback.close();
        String tail = Commands.tail(log, TAIL_LINES);
        throw new ServerStartException(Stage.BUILD_FAILED,
            variant.id() + ": docker build failed: " + rootMessage(e) + hint(tail) + " (log: " + log + ")\n" + tail, tail);
      }
    } catch (IOException | UncheckedIOException e) {
      throw new ServerStartException(Stage.BUILD_FAILED,
          variant.id() + ": docker build could not run: " + rootMessage(e) + " (log: " + log + ")", Commands.tail(log, TAIL_LINES));
    } catch (DockerException e) {
      throw new ServerStartException(Stage.BUILD_FAILED,
          variant.id() + ": docker build could not run: " + rootMessage(e) + " (log: " + log + ")", Commands.tail(log, TAIL_LINES));
    }
    return image;
  }

  /**
   * The size of the variant's image (built by {@link #start}) and of its layers above the base it
   * was built on: the engine's inspect of every local image not made by fairbench is compared.
   */
  @Override
  public Optional<ImageSize> imageSize(EntryVariant variant) {
    return Optional.of(imageOf(variant));
  }

  private ImageSize imageOf(EntryVariant variant) {
    String image = imageName(variant);
    try {
      DockerClient client = DockerClientFactory.instance().client();
      var inspect = client.inspectImageCmd(image).exec();
      List<String> layers = inspect.getRootFS() == null || inspect.getRootFS().getLayers() == null ? List.of()
          : inspect.getRootFS().getLayers();
      List<ImageSize.Candidate> candidates = new java.util.ArrayList<>();
      for (var listed : client.listImagesCmd().exec()) {
        if (listed.getLabels() != null && "true".equals(listed.getLabels().get(LABEL))) {
          continue; // an entry's image, not a base
        }
        if (listed.getRepoTags() == null || listed.getRepoTags().length == 0 || listed.getRepoTags()[0].startsWith("<none>")) {
          continue; // an intermediate build stage
        }
        var base = client.inspectImageCmd(listed.getId()).exec();
        if (base.getRootFS() != null && base.getRootFS().getLayers() != null && base.getSize() != null) {
          candidates.add(new ImageSize.Candidate(listed.getRepoTags()[0], base.getRootFS().getLayers(), base.getSize()));
        }
      }
      return ImageSize.of(image, layers, inspect.getSize() == null ? -1 : inspect.getSize(), candidates);
    } catch (DockerException | DockerClientException e) {
      return ImageSize.unknown(image, "cannot inspect " + image + ": " + rootMessage(e));
    }
  }

  /** The image an earlier build made, or BUILD_FAILED when there is none. */
  private static String built(DockerClient client, EntryVariant variant) throws ServerStartException {
    String image = imageName(variant);
    try {
      client.inspectImageCmd(image).exec();
      return image;
    } catch (DockerException e) {
      throw new ServerStartException(Stage.BUILD_FAILED,
          variant.id() + ": no image " + image + " to start without a build (" + rootMessage(e) + "); start it once with a build first", "");
    }
  }

  /** The build log's lines so far; none when it cannot be read. */
  private static List<String> readLines(Path log) {
    try {
      return Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      return List.of();
    }
  }

  /** What to do when a base image was missing and could not be pulled. */
  static String hint(String buildLogTail) {
    String text = buildLogTail.toLowerCase(Locale.ROOT);
    boolean baseMissing = text.contains("pull access denied") || text.contains("registry-1.docker.io")
        || text.contains("manifest unknown") || (text.contains("repository") && text.contains("not found"));
    return baseMissing
        ? "; a base image is missing and no registry answers: make the offline substitutes with docker/make-base-images"
        : "";
  }

  private static long awaitReady(EntryVariant variant, DockerServer server) throws ServerStartException {
    return Readiness.forPlaintext(variant, server,
        () -> server.isAlive() ? Optional.empty() : Optional.of(server.exitReason().orElse("stopped")), "container",
        "the container must listen on HOST:PORT from its environment");
  }

  public static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage().strip();
    return root == e ? message : Objects.toString(e.getMessage(), "").strip() + ": " + message;
  }

  static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // nothing left to save
    }
  }

  /** Accepts a created container: early exits are found by the readiness loop, with the log. */
  private static final class CreatedIsEnough extends StartupCheckStrategy {
    @Override
    public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
      return StartupStatus.SUCCESSFUL;
    }
  }

  /** --ulimit nofile=N:N, N = {@link Defaults#OPEN_FILES}. */
  static com.github.dockerjava.api.model.Ulimit openFiles() {
    return new com.github.dockerjava.api.model.Ulimit("nofile", (long) Defaults.OPEN_FILES, (long) Defaults.OPEN_FILES);
  }

  /**
   * Inspect's view of a container's limits, compared with what was asked.
   *
   * @param openFiles HostConfig.Ulimits' nofile; null when the container has none (the engine's default)
   */
  record LimitsReadBack(String cpusetCpus, long memoryBytes, long memorySwapBytes, OpenFileLimit openFiles) {
    static LimitsReadBack of(InspectContainerResponse inspect) {
      HostConfig host = inspect.getHostConfig();
      OpenFileLimit nofile = null;
      if (host != null && host.getUlimits() != null) {
        for (var ulimit : host.getUlimits()) {
          if ("nofile".equals(ulimit.getName()) && ulimit.getSoftLong() != null && ulimit.getHardLong() != null) {
            nofile = new OpenFileLimit(ulimit.getSoftLong(), ulimit.getHardLong(), "docker inspect HostConfig.Ulimits");
          }
        }
      }
      return new LimitsReadBack(
          host == null ? null : host.getCpusetCpus(),
          host == null || host.getMemory() == null ? 0 : host.getMemory(),
          host == null || host.getMemorySwap() == null ? 0 : host.getMemorySwap(),
          nofile);
    }

    /** Empty when the limits are the ones asked for, else what differs. */
    String differences(Limits limits) {
      StringBuilder out = new StringBuilder();
      if (!limits.serverCpus().equals(cpusetCpus)) {
        out.append("cpuset ").append(cpusetCpus).append(" instead of ").append(limits.serverCpus()).append("; ");
      }
      if (memoryBytes != limits.memoryBytes()) {
        out.append("memory ").append(memoryBytes).append(" instead of ").append(limits.memoryBytes()).append(" bytes; ");
      }
      if (memorySwapBytes != limits.memoryBytes()) {
        out.append("memory+swap ").append(memorySwapBytes).append(" instead of ").append(limits.memoryBytes()).append(" bytes; ");
      }
      if (openFiles == null || !openFiles.is(Defaults.OPEN_FILES)) {
        out.append("nofile ").append(openFiles == null ? "unset" : openFiles.describe()).append(" instead of ")
            .append(Defaults.OPEN_FILES).append(':').append(Defaults.OPEN_FILES).append("; ");
      }
      return out.isEmpty() ? "" : out.substring(0, out.length() - 2);
    }
  }
}
