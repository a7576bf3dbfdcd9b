package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Invocation;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * compare's operating point, checked on the project's own evidence rather than on synthetic runs: pairs of committed
 * default runs made on one machine (an Intel VM, 2026-12-05 21:17 to 2026-12-06 08:15) with the same code, and pairs
 * with py-fastapi handicapped by about 10% on one side (scripts/plant-handicap), one run a side and several. The
 * figures are what results/method-check/2026-12-06-0949/README.md reports; a change to compare that makes it call more
 * changes that are not there, or find fewer that are, fails here.
 */
class CommittedPairsTest {
  private static final String CHECKS = "results/method-check/";
  private static final String REFERENCE = "results/reference-2026-12-06-0017";
  private static final String R2117 = "results/reference-2026-12-05-2117";
  private static final String A2 = CHECKS + "2026-12-06/a2";
  private static final String B = CHECKS + "2026-12-06-0359/b";
  private static final String C = CHECKS + "2026-12-06-0359/c";
  private static final String D = CHECKS + "2026-12-06-0710/d";

  /** Same code, one machine: every change in these is one that is not there. */
  private static final List<List<String>> SAME_CODE = List.of(List.of(REFERENCE, B), List.of(REFERENCE, C), List.of(B, C),
      List.of(REFERENCE, A2), List.of(A2, B), List.of(A2, C), List.of(R2117, REFERENCE), List.of(C, D), List.of(B, D),
      List.of(REFERENCE, D));

  /** py-fastapi handicapped on one side (its recorded sources differ); everything else the same code. */
  private static final List<List<String>> HANDICAP = List.of(List.of(B, CHECKS + "2026-12-06-0359/h"),
      List.of(C, CHECKS + "2026-12-06-0359/h"), List.of(REFERENCE, CHECKS + "2026-12-06/h-held"),
      List.of(A2, CHECKS + "2026-12-06/h-held"), List.of(R2117, CHECKS + "2026-12-05-2117/h-gauge"),
      List.of(CHECKS + "2026-12-05-1407/h-handicap", "results/reference-2026-12-05-1407"),
      List.of(CHECKS + "2026-12-05-1728/a-forks", CHECKS + "2026-12-05-1728/h-forks"),
      List.of(D, CHECKS + "2026-12-06-0710/h"), List.of(C, CHECKS + "2026-12-06-0710/h"),
      List.of(B, CHECKS + "2026-12-06-0710/h"));

  private static final String H_HELD = CHECKS + "2026-12-06/h-held";
  private static final String H3 = CHECKS + "2026-12-06-0359/h";
  private static final String H7 = CHECKS + "2026-12-06-0710/h";

  /** Several runs a side of the same code: before, after. */
  private static final List<List<List<String>>> SAME_CODE_SEVERAL = List.of(
      List.of(List.of(R2117, REFERENCE, A2), List.of(B, C)), List.of(List.of(REFERENCE, A2, B), List.of(C)),
      List.of(List.of(A2, B, C), List.of(D)), List.of(List.of(REFERENCE, A2), List.of(B, C)),
      List.of(List.of(B, C), List.of(REFERENCE, A2, D)), List.of(List.of(REFERENCE, B, C), List.of(A2)));

  /** Several runs a side, py-fastapi handicapped after. */
  private static final List<List<List<String>>> HANDICAP_SEVERAL = List.of(
      List.of(List.of(REFERENCE, A2, B, C), List.of(H3)), List.of(List.of(A2, B, C), List.of(H_HELD, H3)),
      List.of(List.of(REFERENCE, A2), List.of(H_HELD)), List.of(List.of(B, C, D), List.of(H7)),
      List.of(List.of(R2117, REFERENCE), List.of(CHECKS + "2026-12-05-2117/h-gauge")),
      List.of(List.of(REFERENCE, A2, B, C, D), List.of(H_HELD, H3, H7)));

  private final Map<String, ResultsDocument> runs = new HashMap<>();

