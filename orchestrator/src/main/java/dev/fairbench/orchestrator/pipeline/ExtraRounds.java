package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.report.Quality;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which cells an extra round visits. After the rounds, a cell whose headline interval is still wider
 * than the trust threshold gets more runs, up to {@code --extra-rounds} more: a sequential
 * fixed-width interval (Chow and Robbins, 1965) — whether to go on depends on the interval's width
 * only, never on where the median lies, so a cell cannot be steered towards a figure. Cells that more
 * runs cannot make trustworthy (invalid, saturated, workers-mismatched, non-conformant, answers-differ) get none.
 *
 * <p>Every extra round also visits the calibration server's cells, and enough of the other cells that
 * it holds at least {@link #MIN_VISITS}: a round's effect is the median over the cells it visited, so
 * a round of one or two cells would take each of them as the measure of the machine and pull it to its
 * own median, narrowing its interval by construction. The anchors are the trusted cells nearest the
 * threshold (they gain most from a run more), and for a ladder cell its baseline's ladder cell, which its
 * overhead is read against round by round; a run with too few cells for that has no extra round. Extra visits are capped at a third of the rounds'
 * visits, so a noisy day costs at most a third more time than the rounds themselves.
 */
public final class ExtraRounds {
  /** Fewest cells an extra round visits, so its effect is not any one cell's; a run with fewer has none. */
  static final int MIN_VISITS = 6;
  /** The extra visits of a run stay within this share of its rounds' visits. */
  static final double BUDGET_SHARE = 1.0 / 3;

  private ExtraRounds() {}

  /** A cell of the run: its server's id, endpoint, kind and rate (as results.json names them). */
  public record Key(String server, String endpoint, CellKind kind, String rate) {
    static Key of(EntryResult entry, CellResult cell) {
      return new Key(entry.id(), cell.endpoint(), cell.kind(), cell.rate());
    }
  }

  /**
   * @param wide    cells whose interval is still wider than the threshold and that more runs can help
   * @param anchors cells visited beside them: the calibration's, then the trusted nearest the threshold
   */
  public record Choice(List<Key> wide, List<Key> anchors) {
    public int visits() {
      return wide.size() + anchors.size();
    }

    public List<Key> all() {
      List<Key> all = new ArrayList<>(wide);
      all.addAll(anchors);
      return all;
    }
  }

  /**
   * Seconds after the run began at which a round of {@code visits} begun now would end, at this run's
   * own cost of a visit so far, with {@code secondsBetween} more spent between them (the fresh processes of
   * --forks still to start).
   */
  public static double endsAtSeconds(java.time.Duration elapsed, double secondsPerVisit, int visits,
      double secondsBetween) {
    return elapsed.toMillis() / 1e3 + visits * secondsPerVisit + secondsBetween;
  }

  /**
   * A visit's cost so far: the time since the first visit, less the time spent apart from the visits, over the
   * visits made. Apart are the waits for slow spells, each allowed only when it fits the time limit on its own,
   * and the fresh processes of --forks (every server started again and warmed up), which come once a block of
   * rounds: in the cost of a visit either would be projected onto every visit left — a spell early in a run
   * would refuse the repeats of the quiet rounds after it, and a restart those of every round after it.
   */
  public static double secondsPerVisit(java.time.Duration sinceFirstVisit, double secondsApart, int visits) {
    return Math.max(0, sinceFirstVisit.toMillis() / 1e3 - secondsApart) / visits;
  }

  /** Most extra visits a run of {@code cells} cells in {@code rounds} rounds makes. */
  public static int visitBudget(int rounds, int cells) {
    return (int) Math.floor(rounds * cells * BUDGET_SHARE);
  }

  /** The next extra round's cells, from the run derived as it stands; no wide cell, no round. */
  public static Choice choose(ResultsDocument derived) {
    List<Key> wide = new ArrayList<>();
    Set<Key> anchors = new LinkedHashSet<>();
    List<Candidate> trusted = new ArrayList<>();
    for (EntryResult entry : derived.entries()) {
      for (CellResult cell : entry.cells()) {
        if (cell.status() != CellStatus.MEASURED || cell.stats() == null) {
          continue;
        }
        Key key = Key.of(entry, cell);
        if (entry.calibration()) {
          anchors.add(key);
        } else if (Quality.trustworthy(cell)) {
          trusted.add(new Candidate(key, Quality.halfWidth(cell)));
        } else if (moreRunsCanHelp(cell)) {
          wide.add(key);
        }
      }
    }
    if (wide.isEmpty()) {
      return new Choice(List.of(), List.of());
    }
    // A ladder cell is read as its overhead over its baseline's in the same round: the floor comes along.
    for (Key key : wide) {
      if (key.kind() == CellKind.LADDER) {
        floorOf(derived, key).filter(floor -> !wide.contains(floor)).ifPresent(anchors::add);
      }
    }
    trusted.sort(Comparator.comparingDouble(Candidate::halfWidth).reversed());
    for (Candidate c : trusted) {
      if (wide.size() + anchors.size() >= MIN_VISITS) {
        break;
      }
      anchors.add(c.key());
    }
    return new Choice(wide, List.copyOf(anchors));
  }

  /** Whether the round would visit enough cells for its effect to be the machine's, not one cell's. */
  public static boolean enough(Choice choice) {
    return choice.visits() >= MIN_VISITS;
  }

  /** The ladder cell of the same endpoint of the baseline the key's server stands on. */
  private static java.util.Optional<Key> floorOf(ResultsDocument derived, Key ladder) {
    java.util.Optional<String> baseline = derived.entries().stream().filter(e -> e.id().equals(ladder.server()))
        .map(EntryResult::standsOn).filter(b -> b != null && !b.isEmpty()).findFirst();
    return baseline.flatMap(b -> derived.entries().stream().filter(e -> e.id().equals(b)).flatMap(e -> e.cells().stream()
        .filter(c -> c.kind() == CellKind.LADDER && c.endpoint().equals(ladder.endpoint()))
        .map(c -> Key.of(e, c))).findFirst());
  }

  /**
   * An interval wider than the threshold, and nothing another run cannot change. A cell of a run with
   * too few rounds for an interval at all (few-runs) is left as the rounds chosen made it.
   */
  static boolean moreRunsCanHelp(CellResult cell) {
    List<Flag> flags = cell.flags();
    return flags.contains(Flag.WIDE_INTERVAL)
        && flags.stream().filter(f -> f != Flag.WIDE_INTERVAL).noneMatch(Quality.TRUST_BREAKERS::contains);
  }

  private record Candidate(Key key, double halfWidth) {}
}
