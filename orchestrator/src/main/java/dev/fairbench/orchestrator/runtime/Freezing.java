package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Freezing and thawing with a deadline: request the state, then poll until it is reported. */
final class Freezing {
  /** How long the kernel or the engine may take to freeze or thaw a server. */
  static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final long POLL_NANOS = 200_000;

  private Freezing() {}

  /** Something that asks for the new state and may fail with what it saw. */
  interface Request {
    void run() throws Exception;
  }

  /**
   * Runs {@code request}, then polls {@code pending} (what was seen while the state is not
   * reached yet, empty once it is) until it is empty or the timeout passes.
   */
  static FreezeTiming change(String server, String mechanism, boolean freeze, Duration timeout, Request request,
      Supplier<Optional<String>> pending) {
    String verb = freeze ? "freeze" : "thaw";
    long start = System.nanoTime();
    try {
      request.run();
    } catch (Exception e) {
      throw new FreezeException(server, "cannot " + verb + " with " + mechanism + ": " + e.getMessage(), e);
    }
    long deadline = start + timeout.toNanos();
    Optional<String> seen = pending.get();
    while (seen.isPresent()) {
      if (System.nanoTime() > deadline) {
        throw new FreezeException(server, "not " + (freeze ? "frozen" : "thawed") + " " + timeout.toMillis()
            + " ms after the " + verb + " request (" + mechanism + "): " + seen.get());
      }
      LockSupport.parkNanos(POLL_NANOS);
      seen = pending.get();
    }
    return new FreezeTiming(Duration.ofNanos(System.nanoTime() - start), mechanism);
  }

  /** A cgroup's freezer: writes the state, then polls the file that reports it. */
  static FreezeTiming cgroup(String server, CgroupFreezer freezer, boolean freeze, Duration timeout) {
    return change(server, freezer.mechanism(), freeze, timeout, () -> freezer.request(freeze), () -> {
      String state = freezer.state();
      return freezer.reached(state, freeze) ? Optional.empty()
          : Optional.of(freezer.stateFile() + " reads " + state);
    });
  }

  /**
   * SIGSTOP (or SIGCONT) to every process of the tree, then polls /proc until each one is
   * stopped (state T) or no longer is. Weaker than a cgroup freezer: a process forked between
   * listing the tree and the signal escapes until the next round (hence the rounds), the signals
   * are visible to the server (a parent gets SIGCHLD when its child stops, SIGCONT runs a handler
   * if it has one), and a debugger-stopped or exiting process does not count as frozen.
   */
  static FreezeTiming signals(String server, Supplier<Set<Long>> tree, boolean freeze, Duration timeout) {
    String signal = freeze ? "-STOP" : "-CONT";
    return change(server, "sigstop", freeze, timeout, () -> send(signal, tree.get()), () -> {
      List<String> notYet = new ArrayList<>();
      Set<Long> pids = tree.get();
      for (long pid : pids) {
        char state = state(pid);
        boolean reached = freeze ? state == 0 || "TtZX".indexOf(state) >= 0 : state != 'T';
        if (!reached) {
          notYet.add(pid + " (state " + state + ")");
        }
      }
      if (notYet.isEmpty()) {
        return Optional.empty();
      }
      try {
        send(signal, pids); // new children, or a signal that raced with a fork
      } catch (IOException e) {
        return Optional.of("kill " + signal + " failed: " + e.getMessage());
      }
      return Optional.of("processes not " + (freeze ? "stopped" : "running") + ": " + String.join(", ", notYet));
    });
  }

  /** The state letter of a process from /proc/PID/stat (R, S, D, T, Z, ...), 0 when it is gone. */
  static char state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** kill SIGNAL PIDS with the shell's builtin; a process that is gone meanwhile is no error. */
  static void send(String signal, Set<Long> pids) throws IOException {
    if (pids.isEmpty()) {
      return;
    }
    List<String> argv = new ArrayList<>(List.of("sh", "-c", "kill " + signal + " \"$@\" 2>/dev/null; exit 0", "kill"));
    pids.forEach(pid -> argv.add(Long.toString(pid)));
    Process kill = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      kill.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending " + signal);
    }
  }
}
