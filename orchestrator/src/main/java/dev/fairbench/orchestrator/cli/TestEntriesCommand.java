package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.FairbenchPaths;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.EntryVariant.TestSpec;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import dev.fairbench.orchestrator.runtime.Availability;
import dev.fairbench.orchestrator.runtime.Commands;
import dev.fairbench.orchestrator.runtime.EntryBuilder;
import dev.fairbench.orchestrator.runtime.Runtimes;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "test-entries",
    mixinStandardHelpOptions = true,
    header = "Run the entries' own unit tests (the [test] table of their manifests), natively.",
    description = {
      "For each ENTRY[:VARIANT] (or nothing: every entry), builds the variant natively with its [build] "
          + "steps (unless --no-build), runs the [test] setup steps and command in the entry folder, and prints "
          + "PASS, FAIL, unavailable: <reason> (a missing tool, a failing availability probe) or none (no [test] "
          + "table). Variants whose build and tests are the same run once.",
      "",
      "Exit 0 when nothing FAILs, 1 when a test, a build or a manifest fails (or an entry named on the "
          + "command line is unavailable), 2 for a usage error."
    })
public final class TestEntriesCommand implements Callable<Integer> {
  private static final int TAIL_LINES = 30;

  @Spec CommandSpec spec;
  @Mixin ImplsOption impls;

  @Option(names = "--no-build", description = "Run the tests on the existing build output (e.g. right after `fairbench run`).")
  boolean noBuild;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Folder for the build and test logs (default: results/test-entries-<time>/).")
  Path output;

  @Parameters(paramLabel = "ENTRY[:VARIANT]", arity = "0..*", description = "Entries to test; none means every entry.")
  List<String> entries = List.of();

  /** What a run of one variant's tests came to. */
  enum Outcome { PASS, FAIL, UNAVAILABLE, NONE }

  @Override
  public Integer call() throws InterruptedException {
    FairbenchPaths paths = FairbenchPaths.detect();
    EntryCatalog catalog = impls.catalog(paths);
    List<Selection> selections;
    try {
      selections = catalog.select(entries);
    } catch (UnknownEntryException e) {
      throw new UsageException(e.getMessage());
    }
    Path dir = (output != null ? output : paths.results().resolve("test-entries-" + Converters.timestamp(Instant.now())))
        .toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UsageException("cannot create the log folder " + dir + ": " + e.getMessage());
    }
    EntryBuilder runtime = Runtimes.nativeBuilder(dir);
    PrintWriter out = spec.commandLine().getOut();
    int width = selections.stream().mapToInt(s -> s.id().length()).max().orElse(10);
    Map<List<Object>, String> alreadyRun = new HashMap<>();
    Map<String, Outcome> outcomes = new HashMap<>();
    boolean failed = false;
    for (Selection selection : selections) {
      Result result;
      if (selection.variant().isEmpty()) {
        result = new Result(Outcome.FAIL, "manifest error: " + selection.manifestError().orElse("?"));
      } else {
        EntryVariant variant = selection.variant().get();
        List<Object> key = variant.test().isEmpty() ? null
            : List.of(variant.dir(), variant.buildSteps(), variant.buildEnv(), variant.test().get());
        String twin = key == null ? null : alreadyRun.get(key);
        if (twin != null) {
          Outcome same = outcomes.get(twin);
          result = new Result(same, "the same build and tests as " + twin);
        } else {
          result = test(runtime, variant, dir);
          if (key != null) {
            alreadyRun.put(key, variant.id());
          }
        }
      }
      outcomes.put(selection.id(), result.outcome());
      boolean named = !entries.isEmpty();
      failed |= result.outcome() == Outcome.FAIL || (named && result.outcome() == Outcome.UNAVAILABLE);
      String label = switch (result.outcome()) {
        case PASS, FAIL -> result.outcome().name();
        case UNAVAILABLE -> "unavailable";
        case NONE -> "none";
      };
      out.printf("%-11s  %-" + width + "s  %s%n", label, selection.id(), result.detail());
      out.flush();
    }
    out.println("Logs: " + dir);
    out.flush();
    return failed ? ExitCodes.FAILED : ExitCodes.OK;
  }

  private record Result(Outcome outcome, String detail) {}

  private Result test(EntryBuilder runtime, EntryVariant variant, Path logDir) throws InterruptedException {
    if (variant.test().isEmpty()) {
      return new Result(Outcome.NONE, "no [test] table in " + variant.file().getFileName());
    }
    TestSpec test = variant.test().get();
    Availability availability = runtime.availability(variant);
    if (!availability.available()) {
      return new Result(Outcome.UNAVAILABLE, availability.reason());
    }
    for (String tool : test.requires()) {
      if (!Commands.onPath(tool)) {
        return new Result(Outcome.UNAVAILABLE, "missing tool " + tool + " (test.requires)");
      }
    }
    if (!test.availabilityProbe().isEmpty()) {
      Path probeLog = logDir.resolve(stem(variant) + ".test-probe.log");
      Commands.Outcome probe = Commands.run(test.availabilityProbe(), variant.dir(), Map.of(), Duration.ofSeconds(20), probeLog);
      if (!probe.succeeded()) {
        String last = Commands.tail(probeLog, 1);
        return new Result(Outcome.UNAVAILABLE,
            last.isEmpty() ? probe.describe(test.availabilityProbe(), Duration.ofSeconds(20)) : last);
      }
    }
    long start = System.nanoTime();
    if (!noBuild) {
      Path buildLog = logDir.resolve(stem(variant) + ".build.log");
      try {
        runtime.build(variant, buildLog);
      } catch (ServerStartException e) {
        return new Result(Outcome.FAIL, e.getMessage() + tail(buildLog));
      }
    }
    Path log = logDir.resolve(stem(variant) + ".test.log");
    try {
      Files.writeString(log, "", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the test log " + log, e);
    }
    long deadline = System.nanoTime() + test.timeout().toNanos();
    List<List<String>> commands = new ArrayList<>(test.setup());
    commands.add(test.command());
    for (List<String> command : commands) {
      Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
      append(log, "$ " + String.join(" ", command) + "\n");
      Commands.Outcome outcome = Commands.run(command, variant.dir(), test.env(), left, log);
      if (!outcome.succeeded()) {
        return new Result(Outcome.FAIL, outcome.describe(command, test.timeout()) + " (log: " + log + ")" + tail(log));
      }
    }
    return new Result(Outcome.PASS, String.format(Locale.ROOT, "%.1f s (log: %s)", (System.nanoTime() - start) / 1e9, log));
  }

  private static String stem(EntryVariant variant) {
    return variant.id().replace(':', '_');
  }

  private static String tail(Path log) {
    String tail = Commands.tail(log, TAIL_LINES);
    return tail.isEmpty() ? "" : "\n" + tail.indent(4).stripTrailing();
  }

  private static void append(Path log, String text) {
    try {
      Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the test log " + log, e);
    }
  }
}
