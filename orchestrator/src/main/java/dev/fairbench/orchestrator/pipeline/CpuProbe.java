package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.results.ResultsDocument.Probe;
import dev.fairbench.orchestrator.runtime.ClockTicks;
import dev.fairbench.orchestrator.runtime.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A fixed amount of user-space work on the server's CPUs, timed once per round while every server
 * is frozen: sha256sum over the same 64 MiB from a file in memory, pinned with taskset. Hashing is
 * user-space instructions of a known count, so its speed follows the CPU's frequency and the time
 * the hypervisor steals, which nginx's mostly-kernel work and a Python entry's user-space work feel
 * differently.
 */
final class CpuProbe implements AutoCloseable {
  static final int MEGABYTES = 64;

  private final String cpus;
  private final Path data;
  private final int megabytes;

  private CpuProbe(String cpus, Path data, int megabytes) {
    this.cpus = cpus;
    this.data = data;
    this.megabytes = megabytes;
  }

  /** Empty when sha256sum or taskset is missing; the run goes on without the probe and says so. */
  static Optional<CpuProbe> create(String serverCpus) {
    return create(serverCpus, MEGABYTES);
  }

  /** A probe of {@code megabytes} on {@code cpus}; empty when it cannot run here. */
  static Optional<CpuProbe> create(String cpus, int megabytes) {
    try {
      Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
      Path data = Files.createTempFile(dir, "fairbench-probe", ".bin");
      byte[] block = new byte[1 << 20];
      new java.util.Random(1).nextBytes(block);
      try (var out = Files.newOutputStream(data)) {
        for (int i = 0; i < megabytes; i++) {
          out.write(block);
        }
      }
      CpuProbe probe = new CpuProbe(cpus, data, megabytes);
      return probe.run().isPresent() ? Optional.of(probe) : closeEmpty(probe);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<CpuProbe> closeEmpty(CpuProbe probe) {
    probe.close();
    return Optional.empty();
  }

  Optional<Probe> run() {
    try {
      long ticksBefore = ProcFs.reapedChildrenTicks();
      long started = System.nanoTime();
      Process process = start();
      process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        return Optional.empty();
      }
      double wall = (System.nanoTime() - started) / 1e9;
      double cpu = (double) (ProcFs.reapedChildrenTicks() - ticksBefore) / ClockTicks.perSecond();
      return Optional.of(new Probe(wall, cpu, megabytes / wall));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The hashing, started: its output (one line) is to be read and its exit awaited by the caller. */
  Process start() throws IOException {
    return new ProcessBuilder(List.of("taskset", "-c", cpus, "sha256sum", data.toString())).redirectErrorStream(true)
        .start();
  }

  int megabytes() {
    return megabytes;
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(data);
    } catch (IOException e) {
      // a temporary file
    }
  }
}
