package dev.fairbench.orchestrator.report;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.environment;
import static dev.fairbench.orchestrator.report.ResultsFixtures.measured;
import static dev.fairbench.orchestrator.report.ResultsFixtures.run;
import static dev.fairbench.orchestrator.report.ResultsFixtures.runs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.CellStatus;
import dev.fairbench.orchestrator.core.Flag;
import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.core.WorkerObservation;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QualityTest {
  /** The cell as the pipeline derives it. */
  private static CellResult derived(CellResult cell) {
    return ResultsFixtures.derived(document(9, List.of(measured("e", "E", List.of(cell), null))))
        .entries().getFirst().cells().getFirst();
  }

  private static List<RunRecord> steady(double clientUtilisation, double serverUtilisation, long errors) {
    return IntStream.range(0, 9).mapToObj(i -> run(i + 1, 10_000 + 20 * (i % 3), clientUtilisation, serverUtilisation,
        errors)).toList();
  }

  @Test
  void aCellOfNineTightRunsIsTrustworthy() {
    CellResult c = derived(cell("json", steady(0.5, 0.99, 0)));
    assertThat(c.flags()).isEmpty();
    assertThat(Quality.trustworthy(c)).isTrue();
    assertThat(c.stats().requestsPerSecondInterval()).isNotNull();
  }

  private static CellResult answering(int answerBytes, List<RunRecord> runs) {
    return ResultsFixtures.answered(cell("json", runs), answerBytes);
  }

  /** Nine runs at {@code rps}, the server busy {@code serverShare} of its CPU: CPU-µs/request = serverShare ÷ rps × 1e6. */
  private static CellResult atCpu(double rps, double serverShare) {
    return cell("plaintext", IntStream.rangeClosed(1, 9).mapToObj(r -> run(r, rps, 0.5, serverShare, 0)).toList());
  }

  @Test
  void aServerUsingUnderHalfTheCalibrationsCpuPerRequestHadWorkUncountedAndIsNotTrustworthy() {
    var document = ResultsFixtures.derived(document(9, List.of(
        ResultsFixtures.entry("nginx", "nginx", dev.fairbench.orchestrator.core.Role.CALIBRATION,
            List.of(atCpu(50_000, 0.99)), null),
        measured("honest", "H", List.of(atCpu(40_000, 0.99)), null),
        measured("elsewhere", "E", List.of(atCpu(40_000, 0.30)), null))));
    CellResult honest = document.entries().get(1).cells().getFirst();
    CellResult elsewhere = document.entries().get(2).cells().getFirst();

    assertThat(honest.stats().toCalibration().cpuMicrosPerRequest()).isCloseTo(1.25, org.assertj.core.data.Offset.offset(0.01));
    assertThat(honest.flags()).doesNotContain(Flag.CPU_BELOW_FLOOR);
    assertThat(elsewhere.stats().toCalibration().cpuMicrosPerRequest()).isCloseTo(0.379, org.assertj.core.data.Offset.offset(0.01));
    assertThat(elsewhere.flags()).contains(Flag.CPU_BELOW_FLOOR);
    assertThat(Quality.trustworthy(elsewhere)).isFalse();
    assertThat(Quality.doubts(elsewhere, null)).extracting(Quality.Doubt::text).anyMatch(t -> t.startsWith(
        "CPU below the floor: 7.50 CPU-µs a request, 0.38× the calibration server's"));
  }

  @Test
  void answersUnderLoadShorterThanTheCheckedAnswerAreNotTheSameWorkAndNotTrustworthy() {
    CellResult c = derived(answering(133, steady(0.5, 0.99, 0)));
    assertThat(c.flags()).containsExactly(Flag.ANSWERS_DIFFER);
    assertThat(Quality.trustworthy(c)).isFalse();
    assertThat(Quality.doubts(c, null)).extracting(Quality.Doubt::text).singleElement().asString()
        .startsWith("answers differ: round ").contains("read 120.0 bytes an answer").contains("is 133 bytes");
  }

  @Test
  void answersUnderLoadOfTheCheckedSizeAreTheSameWork() {
    assertThat(derived(answering(120, steady(0.5, 0.99, 0))).flags()).isEmpty();
  }

  @Test
  void theAnswersInFlightWhenTheClientStoppedMayAddOneAnswerPerConnectionNoMore() {
    // 1,000 answers a run over 64 connections: up to 64 answers more may have been read, 6.4% on top of 2%.
    List<RunRecord> slow = IntStream.range(0, 9).mapToObj(i -> run(i + 1, 500, 0.5, 0.99, 0)).toList();
    assertThat(derived(answering(115, slow)).flags()).doesNotContain(Flag.ANSWERS_DIFFER);
    assertThat(derived(answering(110, slow)).flags()).contains(Flag.ANSWERS_DIFFER);
  }

  /** A rate cell of 9 runs at 1,000 req/s whose answers' bodies were {@code bodyBytes} each, as oha counts. */
  private static CellResult rateCellOfBodies(long bodyBytes, int answerBytes) {
    List<RunRecord> runs = IntStream.range(0, 9).mapToObj(i -> ResultsFixtures.ladderRun(i + 1, 1_000, 50))
        .map(r -> new RunRecord(r.round(), r.visit(), r.counted(), r.requests(), r.durationSeconds(),
            r.requestsPerSecond(), r.requests() * bodyBytes, r.non2xx(), r.socketErrors(), r.latencyMicros(),
            r.serverCpuSeconds(), r.serverPeakRssBytes(), r.serverMemoryPeakBytes(), r.clientCpuSeconds(),
            r.clientCpuUtilisation(), r.disturbance(), r.rate()))
        .toList();
    return ResultsFixtures.answered(new CellResult("json", CellKind.RATE, "1000", CellStatus.MEASURED, "", runs, null,
        null, List.of()), answerBytes);
  }

  @Test
  void aRateCellIsJudgedOnTheBodiesOhaCountsAgainstTheCheckedBody() {
    assertThat(derived(rateCellOfBodies(27, 27)).flags()).doesNotContain(Flag.ANSWERS_DIFFER);
    CellResult shorter = derived(rateCellOfBodies(19, 27));
    assertThat(shorter.flags()).contains(Flag.ANSWERS_DIFFER);
    assertThat(Quality.doubts(shorter, null)).extracting(Quality.Doubt::text)
        .anySatisfy(text -> assertThat(text).startsWith("answers differ: round ")
            .contains("read 19.0 body bytes an answer").contains("is 27 body bytes"));
  }

  @Test
  void aRateCellsAnswersAreWholeSoNoAnswerInFlightIsAllowedFor() {
    // 2,000 answers a run: a throughput cell over 64 connections could read 3.2% more; oha counts whole answers only.
    assertThat(derived(rateCellOfBodies(27, 26)).flags()).contains(Flag.ANSWERS_DIFFER);
  }

  @Test
  void aCellWithNoAnswerCheckedIsNotJudgedOnItsAnswers() {
    assertThat(derived(cell("json", steady(0.5, 0.99, 0))).answerBytes()).isNull();
    assertThat(derived(cell("json", steady(0.5, 0.99, 0))).flags()).isEmpty();
  }

  @Test
  void fewerThanSixRunsHaveNoIntervalAndAreNotTrustworthy() {
    CellResult c = derived(cell("json", runs(10_000, 10_010, 10_005, 10_002, 10_001)));
    assertThat(c.flags()).containsExactly(Flag.FEW_RUNS);
    assertThat(c.stats().requestsPerSecondInterval()).isNull();
    assertThat(Quality.trustworthy(c)).isFalse();
  }

  @Test
  void anIntervalWiderThanFivePercentOfTheMedianIsNotTrustworthy() {
    CellResult c = derived(cell("json", runs(10_000, 12_000, 9_000, 11_500, 8_600, 10_400, 9_400, 12_500, 8_000)));
    assertThat(c.flags()).containsExactly(Flag.WIDE_INTERVAL);
    assertThat(Quality.trustworthy(c)).isFalse();
  }

  @Test
  void oneOutlierOnEachSideLeavesNineRunsTrustworthy() {
    CellResult c = derived(cell("json", runs(10_000, 10_020, 16_600, 10_010, 10_030, 10_000, 10_040, 3_000, 10_020)));
    assertThat(Quality.trustworthy(c)).isTrue();
  }

  @Test
  void aClientAtItsWallWhileTheServerHasRoomIsClientBoundAndJudgedOnCpuPerRequest() {
    CellResult c = derived(cell("plaintext", steady(0.97, 0.70, 0)));
    assertThat(c.flags()).containsExactly(Flag.CLIENT_BOUND);
    assertThat(Quality.headline(c)).isEqualTo("CPU-µs/req");
    assertThat(Quality.trustworthy(c)).isTrue();
  }

  @Test
  void aBusyClientBesideASaturatedServerIsNotClientBound() {
    CellResult c = derived(cell("plaintext", steady(0.97, 0.99, 0)));
    assertThat(c.flags()).doesNotContain(Flag.CLIENT_BOUND);
  }

  @Test
  void moreThanOneErrorPerThousandRequestsMakesTheCellInvalid() {
    CellResult c = derived(cell("json", steady(0.5, 0.99, 60)));
    assertThat(c.flags()).containsExactly(Flag.INVALID);
    assertThat(Quality.trustworthy(c)).isFalse();
  }

  @Test
  void workersSeenUnlikeThoseRequestedAreNotTrustworthy() {
    CellResult c = cell("json", steady(0.5, 0.99, 0));
    CellResult mismatched = new CellResult(c.endpoint(), c.kind(), c.rate(), c.status(), c.reason(), c.runs(), null,
        new WorkerObservation("processes", 2, 1, 2, 1, 4, 1, false), List.of());
    CellResult d = derived(mismatched);
    assertThat(d.flags()).containsExactly(Flag.WORKERS_MISMATCH);
    assertThat(Quality.doubts(d, environment())).singleElement()
        .satisfies(doubt -> assertThat(doubt.text()).contains("2 requested, 1 processes"));
  }

  @Test
  void aLatencyThatDisagreesWithLittlesLawIsADoubtButNotATrustBreaker() {
    List<RunRecord> slow = steady(0.5, 0.99, 0).stream().map(r -> new RunRecord(r.round(), 1, true, r.requests(),
        r.durationSeconds(), r.requestsPerSecond(), r.bytes(), r.non2xx(), r.socketErrors(),
        new RunRecord.LatencyRecord(800, 1200, 2500, 4000, 9000, 20_000), r.serverCpuSeconds(), r.serverPeakRssBytes(),
        r.serverMemoryPeakBytes(), r.clientCpuSeconds(), r.clientCpuUtilisation(), r.disturbance(), null)).toList();
    CellResult c = derived(cell("json", slow));
    assertThat(c.flags()).containsExactly(Flag.LITTLES_LAW);
    assertThat(Quality.trustworthy(c)).isTrue();
  }

  @Test
  void runsWithoutLatencyFiguresGiveACellWithoutLatencyAndWithoutALittlesLawCheck() {
    List<RunRecord> pipelined = steady(0.5, 0.99, 0).stream().map(r -> new RunRecord(r.round(), 1, true, r.requests(),
        r.durationSeconds(), r.requestsPerSecond(), r.bytes(), r.non2xx(), r.socketErrors(), null, r.serverCpuSeconds(),
        r.serverPeakRssBytes(), r.serverMemoryPeakBytes(), r.clientCpuSeconds(), r.clientCpuUtilisation(),
        r.disturbance(), null)).toList();
    CellResult c = derived(cell("json", pipelined));
    assertThat(c.stats().p50Micros()).isNull();
    assertThat(c.stats().p99Micros()).isNull();
    assertThat(c.stats().p999Micros()).isNull();
    assertThat(c.stats().littlesLaw()).isNaN();
    assertThat(c.flags()).isEmpty();
    assertThat(Quality.trustworthy(c)).isTrue();
  }

  @Test
  void aDisturbedVisitThatWasRepeatedIsLeftOutOfTheStatistics() {
    List<RunRecord> runs = new java.util.ArrayList<>(steady(0.5, 0.99, 0));
    RunRecord outlier = run(3, 1_000, 0.5, 0.99, 0);
    runs.add(new RunRecord(3, 1, false, outlier.requests(), outlier.durationSeconds(), outlier.requestsPerSecond(),
        outlier.bytes(), 0, outlier.socketErrors(), outlier.latencyMicros(), outlier.serverCpuSeconds(),
        outlier.serverPeakRssBytes(), outlier.serverMemoryPeakBytes(), outlier.clientCpuSeconds(),
        outlier.clientCpuUtilisation(), new RunRecord.Disturbance(0.5, 0.2, 0.3, 10, 0, 0.35, true), null));
    CellResult c = derived(cell("json", runs));
    assertThat(c.stats().runs()).isEqualTo(9);
    assertThat(c.stats().minRequestsPerSecond()).isGreaterThan(9_000);
    assertThat(c.runs()).hasSize(10);
  }

  @Test
  void aRoundTheWholeMachineWasSlowInIsTakenOutOfEveryCell() {
    // Four cells, nine rounds, every cell 20% slower in round 5 and otherwise within 0.5%.
    java.util.function.IntFunction<List<RunRecord>> runs = base -> IntStream.range(0, 9)
        .mapToObj(i -> run(i + 1, base * (i == 4 ? 0.8 : 1 + 0.005 * ((i * 7) % 3 - 1)), 0.5, 0.99, 0)).toList();
    var doc = ResultsFixtures.derived(document(9, List.of(
        measured("a", "A", List.of(cell("json", runs.apply(10_000)), cell("plaintext", runs.apply(12_000))), null),
        measured("b", "B", List.of(cell("json", runs.apply(5_000)), cell("plaintext", runs.apply(6_000))), null))));
    CellResult c = doc.entries().getFirst().cells().getFirst();
    assertThat(c.stats().minRequestsPerSecond()).as("the raw runs are kept").isEqualTo(8_000);
    assertThat(c.stats().requestsPerSecondInterval().halfWidthShareOf(c.stats().medianRequestsPerSecond()))
        .as("the interval of the round-adjusted runs").isLessThan(0.01);
    assertThat(doc.rounds().get(4).factor()).isCloseTo(Math.log(0.8), org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void aCellThatWasNotMeasuredSaysWhy() {
    CellResult failed = new CellResult("json", CellKind.THROUGHPUT, "", CellStatus.FAILED, "correctness check: got 500",
        List.of(), null, null, List.of());
    assertThat(Quality.doubts(failed, environment())).singleElement()
        .satisfies(d -> assertThat(d.text()).isEqualTo("not measured: correctness check: got 500"));
    assertThat(Quality.trustworthy(failed)).isFalse();
  }

  /** A constant-rate run of 10 s at 5,000 req/s in which {@code unsent} requests were never sent. */
  private static RunRecord rateRun(int round, long unsent) {
    long scheduled = 50_000;
    long ok = scheduled - unsent;
    return new RunRecord(round, 1, true, ok, 10, ok / 10.0, 0, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(300, 400, 700, 900, 1200, 320), ok * 50e-6, 40L << 20, 60L << 20, 0.2, 0.1,
        RunRecord.Disturbance.NONE, new RunRecord.RateRecord(5000, scheduled, ok, ok, java.util.Map.of("200", ok),
            java.util.Map.of(), unsent, false, (double) ok / scheduled, ok / 10.0));
  }

  @Test
  void aRateCellsSuccessCountsEveryScheduledRequestOfEveryRoundNotTheMedianRound() {
    CellResult cell = derived(new CellResult("json", CellKind.RATE, "5000", CellStatus.MEASURED, "",
        List.of(rateRun(1, 776), rateRun(2, 5), rateRun(3, 4)), null, null, List.of()));
    // each run's last 10 ms (50 slots at 5,000 req/s) are the client's: 50 + 5 + 4 of the 785 unsent
    assertThat(cell.stats().rate().cutAtDeadline()).isEqualTo(59);
    assertThat(cell.stats().rate().unsent()).isEqualTo(726);
    assertThat(cell.stats().rate().successRate())
        .isCloseTo(1 - 726 / (150_000.0 - 59), org.assertj.core.api.Assertions.within(1e-12));
    assertThat(cell.flags()).as("99.48%% is below 99.9%%").contains(Flag.INVALID);
  }
}
