package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.results.CellStats.RssTrend;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.RssSample;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

class RssTrendsTest {
  static final long MIB = 1 << 20;

  /** One sample a second for {@code seconds} seconds. */
  static List<RssSample> samples(int seconds, IntToLongFunction bytesAt) {
    List<RssSample> out = new ArrayList<>();
    for (int t = 0; t <= seconds; t++) {
      out.add(new RssSample(t + 0.01, bytesAt.applyAsLong(t)));
    }
    return out;
  }

  static RunRecord run(int round, List<RssSample> samples) {
    return new RunRecord(round, 1, true, 1000, 600, 800, 0, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(1, 2, 3, 4, 5, 1), 10, 0, 0, 1, 0.1, RunRecord.Disturbance.NONE,
        new RunRecord.RateRecord(800, 1000, 1000, 1000, java.util.Map.of(), java.util.Map.of(), 0, false, 1, 800))
        .withRssSamples(samples);
  }

  @Test
  void aHeapThatGrowsToItsTargetInTheFirstThirdAndStaysHasNoSlope() {
    // A JVM: 40 MiB to 200 MiB over the first 150 s, then a GC saw-tooth around 200 MiB.
    List<RssSample> s = samples(600, t -> t < 150 ? (40 + 160 * t / 150) * MIB : (200 + t % 10) * MIB);
    RssTrend trend = RssTrends.ofRun(s).orElseThrow();
    assertThat(trend.warmupSeconds()).isCloseTo(200, within(0.5));
    assertThat(trend.windowSeconds()).isCloseTo(400, within(1.0));
    assertThat(Math.abs(trend.slopeMibPerMinute())).isLessThan(0.2);
    assertThat(trend.growthShare()).isLessThan(0.01);
  }

  @Test
  void aSteadyLeakIsItsSlopeInMibPerMinute() {
    // 20 MiB, then 3 MiB a minute for 10 minutes.
    List<RssSample> s = samples(600, t -> 20 * MIB + 3 * MIB * t / 60);
    RssTrend trend = RssTrends.ofRun(s).orElseThrow();
    assertThat(trend.slopeMibPerMinute()).isCloseTo(3.0, within(0.01));
    assertThat(trend.startBytes()).isCloseTo(30 * MIB, within(MIB / 10));
    // 20 MiB more over 400 s, on the 30 MiB it started the window at
    assertThat(trend.growthShare()).isCloseTo(20.0 / 30, within(0.01));
  }

  @Test
  void theCellsTrendIsTheMedianOverItsRuns() {
    List<RunRecord> runs = List.of(run(1, samples(90, t -> 20 * MIB + MIB * t / 60)),
        run(2, samples(90, t -> 20 * MIB + 5 * MIB * t / 60)), run(3, samples(90, t -> 20 * MIB + 2 * MIB * t / 60)),
        run(4, List.of()));
    RssTrend trend = RssTrends.of(runs);
    assertThat(trend.runs()).isEqualTo(3);
    assertThat(trend.slopeMibPerMinute()).isCloseTo(2.0, within(0.01));
    assertThat(trend.windowSeconds()).isCloseTo(60, within(2.0));
  }

  @Test
  void tooFewSamplesGiveNoTrend() {
    assertThat(RssTrends.ofRun(samples(5, t -> MIB))).isEmpty();
    assertThat(RssTrends.ofRun(List.of())).isEmpty();
    assertThat(RssTrends.of(List.of(run(1, List.of())))).isNull();
  }

  @Test
  void samplesAreWrittenAsPairsAndReadBack() throws Exception {
    RunRecord run = run(1, List.of(new RssSample(0.02, 123456), new RssSample(1.01, 234567)));
    String json = ResultsJson.mapper().writeValueAsString(run);
    assertThat(json).contains("\"rssSamples\" : [ [ 0.02, 123456 ], [ 1.01, 234567 ] ]");
    assertThat(ResultsJson.mapper().readValue(json, RunRecord.class)).isEqualTo(run);
    RunRecord without = run(1, List.of());
    assertThat(ResultsJson.mapper().writeValueAsString(without)).doesNotContain("rssSamples");
    assertThat(ResultsJson.mapper().readValue(ResultsJson.mapper().writeValueAsString(without), RunRecord.class).rssSamples())
        .isEmpty();
  }
}
