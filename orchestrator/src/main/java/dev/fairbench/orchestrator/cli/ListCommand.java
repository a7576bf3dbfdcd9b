package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.discovery.Entry;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.config.Defaults;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "List the entries and their variants, each available or unavailable with the reason.",
    description = {
      "Reads impls/*/fairbench.toml. An entry is unavailable when its manifest is invalid, a tool it "
          + "requires is not on PATH, or its availability probe fails (the probe's last line is the reason). With "
          + "--runtime docker, availability is the Docker runtime's own verdict (docs/DOCKER.md).",
      "",
      "Exit 0 when the entries could be read, 2 when the entries folder does not exist."
    })
public final class ListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;

  @Option(names = "--runtime", paramLabel = "NAME", defaultValue = Defaults.RUNTIME,
      description = "Judge availability for this runtime: native, docker, or auto (docker when an engine answers). Default: ${DEFAULT-VALUE}.")
  String runtimeName;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    FairbenchPaths paths = FairbenchPaths.detect();
    EntryCatalog catalog = impls.catalog(paths);
    ServerRuntime runtime = LimitOptions.runtime(runtimeName, paths.results().resolve("logs"));

    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"ENTRY", "LANGUAGE", "FRAMEWORK", "WORKERS", "STATUS"});
    int available = 0;
    for (Entry entry : catalog.entries()) {
      if (!entry.isValid()) {
        rows.add(new String[] {entry.name(), "-", "-", "-", "unavailable: manifest error: " + entry.manifestError().get()});
        continue;
      }
      for (EntryVariant variant : entry.variants()) {
        var availability = runtime.availability(variant);
        if (availability.available()) {
          available++;
        }
        rows.add(new String[] {variant.id(), variant.language(), variant.framework() + " " + variant.frameworkVersion(),
            variant.workersModel().wireName(), availability.toString()});
      }
    }
    if (rows.size() == 1) {
      out.println("No entries under " + catalog.implsDir() + ".");
      return ExitCodes.OK;
    }
    int[] widths = new int[4];
    for (String[] row : rows) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      out.printf("%-" + widths[0] + "s  %-" + widths[1] + "s  %-" + widths[2] + "s  %-" + widths[3] + "s  %s%n",
          (Object[]) row);
    }
    out.println();
    String note = runtime.limitsNote();
    out.printf("%d of %d available with the %s runtime (limits: %s%s); entries from %s%n", available, rows.size() - 1,
        runtime.name(), runtime.limitsMode(), note.isEmpty() ? "" : "; " + note, catalog.implsDir());
    out.flush();
    return ExitCodes.OK;
  }
}
