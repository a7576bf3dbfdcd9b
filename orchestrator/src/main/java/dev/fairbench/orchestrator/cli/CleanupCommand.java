package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.runtime.Runtimes;
import dev.fairbench.orchestrator.runtime.Leftovers;
import dev.fairbench.orchestrator.runtime.LimitsBackend;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    header = "Remove what a killed run may have left: fairbench processes, cgroups and containers.",
    description = {
      "Removes what orchestrators that are gone left: the Docker containers they started (running, paused "
          + "or stopped; those of a run still going, and containers run by hand from a fairbench image, are "
          + "kept), and the native runtime's cgroups, thawing them and killing their processes first. It lists "
          + "every process (pid and command), cgroup and container it stopped or removed, and what the watchdogs "
          + "of killed runs removed. Runs remove their own servers, also on Ctrl-C, and a watchdog process "
          + "removes them within a second when a run is killed with SIGKILL; this is for a machine that crashed "
          + "or a watchdog killed too. Images are kept: they are the build cache. Exit 0 when nothing is left, 1 "
          + "when something could not be removed."
    })
public final class CleanupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    int exit = ExitCodes.OK;
    if (Runtimes.dockerUsable()) {
      try {
        List<String> done = Runtimes.removeDockerContainersOfDeadRuns();
        if (done.stream().noneMatch(line -> line.startsWith("removed "))) {
          out.println("docker: no container of a killed run left");
        }
        done.forEach(line -> out.println("docker: " + line));
      } catch (RuntimeException e) {
        out.println("docker: could not remove every fairbench container: " + e.getMessage());
        exit = ExitCodes.FAILED;
      }
    } else {
      out.println("docker: no engine answers, so no container to remove");
    }
    try {
      LimitsBackend limits = LimitsBackend.detect();
      List<String> done = Leftovers.sweepNative(limits);
      if (done.isEmpty()) {
        out.println("native: no process or cgroup of a killed run left (" + limits.mode() + ")");
      }
      done.forEach(line -> out.println("native: " + line));
      if (done.stream().anyMatch(line -> line.startsWith("could not") && !line.contains("(by the watchdog"))) {
        exit = ExitCodes.FAILED;
      }
    } catch (Exception e) {
      out.println("native: could not sweep the cgroups: " + e.getMessage());
      exit = ExitCodes.FAILED;
    }
    out.flush();
    return exit;
  }
}
