package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.pipeline.RunSession.PreflightException;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.Invocation;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A run that stopped (killed, out of memory, a CI timeout), read back from its results file for
 * `run --resume`: where it stopped, and whether it may be continued here. It is continued at a round
 * boundary: the rounds complete in the file are kept, the first incomplete one is measured again
 * from its start (its partial runs dropped), then the rest, each in the order its seed gives.
 */
public final class Resumption {
  private final Path resultsFile;
  private final ResultsDocument previous;
  private final int fromRound;
  private final int droppedRuns;
  private final Instant lastWritten;

  private Resumption(Path resultsFile, ResultsDocument previous, int fromRound, int droppedRuns, Instant lastWritten) {
    this.resultsFile = resultsFile;
    this.previous = previous;
    this.fromRound = fromRound;
    this.droppedRuns = droppedRuns;
    this.lastWritten = lastWritten;
  }

  /**
   * Reads the run in {@code given} (its folder or its results.json) and finds where to go on.
   *
   * @throws PreflightException when there is nothing to resume, or it cannot be resumed by this fairbench
   */
  public static Resumption read(Path given) {
    Path file = Files.isDirectory(given) ? given.resolve("results.json") : given;
    file = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      throw new PreflightException((Files.isDirectory(given) ? given + " holds no results.json" : file + " does not exist")
          + ": nothing to resume");
    }
    ResultsDocument previous;
    Instant written;
    try {
      previous = ResultsJson.read(file);
      written = Files.getLastModifiedTime(file).toInstant().truncatedTo(ChronoUnit.SECONDS);
    } catch (IOException e) {
      throw new PreflightException("cannot read " + file + ": " + firstLine(e.getMessage()));
    }
    if (previous.schemaVersion() != ResultsDocument.SCHEMA_VERSION
        || !ResultsDocument.METHOD_VERSION.equals(previous.methodVersion())) {
      throw new PreflightException(file + " was measured with method " + describe(previous.methodVersion())
          + " (schema " + previous.schemaVersion() + "); this fairbench measures with " + ResultsDocument.METHOD_VERSION
          + " (schema " + ResultsDocument.SCHEMA_VERSION + "): one run cannot mix the two");
    }
    Invocation invocation = previous.invocation();
    if (invocation == null || invocation.config() == null) {
      throw new PreflightException(file + " records no settings to resume from (written before --resume existed)");
    }
    if (!invocation.config().benchmark() || invocation.config().onlyStartup()) {
      throw new PreflightException(file + " is of a run without rounds (--only-startup): run it again instead");
    }
    int rounds = invocation.config().rounds();
    List<CellResult> pending = previous.entries().stream().flatMap(e -> e.cells().stream())
        .filter(c -> c.status() == CellStatus.PENDING).toList();
    int recorded = previous.rounds().stream().mapToInt(ResultsDocument.RoundRecord::index).max().orElse(0);
    if (recorded > 0 && pending.isEmpty()) {
      throw new PreflightException(file + " is complete: all " + rounds + " rounds are done, nothing to resume"
          + " (to recompute its statistics: fairbench report --rederive)");
    }
    int complete = 0;
    while (complete < rounds && recorded > 0) {
      int round = complete + 1;
      boolean done = pending.stream().allMatch(c -> c.countedRuns().stream().anyMatch(r -> r.round() == round));
      if (!done) {
        break;
      }
      complete = round;
    }
    if (complete >= rounds) {
      throw new PreflightException(file + " is complete: all " + rounds + " rounds are done, nothing to resume");
    }
    int from = complete + 1;
    int dropped = (int) previous.entries().stream().flatMap(e -> e.cells().stream()).flatMap(c -> c.runs().stream())
        .filter(r -> r.round() >= from).count();
    return new Resumption(file, previous, from, dropped, written);
  }

  public Path resultsFile() {
    return resultsFile;
  }

  public ResultsDocument previous() {
    return previous;
  }

  public Invocation invocation() {
    return previous.invocation();
  }

  /** The first round measured again. */
  public int fromRound() {
    return fromRound;
  }

  /** Runs of the incomplete round that are dropped. */
  public int droppedRuns() {
    return droppedRuns;
  }

  /** When the run last wrote its results: as near to its death as the file tells. */
  public Instant lastWritten() {
    return lastWritten;
  }

  /** The runs of {@code cell} from the rounds that are kept. */
  List<RunRecord> keptRuns(CellResult cell) {
    return cell.runs().stream().filter(r -> r.round() < fromRound).toList();
  }

  /** The record of this break, as results.json's breaks and the fairness review show it. */
  String breakRecord(Instant resumedAt) {
    int rounds = invocation().config().rounds();
    return "stopped " + (fromRound == 1 ? "before round 1 was complete" : "after round " + (fromRound - 1) + " of " + rounds)
        + " (results last written " + lastWritten + "), resumed " + resumedAt.truncatedTo(ChronoUnit.SECONDS)
        + " from round " + fromRound + " with new server processes (every entry prepared, checked and warmed up again)"
        + (droppedRuns == 0 ? "" : ", the " + droppedRuns + " partial run" + (droppedRuns == 1 ? "" : "s") + " of round "
            + fromRound + " dropped");
  }

  /**
   * Refuses when the checkout is not the one the run measured: another commit, a change in its
   * uncommitted state, or an entry whose files differ (or that is gone, or new in the selection).
   */
  void checkCheckout(String commit, boolean dirty, Map<String, String> sources) {
    Environment then = previous.environment();
    if (then != null && !Objects.equals(then.gitCommit(), commit)) {
      throw new PreflightException("cannot resume " + resultsFile + ": the checkout changed: the run measured commit "
          + then.gitCommit() + ", the checkout is at " + commit + " (start a new run)");
    }
    if (then != null && then.gitDirty() != dirty) {
      throw new PreflightException("cannot resume " + resultsFile + ": the checkout " + (dirty
          ? "has uncommitted changes it did not have when the run began" : "had uncommitted changes when the run began, now has none")
          + " (start a new run)");
    }
    Map<String, String> recorded = invocation().sources();
    List<String> changes = new ArrayList<>();
    for (String id : new TreeSet<>(recorded.keySet())) {
      String now = sources.get(id);
      if (now == null || now.equals("missing")) {
        changes.add(id + " is gone");
      } else if (!now.equals(recorded.get(id))) {
        changes.add(id + " has other files than it had");
      }
    }
    for (String id : new TreeSet<>(sources.keySet())) {
      if (!recorded.containsKey(id)) {
        changes.add(id + " is new");
      }
    }
    if (!changes.isEmpty()) {
      throw new PreflightException("cannot resume " + resultsFile + ": the entries changed since the run began: "
          + String.join("; ", changes) + " (start a new run)");
    }
  }

  /** Refuses when this machine is not the one the run measured on. */
  void checkEnvironment(Environment now) {
    Environment then = previous.environment();
    if (then == null) {
      return;
    }
    List<String> changes = new ArrayList<>();
    compare(changes, "host", then, now, Environment::hostname);
    compare(changes, "CPU model", then, now, Environment::cpuModel);
    compare(changes, "cores", then, now, e -> Integer.toString(e.cores()));
    compare(changes, "kernel", then, now, Environment::kernel);
    compare(changes, "cgroup", then, now, Environment::cgroupVersion);
    compare(changes, "runtime", then, now, Environment::runtime);
    compare(changes, "limits", then, now, Environment::limitsMode);
    compare(changes, "load generator", then, now, Environment::loadGenerator);
    if (then.topology() != null && now.topology() != null) {
      compare(changes, "topology", then, now, e -> e.topology().signature());
    }
    if (!changes.isEmpty()) {
      throw new PreflightException("cannot resume " + resultsFile + ": the environment changed since the run began: "
          + String.join("; ", changes) + " (start a new run)");
    }
  }

  private static void compare(List<String> changes, String what, Environment then, Environment now,
      Function<Environment, String> field) {
    String before = field.apply(then);
    String after = field.apply(now);
    if (!Objects.equals(before, after)) {
      changes.add(what + " " + describe(before) + " → " + describe(after));
    }
  }

  private static String describe(String value) {
    return value == null || value.isEmpty() ? "(none)" : value;
  }

  private static String firstLine(String message) {
    return message == null ? "unreadable" : message.lines().findFirst().orElse(message);
  }
}