  private ResultsDocument run(String folder) {
    return runs.computeIfAbsent(folder, f -> {
      try {
        return ResultsJson.read(Path.of("..", f, "results.json"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static Comparison compare(ResultsDocument before, ResultsDocument after) {
    return Comparison.of(before, after, 0.05, 0.05, Comparison.Normalization.CALIBRATION);
  }

  private Comparison compareSeveral(List<List<String>> sides) {
    return Comparison.of(sides.get(0).stream().map(this::run).toList(), sides.get(1).stream().map(this::run).toList(),
        0.05, 0.05, Comparison.Normalization.CALIBRATION);
  }

  /** The run with {@code entry}'s recorded sources altered, as a change to that entry would have them. */
  private static ResultsDocument markedChanged(ResultsDocument d, String entry) {
    Invocation i = d.invocation();
    Map<String, String> sources = new HashMap<>(i.sources());
    sources.put(entry, "sha256:marked-changed");
    Map<String, String> code = new HashMap<>(i.code());
    if (code.containsKey(entry)) {
      code.put(entry, "sha256:marked-changed");
    }
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(), d.method(), d.rounds(),
        d.calibration(), d.breaks(), d.entries(), new Invocation(i.config(), i.selectors(), i.baselines(), i.impls(),
            i.runtime(), i.serverHost(), i.serverAddress(), i.clientHost(), sources, code));
  }

  @Test
  void aChangeToOneEntryThatIsNotThereIsCalledInAtMostOneEntryInTwentyOfTheSameCodePairs() {
    int entries = 0;
    List<String> called = new ArrayList<>();
    for (List<String> pair : SAME_CODE) {
      ResultsDocument before = run(pair.get(0));
      ResultsDocument after = run(pair.get(1));
      for (EntryResult entry : after.entries()) {
        if (entry.status() != EntryStatus.MEASURED || entry.calibration()) {
          continue;
        }
        entries++;
        Comparison c = compare(before, markedChanged(after, entry.id()));
        assertThat(c.betweenRuns().changedSources()).containsExactly(entry.id());
        if (c.rows().stream().anyMatch(r -> r.entry().equals(entry.id()) && r.verdict() == Comparison.Verdict.SIGNIFICANT)) {
          called.add(pair.get(0) + " → " + pair.get(1) + ": " + entry.id());
        }
      }
    }
    assertThat(entries).isEqualTo(170);
    assertThat(called).as("entries whose change that is not there was called significant")
        .hasSizeLessThanOrEqualTo(entries / 20);
  }

  @Test
  void aPlantedTenPercentHandicapIsFoundOnAboutAQuarterOfItsCellsWithOneRunASide() {
    int cells = 0;
    int found = 0;
    for (List<String> pair : HANDICAP) {
      Comparison c = compare(run(pair.get(0)), run(pair.get(1)));
      assertThat(c.betweenRuns().changedSources()).as("%s", pair).containsExactly("py-fastapi");
      List<Comparison.Row> handicapped = c.rows().stream().filter(r -> r.entry().equals("py-fastapi")).toList();
      cells += handicapped.size();
      found += (int) handicapped.stream().filter(r -> r.verdict() == Comparison.Verdict.SIGNIFICANT).count();
    }
    assertThat(cells).isEqualTo(50);
    assertThat(found).isGreaterThanOrEqualTo(12);
  }

  @Test
  void severalRunsASideOfTheSameCodeCallNoCellSignificant() {
    for (List<List<String>> sides : SAME_CODE_SEVERAL) {
      Comparison c = compareSeveral(sides);
      assertThat(c.betweenRuns().repeated()).isTrue();
      assertThat(c.rows()).as("%s", sides).noneMatch(r -> r.verdict() == Comparison.Verdict.SIGNIFICANT);
    }
  }

  @Test
  void severalRunsASideFindThePlantedHandicapOnSomeOfItsCellsAndNoOtherCell() {
    int found = 0;
    int others = 0;
    for (List<List<String>> sides : HANDICAP_SEVERAL) {
      Comparison c = compareSeveral(sides);
      assertThat(c.betweenRuns().changedSources()).as("%s", sides).containsExactly("py-fastapi");
      found += (int) c.rows().stream()
          .filter(r -> r.entry().equals("py-fastapi") && r.verdict() == Comparison.Verdict.SIGNIFICANT).count();
      others += (int) c.rows().stream()
          .filter(r -> !r.entry().equals("py-fastapi") && r.verdict() == Comparison.Verdict.SIGNIFICANT).count();
    }
    assertThat(found).isGreaterThanOrEqualTo(2);
    assertThat(others).isZero();
  }
}
