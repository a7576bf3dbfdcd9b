package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.runtime.ClockTicks;
import dev.fairbench.orchestrator.runtime.Commands;
import dev.fairbench.orchestrator.runtime.ProcFs;
import dev.fairbench.orchestrator.runtime.ServerRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs wrk pinned with taskset to the client CPU set, with our Lua script, and reads its
 * machine-readable result line. The client's CPU time is wrk's utime + stime, read from this
 * process's cutime/cstime once wrk has been reaped (exact, unlike sampling /proc while it runs).
 */
public final class WrkLoadGenerator implements LoadGenerator {
  private static final String SCRIPT_RESOURCE = "/dev/fairbench/orchestrator/load/fairbench.lua";

  private final String clientCpus;
  private final Path script;
  private final String version;

  private WrkLoadGenerator(String clientCpus, Path script, String version) {
    this.clientCpus = clientCpus;
    this.script = script;
    this.version = version;
  }

  /** @throws LoadException when wrk or taskset is missing */
  public static WrkLoadGenerator create(String clientCpus) throws LoadException {
    for (String tool : List.of("wrk", "taskset")) {
      if (!Commands.onPath(tool)) {
        throw new LoadException(tool + " is not on PATH; install it (Debian: apt-get install -y "
            + (tool.equals("wrk") ? "wrk" : "util-linux") + ")");
      }
    }
    try {
      Path script = Files.createTempFile("fairbench-wrk", ".lua");
      script.toFile().deleteOnExit();
      try (InputStream in = WrkLoadGenerator.class.getResourceAsStream(SCRIPT_RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("the wrk script " + SCRIPT_RESOURCE + " is missing from the jar");
        }
        Files.write(script, in.readAllBytes());
      }
      return new WrkLoadGenerator(clientCpus, script, detectVersion());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the wrk script to a temporary file", e);
    }
  }

  /** wrk -v prints "wrk 4.1.0 [epoll] Copyright ..." and exits 1. */
  static String detectVersion() {
    try {
      Process process = new ProcessBuilder("wrk", "-v").redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor(5, TimeUnit.SECONDS);
      return parseVersion(out);
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static String parseVersion(String output) {
    for (String line : output.split("\\R")) {
      if (line.startsWith("wrk ")) {
        String[] words = line.split("\\s+");
        return words.length > 1 ? "wrk " + words[1] : line.trim();
      }
    }
    return "unknown";
  }

  @Override
  public String name() {
    return "wrk";
  }

  @Override
  public String version() {
    return version;
  }

  @Override
  public LoadResult run(LoadSpec spec) throws LoadException, InterruptedException {
    Path body = null;
    try {
      List<String> command = new ArrayList<>(List.of(
          "taskset", "-c", clientCpus, "wrk",
          "-t", Integer.toString(spec.threads()),
          "-c", Integer.toString(spec.connections()),
          "-d", spec.duration().toSeconds() + "s",
          "--timeout", Math.max(1, spec.timeout().toSeconds()) + "s",
          "-s", script.toString(),
          spec.baseUrl().resolve(spec.endpoint().path()).toString(),
          "--", spec.endpoint().method()));
      if (spec.endpoint().body() != null) {
        body = Files.createTempFile("fairbench-body", ".json");
        Files.writeString(body, spec.endpoint().body());
        command.add(body.toString());
      } else {
        command.add("-");
      }
      command.add(Integer.toString(spec.pipeline()));
      command.add(spec.keepAlive() ? "0" : "1");
      long ticksBefore = ProcFs.reapedChildrenTicks();
      long started = System.nanoTime();
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      ServerRegistry.track(process);
      String output;
      try {
        output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(spec.duration().toSeconds() + 30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new LoadException("wrk did not finish within " + (spec.duration().toSeconds() + 30) + " s");
        }
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly();
        }
        ServerRegistry.untrack(process);
      }
      double wall = (System.nanoTime() - started) / 1e9;
      if (process.exitValue() != 0) {
        throw new LoadException("wrk exited with " + process.exitValue() + ": " + lastLines(output));
      }
      double cpu = (double) (ProcFs.reapedChildrenTicks() - ticksBefore) / ClockTicks.perSecond();
      return WrkOutputParser.parse(output).withClientCpu(cpu, cpu / wall);
    } catch (IOException e) {
      throw new LoadException("cannot run wrk: " + e.getMessage());
    } finally {
      if (body != null) {
        try {
          Files.deleteIfExists(body);
        } catch (IOException e) {
          // a temp file; harmless
        }
      }
    }
  }

  private static String lastLines(String output) {
    String[] lines = output.strip().split("\\R");
    return String.join(" | ", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 3), lines.length));
  }
}
