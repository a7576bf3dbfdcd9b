package dev.fairbench.orchestrator.results;

import static dev.fairbench.orchestrator.report.ResultsFixtures.cell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.document;
import static dev.fairbench.orchestrator.report.ResultsFixtures.derived;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderCell;
import static dev.fairbench.orchestrator.report.ResultsFixtures.ladderRun;
import static dev.fairbench.orchestrator.report.ResultsFixtures.rung;
import static dev.fairbench.orchestrator.report.ResultsFixtures.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.core.CpuGauge;
import dev.fairbench.orchestrator.core.Role;
import dev.fairbench.orchestrator.stats.Interval;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class ClientGaugeTest {
  private static final int ROUNDS = 9;
  /** How much slower the machine ran in each round's visit: a slow spell of a few seconds lands on some visits. */
  private static final double[] SLOW = {1.00, 1.22, 1.03, 0.98, 1.30, 1.01, 0.97, 1.15, 1.02};

  @Test
  void aSlowSpellThatStretchesTheClientsCpuAsMuchAsTheServersIsTakenOutOfAConstantRateCell() {
    ResultsDocument gauged = derived(gauged(ladders(r -> SLOW[r], r -> SLOW[r]), CpuGauge.CLIENT));
    ResultsDocument plain = derived(gauged(ladders(r -> SLOW[r], r -> SLOW[r]), CpuGauge.NONE));

    assertThat(ClientGauge.of(gauged).slope()).isCloseTo(1, within(1e-9));
    CellStats withGauge = ladderStats(gauged, "a");
    CellStats without = ladderStats(plain, "a");
    assertThat(withGauge.cpuMicrosPerRequest()).as("the level of its usual run, at the median client speed 1.02")
        .isCloseTo(10 * 1.02, within(0.01));
    assertThat(share(withGauge.cpuInterval(), withGauge.cpuMicrosPerRequest())).isLessThan(0.005);
    assertThat(share(without.cpuInterval(), without.cpuMicrosPerRequest())).as("the spells widen it without the gauge")
        .isGreaterThan(0.05);
  }

  @Test
  void theServersOwnScatterWithTheClientsCpuUnchangedIsKept() {
    ResultsDocument gauged = derived(gauged(ladders(r -> SLOW[r], r -> 1.0), CpuGauge.CLIENT));
    ResultsDocument plain = derived(gauged(ladders(r -> SLOW[r], r -> 1.0), CpuGauge.NONE));

    assertThat(ClientGauge.of(gauged).slope()).isZero();
    assertThat(ladderStats(gauged, "a").cpuInterval()).isEqualTo(ladderStats(plain, "a").cpuInterval());
  }

  @Test
  void theSlopeIsKeptBetweenNoneAndAllOfTheClientsChange() {
    // The server's CPU stretching twice as much as the client's is the server's doing, not the machine's.
    assertThat(ClientGauge.of(gauged(ladders(r -> SLOW[r] * SLOW[r], r -> SLOW[r]), CpuGauge.CLIENT)).slope()).isEqualTo(1);
    assertThat(ClientGauge.of(gauged(ladders(r -> 1 / SLOW[r], r -> SLOW[r]), CpuGauge.CLIENT)).slope()).isZero();
    assertThat(ClientGauge.of(gauged(ladders(r -> Math.sqrt(SLOW[r]), r -> SLOW[r]), CpuGauge.CLIENT)).slope())
        .isCloseTo(0.5, within(0.01));
  }

  @Test
  void aRunAtItsCellsUsualClientSpeedIsLeftAsItIsSoEachCellKeepsItsLevel() {
    ResultsDocument document = gauged(ladders(r -> SLOW[r], r -> SLOW[r]), CpuGauge.CLIENT);
    ClientGauge gauge = ClientGauge.of(document);
    CellResult cell = ladderOf(document, "a");
    RunRecord usual = cell.countedRuns().get(8); // SLOW 1.02, the median of the nine
    assertThat(gauge.factor(cell, usual)).isEqualTo(1);
    assertThat(gauge.factor(cell, cell.countedRuns().get(4))).isCloseTo(1.30 / 1.02, within(1e-9));
  }

  @Test
  void runsMadeWithoutTheGaugeAreReadAsBefore() {
    ResultsDocument document = gauged(ladders(r -> SLOW[r], r -> SLOW[r]), null);
    assertThat(ClientGauge.of(document)).isEqualTo(ClientGauge.NONE);
    CellResult cell = ladderOf(document, "a");
    RoundEffects effects = RoundEffects.of(document);
    for (RunRecord run : cell.countedRuns()) {
      assertThat(effects.cpuPerRequest(cell, run))
          .isEqualTo(Statistics.cpuMicrosPerRequest(run.serverCpuSeconds(), run.requests()) / effects.cpu(run.round()));
    }
  }

  @Test
  void aThroughputCellIsNotGauged() {
    ResultsDocument document = gauged(ladders(r -> SLOW[r], r -> SLOW[r]), CpuGauge.CLIENT);
    CellResult throughput = document.entries().getFirst().cells().stream()
        .filter(c -> !c.kind().constantRate()).findFirst().orElseThrow();
    ClientGauge gauge = ClientGauge.of(document);
    assertThat(gauge.active()).isTrue();
    throughput.countedRuns().forEach(run -> assertThat(gauge.factor(throughput, run)).isEqualTo(1));
  }

  @Test
  void fewerThanThreeConstantRateCellsGiveNoSlope() {
    List<EntryResult> two = ladders(r -> SLOW[r], r -> SLOW[r]).subList(0, 2);
    ClientGauge gauge = ClientGauge.of(gauged(two, CpuGauge.CLIENT));
    assertThat(gauge.slope()).isZero();
    assertThat(gauge.cells()).isEqualTo(2);
  }

  /** Three ladder rungs (10, 20 and 40 CPU-µs/request), each also with a throughput cell; round r's visit slowed so. */
  private static List<EntryResult> ladders(IntToDoubleFunction server, IntToDoubleFunction client) {
    List<EntryResult> entries = new ArrayList<>();
    String[] ids = {"a", "b", "c"};
    for (int i = 0; i < ids.length; i++) {
      double cpu = 10 * Math.pow(2, i);
      List<RunRecord> runs = new ArrayList<>();
      for (int r = 0; r < ROUNDS; r++) {
        runs.add(ladderRun(r + 1, 1000, cpu * server.applyAsDouble(r), 5 * client.applyAsDouble(r)));
      }
      entries.add(rung(ids[i], i == 0 ? Role.BASELINE : Role.ENTRY, i == 0 ? "" : "a",
          List.of(cell("json", runs(50_000, 51_000, 49_000, 50_500, 50_200, 49_800, 50_100, 50_300, 49_900)),
              ladderCell("json", runs))));
    }
    return entries;
  }

  private static ResultsDocument gauged(List<EntryResult> entries, CpuGauge gauge) {
    ResultsDocument d = document(ROUNDS, entries);
    ResultsDocument.Method m = d.method();
    return new ResultsDocument(d.schemaVersion(), d.methodVersion(), d.environment(),
        new ResultsDocument.Method(m.kind(), m.rounds(), m.extraRounds(), m.seed(), m.rewarmSeconds(), m.rates(),
            m.disturbanceThreshold(), m.pipeline(), m.keepAlive(), m.ladderShare(), m.ladderEndpoints(),
            m.wakeupThreshold(), m.spellWaitSeconds(), m.ladderDurationSeconds(), m.ladderRate(), m.forks(), gauge),
        d.rounds(), d.calibration(), d.breaks(), d.entries());
  }

  private static CellResult ladderOf(ResultsDocument document, String id) {
    return document.entries().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow().cells().stream()
        .filter(c -> c.kind().constantRate()).findFirst().orElseThrow();
  }

  private static CellStats ladderStats(ResultsDocument document, String id) {
    return ladderOf(document, id).stats();
  }

  private static double share(Interval interval, double median) {
    return interval.halfWidthShareOf(median);
  }
}
