package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The --impls option shared by the commands that read entries. */
public final class ImplsOption {
  @Option(
      names = "--impls",
      paramLabel = "DIR",
      description = "Folder holding the entries (default: impls/ of the fairbench checkout).")
  Path impls;

  Path implsDir(FairbenchPaths paths) {
    return impls == null ? paths.impls() : impls.toAbsolutePath().normalize();
  }

  EntryCatalog catalog(FairbenchPaths paths) {
    try {
      return EntryCatalog.load(implsDir(paths));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
