package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.runtime.ServerStartException.Stage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A container started by {@link DockerRuntime}. On the local engine its processes run on this
 * kernel, so CPU time, threads and memory are read from the container's cgroup and /proc like a
 * native server's. On a remote engine they are not this machine's: CPU time, memory and the task
 * count come from the engine's stats API, and the busy-thread observation of the workers is not
 * possible ({@link #observeWorkers} returns null: not observable remotely; docs/TWO-HOSTS.md).
 * Public for what results may record beyond {@link RunningServer}: the container, the limits as
 * the engine reports them, and whether the image was built on an offline substitute base.
 */
public final class DockerServer implements RunningServer {
  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  private final EntryVariant variant;
  private final Limits limits;
  private final int port;
  private final URI baseUrl;
  private final DockerClient client;
  private final String containerId;
  private final Runnable remove;
  private final DockerEngine engine;
  private final String limitsMode;
  private final Path log;
  private final OutputStream logStream;
  private final long launchedAt;
  private volatile long readyAt = -1;
  private CgroupFiles cgroup = CgroupFiles.NONE;
  private String limitsReadBack = "";
  private OpenFileLimit openFiles;
  private AppliedLimits applied;
  private String offlineBase;
  private String exitReason;
  private boolean closed;
  private volatile boolean frozen;
  private BusyWorkers.Sampler sampler;
  /** The largest resident memory the stats API showed (remote engines: no per-process peak there). */
  private long rssSeen;

  DockerServer(EntryVariant variant, Limits limits, int port, URI baseUrl, DockerClient client, String containerId,
      Runnable remove, DockerEngine engine, String limitsMode, Path log, OutputStream logStream,
      long launchedAt) {
    this.variant = variant;
    this.limits = limits;
    this.port = port;
    this.baseUrl = baseUrl;
    this.client = client;
    this.containerId = containerId;
    this.remove = remove;
    this.engine = engine;
    this.limitsMode = limitsMode;
    this.log = log;
    this.logStream = logStream;
    this.launchedAt = launchedAt;
  }

  /** Just before the container was created and started (what `docker run` does). */
  @Override
  public long launchedAt() {
    return launchedAt;
  }

  @Override
  public long readyAt() {
    return readyAt;
  }

  void readyAt(long nanoTime) {
    readyAt = nanoTime;
  }

  /** The container cgroup's anonymous memory, read on the host; Pss_Anon of its processes when the cgroup is unknown. */
  @Override
  public MemoryReading memory() {
    MemoryReading reading = cgroup.memoryNow();
    return reading.known() ? reading : MemoryReading.ofProcesses(pids());
  }

  private DockerClient client() {
    return client;
  }

  /** Whether the container runs on another host's engine: its figures then come from the engine's stats API. */
  public boolean remote() {
    return engine.remote();
  }

  /** The container's id, for `docker` commands and messages. */
  public String containerId() {
    return containerId;
  }

  /**
   * What `docker inspect` reported of the limits, e.g. "cpuset 1, memory 536870912 B, memory+swap 536870912 B,
   * nofile=8192:8192".
   */
  @Override
  public String limitsReadBack() {
    return limitsReadBack;
  }

  /** From docker inspect (CPU set, memory) and the container's first process (open files). */
  @Override
  public Optional<AppliedLimits> appliedLimits() {
    return Optional.ofNullable(applied);
  }

  /**
   * The container's first process's /proc/PID/limits on a local engine (the kernel's figure, what its
   * processes inherit), HostConfig.Ulimits on a remote one.
   */
  @Override
  public Optional<OpenFileLimit> openFiles() {
    return Optional.ofNullable(openFiles);
  }

  /**
   * The official image whose offline substitute (docker/make-base-images) the server's image was
   * built on, e.g. "debian:bookworm-slim"; empty when it was built on an official image.
   */
  public Optional<String> offlineBase() {
    return Optional.ofNullable(offlineBase).filter(s -> !s.isBlank());
  }

  /**
   * Reads the limits back with inspect and fails when the engine did not apply what was asked;
   * finds the container's cgroup for the usage figures.
   */
  void checkLimits() throws ServerStartException {
    InspectContainerResponse inspect;
    try {
      inspect = client().inspectContainerCmd(containerId).exec();
    } catch (DockerException e) {
      throw new ServerStartException(Stage.LIMITS_FAILED,
          variant.id() + ": cannot inspect container " + containerId + ": " + DockerRuntime.rootMessage(e), logTail(20));
    }
    DockerRuntime.LimitsReadBack readBack = DockerRuntime.LimitsReadBack.of(inspect);
    Long initPid = inspect.getState() == null ? null : inspect.getState().getPidLong();
    openFiles = !remote() && initPid != null && initPid > 0
        ? OpenFiles.ofProcess(initPid).map(l -> new OpenFileLimit(l.soft(), l.hard(), "/proc/1/limits of the container"))
            .orElse(readBack.openFiles())
        : readBack.openFiles();
    limitsReadBack = "cpuset " + readBack.cpusetCpus() + ", memory " + readBack.memoryBytes() + " B, memory+swap "
        + readBack.memorySwapBytes() + " B" + (openFiles == null ? "" : ", nofile=" + openFiles.describe());
    applied = new AppliedLimits(readBack.cpusetCpus(), readBack.memoryBytes(), openFiles,
        "docker inspect" + (openFiles == null ? "" : ", open files from " + openFiles.source()));
    String differences = readBack.differences(limits);
    if (!differences.isEmpty()) {
      throw new ServerStartException(Stage.LIMITS_FAILED,
          variant.id() + ": the engine did not apply the limits (docker inspect: " + differences + ")", "");
    }
    offlineBase = imageLabels(client(), inspect.getImageId()).get(DockerRuntime.LABEL_OFFLINE_BASE);
    Long pid = inspect.getState() == null ? null : inspect.getState().getPidLong();
    // A remote engine's pid is a process of another kernel: never look it up in this /proc.
    if (!remote() && pid != null && pid > 0) {
      cgroup = CgroupFiles.of(pid);
    }
  }

  /** An image's labels; empty when it has none or cannot be inspected. */
  static Map<String, String> imageLabels(DockerClient client, String image) {
    try {
      var config = client.inspectImageCmd(image).exec().getConfig();
      return config == null || config.getLabels() == null ? Map.of() : config.getLabels();
    } catch (DockerException e) {
      return Map.of();
    }
  }

  @Override
  public URI baseUrl() {
    return baseUrl;
  }

  private Set<Long> pids() {
    Set<Long> pids = new LinkedHashSet<>(cgroup.pids());
    if (pids.isEmpty() && cgroup.initPid > 0) {
      ProcessHandle.of(cgroup.initPid).ifPresent(p -> pids.addAll(ProcFs.descendantsAndSelf(p)));
    }
    return pids;
  }

  @Override
  public ResourceUsage usage() {
    if (remote()) {
      return remoteUsage();
    }
    Set<Long> pids = pids();
    double cpu = cgroup.cpuSeconds();
    String source = limitsMode;
    if (cpu < 0) {
      cpu = ProcFs.cpuSeconds(pids, ClockTicks.perSecond());
      source = "proc";
    }
    long peakRss = 0;
    for (long pid : pids) {
      peakRss += ProcFs.statusKib(pid, "VmHWM");
    }
    return new ResourceUsage(cpu, peakRss, cgroup.memoryPeakBytes(), source);
  }

  /**
   * From the engine's stats API: CPU time of the container's cgroup, its memory peak (cgroup v1;
   * -1 on v2), and as "peak RSS" the largest resident memory of the cgroup seen in any reading so
   * far (the API has no per-process high-water mark). Source "engine-stats". A reading takes about
   * a second (the engine's collection tick).
   */
  private ResourceUsage remoteUsage() {
    try {
      DockerEngine.ContainerStats stats = engine.stats(containerId);
      synchronized (this) {
        rssSeen = Math.max(rssSeen, stats.rssBytes());
      }
      return new ResourceUsage(stats.cpuSeconds(), rssSeen, stats.memoryPeakBytes(), "engine-stats");
    } catch (IOException e) {
      return new ResourceUsage(-1, -1, -1, "engine-stats unavailable: " + e.getMessage());
    }
  }

  /**
   * Per-thread CPU time of the container's processes, read in this machine's /proc by their host
   * pids (the container cgroup's cgroup.procs), and the same busy-thread sampler as a native
   * server's started until {@link #observeWorkers}. Remote: no threads of this kernel to sample
   * (an empty sample).
   */
  @Override
  public synchronized ThreadSample sampleThreads() {
    stopSampler();
    if (remote()) {
      return new ThreadSample(System.nanoTime(), Map.of());
    }
    Set<Long> pids = pids();
    ThreadSample first = new ThreadSample(System.nanoTime(), ProcFs.threadTicks(pids), ProcFs.processTicks(pids));
    sampler = new BusyWorkers.Sampler(first, this::pids);
    return first;
  }

  private synchronized List<BusyWorkers> stopSampler() {
    List<BusyWorkers> intervals = sampler == null ? List.of() : sampler.stop();
    sampler = null;
    return intervals;
  }

  /**
   * The workers seen busy since {@code since}, counted as for a native server ({@link
   * BusyWorkers#observe}): the container's processes are this kernel's. Null on a remote engine:
   * per-thread CPU time is in the server host's /proc, which neither the engine's API nor this
   * machine shows (not observable remotely). Callers record null as "not observed".
   */
  @Override
  public WorkerObservation observeWorkers(ThreadSample since) {
    List<BusyWorkers> intervals = stopSampler();
    if (remote()) {
      return null;
    }
    return BusyWorkers.observe(variant, limits.workers(), port, pids(), since, intervals);
  }

  @Override
  public synchronized boolean isAlive() {
    if (exitReason != null) {
      return false;
    }
    try {
      InspectContainerResponse.ContainerState state = client().inspectContainerCmd(containerId).exec().getState();
      if (state != null && Boolean.TRUE.equals(state.getRunning())) {
        return true;
      }
      exitReason = describeExit(state, limits.memoryBytes());
    } catch (NotFoundException e) {
      exitReason = "was removed";
    } catch (DockerException e) {
      exitReason = "cannot be inspected: " + DockerRuntime.rootMessage(e);
    }
    return false;
  }

  static String describeExit(InspectContainerResponse.ContainerState state, long memoryBytes) {
    if (state == null) {
      return "is gone";
    }
    StringBuilder reason = new StringBuilder("exited with code ").append(state.getExitCodeLong());
    if (Boolean.TRUE.equals(state.getOOMKilled())) {
      reason.append(", killed for exceeding its memory limit of ").append(memoryBytes / (1024 * 1024)).append(" MiB");
    }
    if (state.getError() != null && !state.getError().isBlank()) {
      reason.append(" (").append(state.getError()).append(")");
    }
    return reason.toString();
  }

  @Override
  public synchronized Optional<String> exitReason() {
    return isAlive() ? Optional.empty() : Optional.of(exitReason);
  }

  @Override
  public Path log() {
    return log;
  }

  @Override
  public String logTail(int lines) {
    return Commands.tail(log, lines);
  }

  @Override
  public synchronized FreezeTiming freeze() {
    return setPaused(true);
  }

  @Override
  public synchronized FreezeTiming thaw() {
    return setPaused(false);
  }

  @Override
  public boolean frozen() {
    return frozen;
  }

  /** docker pause (the engine's cgroup freezer) or unpause, then inspect until State.Paused says so. */
  private FreezeTiming setPaused(boolean pause) {
    if (closed) {
      throw new FreezeException(variant.id(), "cannot " + (pause ? "freeze" : "thaw") + " a closed container");
    }
    if (pause) {
      frozen = true; // from the first request on: close() must unpause a half-paused container
    }
    try {
      FreezeTiming timing = Freezing.change(variant.id(), "docker-pause", pause, Freezing.TIMEOUT, () -> {
        if (paused() != pause) {
          try {
            if (pause) {
              client().pauseContainerCmd(containerId).exec();
            } else {
              client().unpauseContainerCmd(containerId).exec();
            }
          } catch (DockerException e) {
            throw new IllegalStateException("container " + containerId + ": " + DockerRuntime.rootMessage(e), e);
          }
        }
      }, () -> {
        try {
          return paused() == pause ? Optional.empty()
              : Optional.of("docker inspect " + containerId + " says State.Paused=" + !pause);
        } catch (DockerException e) {
          return Optional.of("docker inspect " + containerId + " failed: " + DockerRuntime.rootMessage(e));
        }
      });
      frozen = pause;
      return timing;
    } catch (FreezeException e) {
      if (pause) {
        try {
          client().unpauseContainerCmd(containerId).exec();
          frozen = false;
        } catch (RuntimeException again) {
          // frozen stays true: close() unpauses again
        }
      }
      throw e;
    }
  }

  /** State.Paused as inspect reports it now. */
  private boolean paused() {
    InspectContainerResponse.ContainerState state = client().inspectContainerCmd(containerId).exec().getState();
    return state != null && Boolean.TRUE.equals(state.getPaused());
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    if (frozen) {
      // A paused container cannot be stopped: unpause it first.
      try {
        thaw();
      } catch (RuntimeException e) {
        if (!ServerRegistry.stopping() && !gone()) { // at shutdown only a failed removal is worth a line
          System.err.println("fairbench: " + e.getMessage() + "; removing it anyway");
        }
      }
    }
    closed = true;
    stopSampler();
    try {
      // SIGTERM and the grace period first; GenericContainer.stop() would SIGKILL at once.
      client().stopContainerCmd(containerId).withTimeout((int) Defaults.STOP_GRACE.toSeconds()).exec();
    } catch (NotModifiedException | NotFoundException e) {
      // already stopped or gone
    } catch (RuntimeException e) {
      System.err.println("fairbench: stopping container " + containerId + " failed: " + e.getMessage());
    }
    try {
      remove.run();
    } catch (RuntimeException e) {
      System.err.println("fairbench: removing container " + containerId + " failed: " + e.getMessage()
          + "; remove it with: docker rm -f " + containerId);
    }
    DockerRuntime.closeQuietly(logStream);
    ServerRegistry.untrack(this);
  }

  /**
   * Whether the engine no longer knows the container: at shutdown Testcontainers' own hook removes the
   * containers of its session while this one closes them.
   */
  private boolean gone() {
    try {
      client().inspectContainerCmd(containerId).exec();
      return false;
    } catch (NotFoundException e) {
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The files of a container's cgroup that say its CPU time, peak memory and processes. */
  record CgroupFiles(long initPid, Path cpuUsage, boolean cpuInNanos, Path memoryPeak, Path procs) {
    static final CgroupFiles NONE = new CgroupFiles(-1, null, false, null, null);

    /** From /proc/PID/cgroup of the container's first process. */
    static CgroupFiles of(long pid) {
      try {
        return parse(pid, Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")), CGROUP_ROOT);
      } catch (IOException e) {
        return new CgroupFiles(pid, null, false, null, null);
      }
    }

    /** v1 lines look like "4:cpuacct:/docker/ID", the v2 line like "0::/docker/ID". */
    static CgroupFiles parse(long pid, List<String> lines, Path root) {
      Path cpuacct = null;
      Path memory = null;
      Path unified = null;
      for (String line : lines) {
        String[] parts = line.split(":", 3);
        if (parts.length < 3) {
          continue;
        }
        String relative = parts[2].startsWith("/") ? parts[2].substring(1) : parts[2];
        if (parts[1].isEmpty()) {
          unified = root.resolve(relative);
          continue;
        }
        for (String controller : parts[1].split(",")) {
          Path mount = Files.isDirectory(root.resolve(parts[1])) ? root.resolve(parts[1]) : root.resolve(controller);
          if (controller.equals("cpuacct")) {
            cpuacct = mount.resolve(relative);
          } else if (controller.equals("memory")) {
            memory = mount.resolve(relative);
          }
        }
      }
      if (cpuacct != null || memory != null) {
        return new CgroupFiles(pid,
            cpuacct == null ? null : cpuacct.resolve("cpuacct.usage"), true,
            memory == null ? null : memory.resolve("memory.max_usage_in_bytes"),
            cpuacct != null ? cpuacct.resolve("cgroup.procs") : memory.resolve("cgroup.procs"));
      }
      if (unified != null) {
        return new CgroupFiles(pid, unified.resolve("cpu.stat"), false, unified.resolve("memory.peak"),
            unified.resolve("cgroup.procs"));
      }
      return new CgroupFiles(pid, null, false, null, null);
    }

    Set<Long> pids() {
      return procs == null ? Set.of() : ProcFs.readPids(procs);
    }

    /** CPU seconds of every process in the group, -1 when unknown. */
    double cpuSeconds() {
      if (cpuUsage == null) {
        return -1;
      }
      try {
        if (cpuInNanos) {
          return Long.parseLong(Files.readString(cpuUsage).trim()) / 1e9;
        }
        for (String line : Files.readAllLines(cpuUsage)) {
          if (line.startsWith("usage_usec ")) {
            return Long.parseLong(line.substring("usage_usec ".length()).trim()) / 1e6;
          }
        }
      } catch (IOException | NumberFormatException e) {
        // the group is gone
      }
      return -1;
    }

    /** memory.stat beside the peak file: total_rss (v1) or anon (v2). */
    MemoryReading memoryNow() {
      if (memoryPeak == null) {
        return MemoryReading.UNKNOWN;
      }
      return MemoryReading.ofCgroup(memoryPeak.resolveSibling("memory.stat"),
          memoryPeak.getFileName().toString().equals("memory.peak"));
    }

    long memoryPeakBytes() {
      if (memoryPeak == null) {
        return -1;
      }
      try {
        return Long.parseLong(Files.readString(memoryPeak).trim());
      } catch (IOException | NumberFormatException e) {
        return -1;
      }
    }
  }
}
