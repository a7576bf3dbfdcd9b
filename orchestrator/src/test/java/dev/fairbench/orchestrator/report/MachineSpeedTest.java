package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.conformance;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MachineSpeedTest {
  /** Six rounds; the server side reads 400 MB/s in odd rounds and 250 in even ones, the client 300 throughout. */
  private static ResultsDocument withSpeeds(boolean recorded) {
    List<RunRecord> runs = IntStream.rangeClosed(1, 6).mapToObj(r -> {
      RunRecord plain = run(r, 10_000, 0.5, 0.99, 0);
      double server = r % 2 == 1 ? 400 : 250;
      return recorded ? plain.withDisturbance(plain.disturbance().withSpeed(new RunRecord.Speed(server, server, 300, -1)))
          : plain;
    }).toList();
    return derived(document(6, List.of(measured("steady", "S", List.of(cell("json", runs)), conformance(0, List.of())))));
  }

  @Test
  void summarisesEveryValidReadingOfTheRunAndOfEachRound() {
    MachineSpeed all = MachineSpeed.of(withSpeeds(true)).orElseThrow();
    assertThat(all.visits()).isEqualTo(6);
    assertThat(all.server().min()).isEqualTo(250);
    assertThat(all.server().max()).isEqualTo(400);
    assertThat(all.server().cv()).isGreaterThan(0.2);
    assertThat(all.client().median()).isEqualTo(300);
    assertThat(all.client().cv()).isCloseTo(0, within(1e-9));
    assertThat(MachineSpeed.ofRound(withSpeeds(true), 2).orElseThrow().brief()).isEqualTo("server 250 (250–250); client 300 (300–300)");
  }

  @Test
  void theFairnessReviewGivesTheWakeupsAndHowManyVisitsReadSlow() {
    List<RunRecord> runs = IntStream.rangeClosed(1, 6).mapToObj(r -> {
      RunRecord plain = run(r, 10_000, 0.5, 0.99, 0);
      RunRecord.Disturbance d = plain.disturbance().withSpeed(new RunRecord.Speed(300, 300, 300, 300))
          .withWakeups(RunRecord.Wakeups.judged(r == 3 ? 20_000 : 30_000, 30_000, 30_000, 0.8));
      return plain.withDisturbance(d);
    }).toList();
    ResultsDocument run = derived(document(6, List.of(measured("steady", "S", List.of(cell("json", runs)),
        conformance(0, List.of())))));
    MachineSpeed speed = MachineSpeed.of(run).orElseThrow();
    assertThat(speed.wakeups().slowVisits()).isEqualTo(1);
    assertThat(speed.wakeups().readings().min()).isEqualTo(20_000);
    assertThat(FairnessReview.of(run).toMarkdown()).contains("Cross-CPU wake-ups at the same moments")
        .contains("30,000 round trips/s (20,000–30,000, CV").contains("1 of the visits read below");
    assertThat(FairnessReview.of(run).toMarkdown()).as("no visit waited").doesNotContain("waited");
    assertThat(MachineSpeed.of(withSpeeds(true)).orElseThrow().wakeups()).as("a run without wake-ups").isNull();
    assertThat(FairnessReview.of(withSpeeds(true)).toMarkdown()).doesNotContain("wake-ups");
  }

  @Test
  void theFairnessReviewSaysHowManyVisitsWaitedForASpellToPassAndHowLong() {
    List<RunRecord> runs = IntStream.rangeClosed(1, 6).mapToObj(r -> {
      RunRecord plain = run(r, 10_000, 0.5, 0.99, 0);
      RunRecord.Disturbance d = plain.disturbance().withSpeed(new RunRecord.Speed(300, 300, 300, 300))
          .withWakeups(RunRecord.Wakeups.judged(30_000, 30_000, 30_000, 0.8).afterWaiting(r == 2 ? 4.5 : r == 5 ? 12.0 : 0));
      return plain.withDisturbance(d);
    }).toList();
    ResultsDocument run = derived(document(6, List.of(measured("steady", "S", List.of(cell("json", runs)),
        conformance(0, List.of())))));
    MachineSpeed speed = MachineSpeed.of(run).orElseThrow();
    assertThat(speed.wakeups().waitedVisits()).isEqualTo(2);
    assertThat(speed.wakeups().waitedSeconds()).isCloseTo(16.5, within(1e-9));
    assertThat(FairnessReview.of(run).toMarkdown()).contains("2 visits waited before their thaw for a spell to pass, 17 s in all.");
  }

  @Test
  void theFairnessReviewGivesTheMemorysLatencyWhereTheRunReadIt() {
    List<RunRecord> runs = IntStream.rangeClosed(1, 6).mapToObj(r -> {
      RunRecord plain = run(r, 10_000, 0.5, 0.99, 0);
      return plain.withDisturbance(plain.disturbance().withSpeed(new RunRecord.Speed(300, 300, 300, 300,
          r == 4 ? 180.0 : 150.0, r == 2 ? -1.0 : 150.0)));
    }).toList();
    ResultsDocument run = derived(document(6, List.of(measured("steady", "S", List.of(cell("json", runs)),
        conformance(0, List.of())))));
    MachineSpeed speed = MachineSpeed.of(run).orElseThrow();
    assertThat(speed.memory().max()).as("a failed reading (-1) is left out").isEqualTo(180);
    assertThat(speed.memory().min()).isEqualTo(150);
    assertThat(FairnessReview.of(run).toMarkdown()).contains("The memory's latency at the same moments")
        .contains("150 ns a load (150–180, CV");
    assertThat(MachineSpeed.of(withSpeeds(true)).orElseThrow().memory()).as("a run without it").isNull();
    assertThat(FairnessReview.of(withSpeeds(true)).toMarkdown()).doesNotContain("memory's latency");
  }

  @Test
  void aRunWithoutReadingsHasNoSummaryAndItsReportsSayNothingOfIt() {
    ResultsDocument old = withSpeeds(false);
    assertThat(MachineSpeed.of(old)).isEmpty();
    assertThat(FairnessReview.of(old).toMarkdown()).doesNotContain("own speed");
    assertThat(MarkdownReport.render(old)).doesNotContain("Speed around visits").doesNotContain("speed around visits")
        .contains("| Round | Started | Visits | Repeated (disturbed) | CPU probe | Round effect (log) |");
    assertThat(dev.fairbench.orchestrator.report.html.HtmlReport.render(old, FairnessReview.of(old)))
        .doesNotContain("speed around visits");
  }

  @Test
  void theFairnessReviewAndTheRoundsTableShowTheMachinesSpeed() {
    ResultsDocument run = withSpeeds(true);
    assertThat(FairnessReview.of(run).toMarkdown())
        .contains("The machine's own speed around the 6 visits")
        .contains("on the server's CPUs 325 MB/s (250–400, CV");
    assertThat(MarkdownReport.render(run)).contains("| Speed around visits MB/s |")
        .contains("server 400 (400–400); client 300 (300–300)");
  }
}
