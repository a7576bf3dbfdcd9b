package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.runtime.ClockTicks;
import dev.fairbench.orchestrator.runtime.Commands;
import dev.fairbench.orchestrator.runtime.ProcFs;
import dev.fairbench.orchestrator.runtime.ServerRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The load tools as local processes, pinned with taskset to the client CPU set. The client's CPU
 * time is the tool's utime + stime, read from this JVM's cutime/cstime once the tool has been
 * reaped (exact, unlike sampling /proc while it runs).
 */
public final class LocalLoadClient implements LoadClient {
  private final String cpus;

  public LocalLoadClient(String cpus) {
    this.cpus = cpus;
  }

  @Override
  public String cpus() {
    return cpus;
  }

  @Override
  public String describe() {
    return "this machine";
  }

  @Override
  public boolean has(String tool) {
    return Commands.onPath(tool);
  }

  @Override
  public Optional<String> output(List<String> command) {
    return Commands.output(command, Path.of("."), Duration.ofSeconds(10));
  }

  @Override
  public String stage(String name, byte[] content) throws LoadException {
    try {
      int dot = name.lastIndexOf('.');
      Path file = Files.createTempFile("fairbench-" + (dot > 0 ? name.substring(0, dot) : name),
          dot > 0 ? name.substring(dot) : "");
      file.toFile().deleteOnExit();
      Files.write(file, content);
      return file.toString();
    } catch (IOException e) {
      throw new LoadException("cannot write " + name + " to a temporary file: " + e.getMessage());
    }
  }

  @Override
  public Execution run(String tool, List<String> command, Duration limit) throws LoadException, InterruptedException {
    if (!Commands.onPath("taskset")) {
      throw new LoadException("taskset not found on PATH (Debian: apt-get install -y util-linux)");
    }
    List<String> pinned = new ArrayList<>(List.of("taskset", "-c", cpus));
    pinned.addAll(command);
    Path stderr = null;
    try {
      stderr = Files.createTempFile("fairbench-" + tool, ".err");
      long ticksBefore = ProcFs.reapedChildrenTicks();
      long started = System.nanoTime();
      Process process = new ProcessBuilder(pinned).redirectError(stderr.toFile()).start();
      ServerRegistry.track(process);
      String output;
      try {
        output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new LoadException(tool + " did not finish within " + limit.toSeconds() + " s");
        }
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
        ServerRegistry.untrack(process);
      }
      double wall = (System.nanoTime() - started) / 1e9;
      double cpu = (double) (ProcFs.reapedChildrenTicks() - ticksBefore) / ClockTicks.perSecond();
      return new Execution(process.exitValue(), output, Files.readString(stderr, StandardCharsets.UTF_8), cpu, wall);
    } catch (IOException e) {
      throw new LoadException("cannot run " + tool + ": " + e.getMessage());
    } finally {
      if (stderr != null) {
        try {
          Files.deleteIfExists(stderr);
        } catch (IOException e) {
          // a temp file; harmless
        }
      }
    }
  }

  @Override
  public void close() {
    // nothing kept between runs
  }
}
