package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.core.ProbePages;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The machine's speed around each visit: a short {@link CpuProbe} on the server's CPUs and one on the
 * client's, run at the same time while every server is frozen, timed by the wall clock. On a shared VM
 * a virtual CPU can run at 60% of its speed for seconds at a time with no steal recorded (its physical
 * core's other thread busy, a lower clock): the round's one probe sees such states come and go from
 * round to round (docs/ORCHESTRATOR.md, "Speed around each visit"); this puts a reading on both sides
 * of every measured run.
 */
final class SpeedProbe implements AutoCloseable {
  /** 16 MiB: 40–70 ms on this kind of machine, long enough that starting the processes is a few percent. */
  static final int MEGABYTES = 16;
  /** A reading this recent (the previous visit's, after its freeze) stands for the next visit's before-reading. */
  static final long FRESH_NANOS = 250_000_000L;

  /**
   * One reading: MB/s on each side, then the {@link WakeupProbe}'s round trips per second between them,
   * then the {@link MemoryProbe}'s nanoseconds per load on the client's side; -1 where a probe failed or
   * is not made.
   */
  record Reading(double server, double client, double wakeups, double memory) {
    static final Reading NONE = new Reading(-1, -1, -1, -1);
  }

  private final CpuProbe server;
  private final CpuProbe client; // null: the load client runs elsewhere
  private final WakeupProbe wakeups; // null: the load client runs elsewhere, or no echo could start
  private final MemoryProbe memory; // null: the load client runs elsewhere, so this process is not on its CPUs

  private SpeedProbe(CpuProbe server, CpuProbe client, WakeupProbe wakeups, MemoryProbe memory) {
    this.server = server;
    this.client = client;
    this.wakeups = wakeups;
    this.memory = memory;
  }

  /**
   * Empty when the probe cannot run here (no taskset or sha256sum).
   *
   * @param clientCpus null when the load client runs on another machine: its side then reads -1
   */
  static Optional<SpeedProbe> create(String serverCpus, String clientCpus) {
    Optional<CpuProbe> server = CpuProbe.create(serverCpus, MEGABYTES);
    if (server.isEmpty()) {
      return Optional.empty();
    }
    Optional<CpuProbe> client = clientCpus == null ? Optional.empty() : CpuProbe.create(clientCpus, MEGABYTES);
    if (clientCpus != null && client.isEmpty()) {
      server.get().close();
      return Optional.empty();
    }
    WakeupProbe wakeups = clientCpus == null ? null : WakeupProbe.create(serverCpus).orElse(null);
    MemoryProbe memory = clientCpus == null ? null : new MemoryProbe();
    return Optional.of(new SpeedProbe(server.get(), client.orElse(null), wakeups, memory));
  }

  /** Whether the readings carry the memory's latency. */
  boolean readsMemory() {
    return memory != null;
  }

  /** The pages the memory's latency is read on; empty without it. */
  Optional<ProbePages> memoryPages() {
    return Optional.ofNullable(memory).map(MemoryProbe::pages);
  }

  /** Whether the readings carry wake-ups. */
  boolean readsWakeups() {
    return wakeups != null;
  }

  /** The wake-ups alone; -1 without them. */
  double wakeups() {
    return wakeups == null ? -1 : wakeups.read();
  }

  /** Both hashing probes at once, each one's MB/s from its start to its own exit; then the wake-ups, then the memory. */
  Reading read() {
    Reading hashing = hashing();
    double trips = wakeups();
    return new Reading(hashing.server(), hashing.client(), trips, memory == null ? -1 : memory.read());
  }

  private Reading hashing() {
    try {
      long serverStarted = System.nanoTime();
      Process s = server.start();
      long clientStarted = System.nanoTime();
      Process c = client == null ? null : client.start();
      var serverEnd = s.onExit().thenApply(p -> System.nanoTime());
      var clientEnd = c == null ? null : c.onExit().thenApply(p -> System.nanoTime());
      s.getInputStream().readAllBytes();
      if (c != null) {
        c.getInputStream().readAllBytes();
      }
      return new Reading(speed(s, serverEnd, serverStarted, server.megabytes()),
          c == null ? -1 : speed(c, clientEnd, clientStarted, client.megabytes()), -1, -1);
    } catch (IOException e) {
      return Reading.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Reading.NONE;
    }
  }

  private static double speed(Process p, java.util.concurrent.CompletableFuture<Long> end, long started, int megabytes)
      throws InterruptedException {
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        return -1;
      }
      double wall = (end.get(5, TimeUnit.SECONDS) - started) / 1e9;
      return wall > 0 ? megabytes / wall : -1;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    server.close();
    if (client != null) {
      client.close();
    }
    if (wakeups != null) {
      wakeups.close();
    }
  }
}
