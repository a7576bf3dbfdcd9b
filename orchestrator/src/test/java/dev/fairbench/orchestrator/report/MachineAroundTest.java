package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.ProbePages;
import dev.fairbench.orchestrator.report.html.CompareHtml;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A comparison of two runs says how fast the machine itself was around each run's visits. */
class MachineAroundTest {
  /** Six runs of two entries' cell near 10,000 req/s; every visit read {@code hashing} MB/s and {@code memoryNs}. */
  private static ResultsDocument measuredRun(double hashing, Double memoryNs) {
    return derived(document(6, List.of(
        measured("one", "O", List.of(cell("json", runs(10_000, hashing, memoryNs))), conformance(0, List.of())),
        measured("two", "T", List.of(cell("json", runs(8_000, hashing, memoryNs))), conformance(0, List.of())))));
  }

  private static List<RunRecord> runs(double rps, double hashing, Double memoryNs) {
    return IntStream.rangeClosed(1, 6).mapToObj(r -> {
      RunRecord plain = run(r, rps * (1 + 0.01 * (r % 3)), 0.5, 0.99, 0);
      RunRecord.Speed speed = memoryNs == null ? new RunRecord.Speed(hashing, hashing, hashing, hashing)
          : new RunRecord.Speed(hashing, hashing, hashing, hashing, memoryNs, memoryNs);
      return plain.withDisturbance(plain.disturbance().withSpeed(speed));
    }).toList();
  }

  private static ResultsDocument withoutProbes(double rps) {
    return derived(document(6, List.of(measured("steady", "S", List.of(cell("json",
        IntStream.rangeClosed(1, 6).mapToObj(r -> run(r, rps + r, 0.5, 0.99, 0)).toList())),
        conformance(0, List.of())))));
  }

  @Test
  void theComparisonGivesEachSidesHashingAndMemoryLatencyAndTheirChange() {
    Comparison c = Comparison.of(measuredRun(400, 150.0), measuredRun(380, 180.0));

    assertThat(c.machine()).isNotNull();
    assertThat(c.toMarkdown()).contains("The machine around the visits")
        .contains("hashing on the server's CPUs 400 → 380 MB/s (-5.0%)")
        .contains("the memory's latency 150 → 180 ns a load (+20.0%)")
        .contains("No figure below is corrected by them");
    assertThat(CompareHtml.render(c, "a.json", "b.json")).contains("The machine around the visits");
  }

  @Test
  void aRunWithoutTheMemoryProbeShowsADashAndNoChange() {
    Comparison c = Comparison.of(measuredRun(400, null), measuredRun(400, 170.0));

    assertThat(c.toMarkdown()).contains("the memory's latency — → 170 ns a load.")
        .contains("hashing on the server's CPUs 400 → 400 MB/s (+0.0%)");
  }

  @Test
  void runsWithoutTheProbesSayNothingOfTheMachine() {
    Comparison c = Comparison.of(withoutProbes(10_000), withoutProbes(10_100));

    assertThat(c.machine()).isNull();
    assertThat(c.toMarkdown()).doesNotContain("The machine around the visits");
  }

  @Test
  void severalRunsASideAreListedRunByRunAndTheChangeIsBetweenTheMediansOfTheSides() {
    Comparison c = Comparison.of(List.of(measuredRun(400, 150.0)),
        List.of(measuredRun(380, 160.0), measuredRun(420, 170.0)), Comparison.DEFAULT_MIN_CHANGE,
        Comparison.DEFAULT_ALPHA, Comparison.Normalization.NONE);

    assertThat(c.toMarkdown()).contains("hashing on the server's CPUs 400 → 380, 420 MB/s (+0.0%)")
        .contains("the memory's latency 150 → 160, 170 ns a load (+10.0%)")
        .contains("a side's change is between the medians of its runs");
  }

  /** The same run, its memory probe said to have read on {@code pages}. */
  private static ResultsDocument onPages(ResultsDocument d, ProbePages pages) {
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(),
        d.method().withMemoryProbePages(pages), d.rounds(), d.calibration(), d.breaks(), d.entries());
  }

  @Test
  void memoryReadOnOtherPagesIsShownWithoutAChangeAndSaysWhy() {
    Comparison c = Comparison.of(onPages(measuredRun(400, 165.0), ProbePages.SMALL),
        onPages(measuredRun(400, 150.0), ProbePages.HUGE));

    assertThat(c.toMarkdown()).contains("the memory's latency 165 → 150 ns a load (read on 4 KiB → 2 MiB pages")
        .contains("no change is given")
        .doesNotContain("(-9.1%)");
  }

  @Test
  void aFileThatDoesNotSayWhichPagesIsNotTakenForEither() {
    Comparison c = Comparison.of(measuredRun(400, 165.0), onPages(measuredRun(400, 150.0), ProbePages.HUGE));

    assertThat(c.toMarkdown()).contains("(read on unrecorded → 2 MiB pages").doesNotContain("(-9.1%)");
  }

  @Test
  void memoryReadOnTheSamePagesKeepsItsChange() {
    Comparison c = Comparison.of(onPages(measuredRun(400, 150.0), ProbePages.HUGE),
        onPages(measuredRun(400, 165.0), ProbePages.HUGE));

    assertThat(c.toMarkdown()).contains("the memory's latency 150 → 165 ns a load (+10.0%)");
    assertThat(MachineSpeed.of(onPages(measuredRun(400, 150.0), ProbePages.HUGE)).orElseThrow().describe())
        .contains("through 64 MiB on 2 MiB pages on the client's CPUs");
  }

  @Test
  void twoEntriesOfOneRunSayNothingOfTheMachineTheyShared() {
    Comparison c = Comparison.withinRun(measuredRun(400, 150.0), "one", "two", Comparison.DEFAULT_MIN_CHANGE,
        Comparison.DEFAULT_ALPHA, Comparison.Normalization.NONE);

    assertThat(c.machine()).isNull();
    assertThat(c.toMarkdown()).doesNotContain("The machine around the visits");
  }
}
