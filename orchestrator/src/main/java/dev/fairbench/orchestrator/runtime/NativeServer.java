package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.OpenFileLimit;
import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.core.WorkerObservation;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A server started by {@link NativeRuntime}. */
final class NativeServer implements RunningServer {
  /**
   * The environment variable each native server is started with, "OWNER/GROUP" (the orchestrator as
   * {@link Watchdog#owner()}, then the server's group name): every process the server makes inherits
   * it, so one that left both its process tree and its cgroups is still found — by {@link #close()},
   * by the watchdog and by `fairbench cleanup`.
   */
  static final String MARKER = "FAIRBENCH_SERVER";

  private final EntryVariant variant;
  private final Limits limits;
  private final int port;
  private final URI baseUrl;
  private final Process process;
  private final LimitsBackend.Group group;
  private final String limitsMode;
  private final Path log;
  private final long launchedAt;
  private volatile long readyAt = -1;
  private boolean closed;
  private volatile boolean frozen;
  private BusyWorkers.Sampler sampler;
  private final String marker;

  NativeServer(EntryVariant variant, Limits limits, int port, URI baseUrl, Process process, LimitsBackend.Group group,
      String limitsMode, Path log, long launchedAt, String marker) {
    this.variant = variant;
    this.limits = limits;
    this.port = port;
    this.baseUrl = baseUrl;
    this.process = process;
    this.group = group;
    this.limitsMode = limitsMode;
    this.log = log;
    this.launchedAt = launchedAt;
    this.marker = marker;
  }

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

  /** The group's anonymous memory; without a cgroup (taskset), the Pss_Anon of the process tree summed. */
  @Override
  public MemoryReading memory() {
    MemoryReading reading = group.memoryNow();
    return reading.known() ? reading : MemoryReading.ofProcesses(pids());
  }

  String limitsMode() {
    return limitsMode;
  }

  /** The server's first process. */
  long pid() {
    return process.pid();
  }

  @Override
  public String limitsReadBack() {
    String groupLimits = group == null ? "" : group.readBack();
    String nofile = openFiles().map(l -> "nofile=" + l.describe()).orElse("");
    return groupLimits.isEmpty() || nofile.isEmpty() ? groupLimits + nofile : groupLimits + ", " + nofile;
  }

  /** From the cgroup's files and /proc/PID/limits; empty without a cgroup (taskset). */
  @Override
  public Optional<AppliedLimits> appliedLimits() {
    return group == null ? Optional.empty()
        : group.applied().map(a -> new AppliedLimits(a.serverCpus(), a.memoryBytes(), openFiles().orElse(null), a.source()));
  }

  @Override
  public List<String> outsideLimits() {
    return Confinement.outside(everyProcess(), group == null ? Optional.empty() : group.members(),
        CpuSet.parse(limits.serverCpus()));
  }

  /**
   * The server's processes, every process holding its listening socket, and every process carrying its
   * {@link #MARKER}: one that wrote itself out of its cgroups after leaving the process tree (a daemon's
   * double fork) is found only by those two.
   */
  private Set<Long> everyProcess() {
    Set<Long> processes = pids();
    processes.addAll(ProcFs.socketHolders(ProcFs.listeningInodes(port)));
    ProcFs.withVariable(MARKER).forEach((pid, value) -> {
      if (value.equals(marker)) {
        processes.add(pid);
      }
    });
    return processes;
  }

  /** From /proc/PID/limits of the server's first process (its workers inherit it). */
  @Override
  public Optional<OpenFileLimit> openFiles() {
    return OpenFiles.ofProcess(process.pid());
  }

  @Override
  public URI baseUrl() {
    return baseUrl;
  }

  /** The group's processes, or the process tree when no cgroup tracks them. */
  private Set<Long> pids() {
    Set<Long> pids = new LinkedHashSet<>(group.pids());
    pids.addAll(ProcFs.descendantsAndSelf(process.toHandle()));
    return pids;
  }

  @Override
  public ResourceUsage usage() {
    Set<Long> pids = pids();
    double cpu = group.cpuSeconds();
    String source = limitsMode;
    if (cpu < 0) {
      cpu = ProcFs.cpuSeconds(pids, ClockTicks.perSecond());
      source = "proc";
    }
    long peakRss = 0;
    for (long pid : pids) {
      peakRss += ProcFs.statusKib(pid, "VmHWM");
    }
    return new ResourceUsage(cpu, peakRss, group.memoryPeakBytes(), source);
  }

  @Override
  public synchronized ThreadSample sampleThreads() {
    stopSampler();
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

  @Override
  public WorkerObservation observeWorkers(ThreadSample since) {
    List<BusyWorkers> intervals = stopSampler();
    return BusyWorkers.observe(variant, limits.workers(), port, pids(), since, intervals);
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public Optional<String> exitReason() {
    if (process.isAlive()) {
      return Optional.empty();
    }
    long oomKills = group.oomKills();
    if (oomKills > 0) {
      return Optional.of(String.format(java.util.Locale.ROOT,
          "was killed by the kernel's OOM killer at its %d MiB memory limit (%d process(es) killed; exit code %d)",
          limits.memoryBytes() >> 20, oomKills, process.exitValue()));
    }
    int code = process.exitValue();
    return Optional.of(code > 128 ? "was killed by signal " + (code - 128) + " (exit code " + code + ")"
        : "exited with code " + code);
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
    return setFrozen(true);
  }

  @Override
  public synchronized FreezeTiming thaw() {
    return setFrozen(false);
  }

  @Override
  public boolean frozen() {
    return frozen;
  }

  private FreezeTiming setFrozen(boolean freeze) {
    if (closed) {
      throw new FreezeException(variant.id(), "cannot " + (freeze ? "freeze" : "thaw") + " a closed server");
    }
    if (freeze) {
      frozen = true; // from the first request on: close() must thaw even a half-frozen server
    }
    try {
      FreezeTiming timing = change(freeze);
      frozen = freeze;
      return timing;
    } catch (FreezeException e) {
      if (!freeze) {
        throw e;
      }
      try {
        change(false);
        frozen = false;
      } catch (FreezeException again) {
        throw new FreezeException(variant.id(), e.seen() + "; thawing it again failed too: " + again.seen(), e);
      }
      throw new FreezeException(variant.id(), e.seen() + " (thawed again)", e);
    }
  }

  private FreezeTiming change(boolean freeze) {
    return group.freezer()
        .map(freezer -> Freezing.cgroup(variant.id(), freezer, freeze, Freezing.TIMEOUT))
        .orElseGet(() -> Freezing.signals(variant.id(), this::pids, freeze, Freezing.TIMEOUT));
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    if (frozen) {
      // Under cgroup v1 a frozen task cannot even be killed; a stopped one would not see SIGTERM.
      try {
        thaw();
      } catch (FreezeException e) {
        System.err.println("fairbench: " + e.getMessage() + "; killing it anyway");
      }
    }
    closed = true;
    stopSampler();
    everyProcess().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    if (!awaitGone(Defaults.STOP_GRACE.toMillis())) {
      everyProcess().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      awaitGone(3000);
    }
    group.destroy();
    ServerRegistry.untrack(this);
  }

  private boolean awaitGone(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < deadline) {
      if (everyProcess().stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))) {
        return true;
      }
      Commands.sleep(50);
    }
    return false;
  }
}
