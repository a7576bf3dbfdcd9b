package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.runtime.DockerRuntime;
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
    header = "Remove what a killed run may have left: fairbench containers and cgroups.",
    description = {
      "Removes every Docker container labelled dev.fairbench=true (running or stopped), and the",
      "native runtime's cgroups whose processes are gone. Runs remove their own containers and",
      "cgroups, also on Ctrl-C; this is for a run killed with SIGKILL or a machine that crashed.",
      "Images are kept: they are the build cache. Exit 0 when nothing is left, 1 when something",
      "could not be removed."
    })
public final class CleanupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    int exit = ExitCodes.OK;
    if (DockerRuntime.engineReachable()) {
      try {
        List<String> removed = DockerRuntime.removeLeftoverContainers();
        out.println(removed.isEmpty() ? "docker: no fairbench container left" : "docker: removed " + removed.size() + " container(s):");
        removed.forEach(name -> out.println("  " + name));
      } catch (RuntimeException e) {
        out.println("docker: could not remove every fairbench container: " + e.getMessage());
        exit = ExitCodes.FAILED;
      }
    } else {
      out.println("docker: no engine answers, so no container to remove");
    }
    try {
      LimitsBackend limits = LimitsBackend.detect();
      limits.sweepStale();
      out.println("native: cgroups without processes removed (" + limits.mode() + ")");
    } catch (Exception e) {
      out.println("native: could not sweep the cgroups: " + e.getMessage());
      exit = ExitCodes.FAILED;
    }
    out.flush();
    return exit;
  }
}
