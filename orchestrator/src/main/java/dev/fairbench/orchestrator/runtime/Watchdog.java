package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One small process per orchestrator that removes what the orchestrator leaves when it dies
 * without its shutdown hook (SIGKILL: the OOM killer, a CI timeout). It is a POSIX shell script
 * (watchdog.sh), started before the first server, that polls the orchestrator's pid and start
 * time every 0.5 s; when they no longer match, it thaws the orchestrator's cgroups (frozen tasks
 * cannot be killed under cgroup v1), SIGKILLs every process in them and in the trees of servers
 * started without a cgroup, removes the cgroups, unpauses and removes its containers (labelled
 * {@value #LABEL_OWNER}), writes what it did to a report that the next fairbench command
 * prints, and exits.
 *
 * <p>Why a separate process polling the pid: PR_SET_PDEATHSIG fires when the parent thread
 * exits, and JVM threads come and go; containers are not the orchestrator's children. The
 * watcher runs in its own session (setsid), so Ctrl-C in the terminal or a kill of the process
 * group does not take it with the orchestrator; it is in no server cgroup, so it is never frozen
 * nor killed with a server. Its standard streams are /dev/null: a pipe to a dead JVM would
 * kill it with SIGPIPE.
 */
public final class Watchdog {
  /** The container label with the owning orchestrator, "PID-STARTTIME". */
  public static final String LABEL_OWNER = "dev.fairbench.owner";

  private static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "fairbench-watchdog");
  private static Process watcher;
  private static Path watchFile;
  private static final java.util.Set<String> dockerNoted = new java.util.HashSet<>();

  private Watchdog() {}

  /** This orchestrator as "PID-STARTTIME", the start time in clock ticks since boot. */
  public static String owner() {
    long pid = ProcessHandle.current().pid();
    return pid + "-" + ProcFs.startTime(pid);
  }

  /** Whether the orchestrator named "PID-STARTTIME" still runs (false for a reused pid). */
  public static boolean ownerAlive(String owner) {
    int dash = owner.indexOf('-');
    try {
      long pid = Long.parseLong(owner.substring(0, dash));
      long start = Long.parseLong(owner.substring(dash + 1));
      return ProcFs.startTime(pid) == start;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The watcher's pid, or -1 when none runs. */
  public static synchronized long pid() {
    return watcher != null && watcher.isAlive() ? watcher.pid() : -1;
  }

  /**
   * Starts the watcher unless it runs; the runtimes call it before starting each server. A
   * watcher that cannot start is a warning, not a failure: the shutdown hook still covers every
   * end but SIGKILL.
   */
  static synchronized void ensureStarted() {
    if (watcher != null && watcher.isAlive()) {
      return;
    }
    String owner = owner();
    try {
      Files.createDirectories(DIR);
      watchFile = DIR.resolve(owner + ".watch");
      if (!Files.exists(watchFile)) {
        Files.createFile(watchFile);
      }
      String script;
      try (InputStream in = Watchdog.class.getResourceAsStream("watchdog.sh")) {
        if (in == null) {
          throw new IOException("watchdog.sh is missing from the classpath");
        }
        script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      List<String> argv = new ArrayList<>();
      if (Commands.onPath("setsid")) {
        argv.add("setsid");
      }
      argv.addAll(List.of("sh", "-c", script, "fairbench-watchdog", owner.substring(0, owner.indexOf('-')),
          owner.substring(owner.indexOf('-') + 1), watchFile.toString(), DIR.resolve(owner + ".report").toString()));
      watcher = new ProcessBuilder(argv)
          .directory(Path.of("/").toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      System.err.println("fairbench: warning: the watchdog could not start (" + e.getMessage()
          + "); if this run is killed with SIGKILL, run `fairbench cleanup`");
    }
  }

  /** A server without a cgroup: the watcher kills its tree (its pid and start time guard against reuse). */
  static synchronized void watchProcess(long pid) {
    append("pid " + pid + " " + ProcFs.startTime(pid));
  }

  /**
   * This orchestrator starts containers on the engine at {@code dockerHost}, e.g.
   * unix:///var/run/docker.sock; each engine once (the servers' and the load client's may differ).
   */
  static synchronized void watchDocker(String dockerHost) {
    if (dockerNoted.add(dockerHost)) {
      append("docker " + dockerHost);
    }
  }

  /** A container to remove (those created but not yet recorded are found by their owner label). */
  static synchronized void watchContainer(String id) {
    append("container " + id);
  }

  private static void append(String line) {
    ensureStarted();
    if (watchFile == null) {
      return;
    }
    try {
      Files.writeString(watchFile, line + "\n", StandardOpenOption.APPEND, StandardOpenOption.CREATE);
    } catch (IOException e) {
      System.err.println("fairbench: warning: cannot write the watchdog's list " + watchFile + " (" + e.getMessage()
          + "); if this run is killed with SIGKILL, run `fairbench cleanup`");
    }
  }

  /**
   * What the watchers of orchestrators that died removed, one line each ("killed pid 123
   * (python3 server.py) (by the watchdog of the killed orchestrator 4242)"); each report is
   * returned once, then deleted.
   */
  public static List<String> collectReports() {
    List<String> lines = new ArrayList<>();
    if (!Files.isDirectory(DIR)) {
      return lines;
    }
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path report : files.filter(f -> f.getFileName().toString().endsWith(".report")).sorted().toList()) {
        String owner = report.getFileName().toString().replaceFirst("\\.report$", "");
        // A report is complete once the watcher removed its list.
        if (ownerAlive(owner) || Files.exists(DIR.resolve(owner + ".watch"))) {
          continue;
        }
        for (String line : Files.readAllLines(report)) {
          if (!line.isBlank()) {
            lines.add(line + " (by the watchdog of the killed orchestrator " + owner.substring(0, owner.indexOf('-')) + ")");
          }
        }
        Files.deleteIfExists(report);
      }
    } catch (IOException | RuntimeException e) {
      // a report that cannot be read is no reason to stop a run
    }
    return lines;
  }

  /**
   * Servers without a cgroup whose orchestrator and watcher are both gone (the watcher was
   * killed too): kills their trees, removes the lists, and says what it did.
   */
  public static List<String> sweepUnwatched() {
    List<String> done = new ArrayList<>();
    if (!Files.isDirectory(DIR)) {
      return done;
    }
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path watch : files.filter(f -> f.getFileName().toString().endsWith(".watch")).sorted().toList()) {
        String owner = watch.getFileName().toString().replaceFirst("\\.watch$", "");
        if (ownerAlive(owner) || watcherAlive(watch)) {
          continue;
        }
        for (String line : Files.readAllLines(watch)) {
          String[] parts = line.trim().split(" ");
          if (parts.length == 3 && parts[0].equals("pid") && Long.toString(ProcFs.startTime(Long.parseLong(parts[1]))).equals(parts[2])) {
            ProcessHandle.of(Long.parseLong(parts[1])).ifPresent(root -> {
              List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
              tree.addFirst(root);
              for (ProcessHandle p : tree) {
                done.add("killed pid " + p.pid() + " (" + ProcFs.commandLine(p.pid()) + ")");
              }
              try {
                Freezing.send("-CONT", new java.util.HashSet<>(tree.stream().map(ProcessHandle::pid).toList()));
              } catch (IOException e) {
                // SIGKILL works on stopped processes too
              }
              tree.forEach(ProcessHandle::destroyForcibly);
            });
          }
        }
        Files.deleteIfExists(watch);
      }
    } catch (IOException | RuntimeException e) {
      // nothing readable to sweep
    }
    return done;
  }

  /**
   * Processes of native servers whose orchestrator and watchdog are both gone, found by the
   * {@link NativeServer#MARKER} they inherited and in no fairbench cgroup (those are the cgroup sweep's,
   * which thaws them first): what left its cgroups and its process tree (a daemon), and the servers
   * started without a cgroup. Returns once they are gone, so no later sweep counts them again.
   */
  public static List<String> sweepMarked() {
    List<String> done = new ArrayList<>();
    List<ProcessHandle> killed = new ArrayList<>();
    ProcFs.withVariable(NativeServer.MARKER).forEach((pid, marker) -> {
      String owner = marker.contains("/") ? marker.substring(0, marker.indexOf('/')) : marker;
      if (ownerAlive(owner) || watcherAlive(DIR.resolve(owner + ".watch")) || ProcFs.inFairbenchCgroup(pid)) {
        return;
      }
      ProcessHandle.of(pid).ifPresent(p -> {
        String command = ProcFs.commandLine(pid);
        try {
          Freezing.send("-CONT", java.util.Set.of(pid));
        } catch (IOException e) {
          // SIGKILL works on stopped processes too
        }
        if (p.destroyForcibly()) {
          killed.add(p);
          done.add("killed pid " + pid + " (" + command + "), found by the server marker it inherited");
        }
      });
    });
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (killed.stream().anyMatch(p -> ProcFs.startTime(p.pid()) >= 0) && System.nanoTime() < deadline) {
      Commands.sleep(20);
    }
    return done;
  }

  /** Whether a watcher for this list still runs (it has the list's path among its arguments). */
  private static boolean watcherAlive(Path watch) {
    return ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
        .map(args -> List.of(args).contains(watch.toString())).orElse(false));
  }
}
