package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.load.ConstantRateResult;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.runtime.ResourceUsage;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RateRunsTest {
  private static RunRecord record(double rate, ConstantRateResult result) {
    return RateRuns.record(1, 1, rate, Duration.ofSeconds(2), 64, result, 1.5,
        new ResourceUsage(3, 50L << 20, 60L << 20, "test"), RunRecord.Disturbance.NONE);
  }

  @Test
  void everyScheduledRequestCountsAndOnesTheClientNeverSentAreFailuresOfTheirOwn() {
    // py-fastapi at 10,000 req/s, measured before the fix: "success 100%" while 12,796 were never sent.
    ConstantRateResult fellBehind = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 8_000L, 503, 10L)),
        new TreeMap<>(Map.of("timeout", 5L)), new ConstantRateResult.Latency(900, 1500, 4000, 8000, 9000, 1000), 1.9, 0.95);
    RunRecord run = record(10_000, fellBehind);
    assertThat(run.rate().scheduled()).isEqualTo(20_000);
    assertThat(run.rate().sent()).isEqualTo(8_015);
    assertThat(run.rate().unsent()).isEqualTo(11_985);
    assertThat(run.rate().cutAtDeadline()).as("the last 10 ms of the schedule").isEqualTo(100);
    assertThat(run.rate().successRate()).isEqualTo(8_000 / 19_900.0);
    assertThat(run.rate().statuses()).containsEntry("503", 10L);
    assertThat(run.rate().clientErrors()).containsEntry("timeout", 5L);
  }

  @Test
  void unsentRequestsWithTheClientAtItsWallAreTheClientsLimit() {
    ConstantRateResult clientWall = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 8_000L)), new TreeMap<>(),
        new ConstantRateResult.Latency(900, 1500, 4000, 8000, 9000, 1000), 1.9, 0.95);
    assertThat(record(10_000, clientWall).rate().clientLimited()).isTrue();
  }

  @Test
  void unsentRequestsWithEveryConnectionBusyAreTheClientsLimitToo() {
    // 64 connections, 10 ms mean latency: at most 6,400 req/s in flight-limited sending.
    ConstantRateResult connectionsFull = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 12_000L)), new TreeMap<>(),
        new ConstantRateResult.Latency(9000, 9500, 12000, 15000, 20000, 10_000), 0.3, 0.15);
    assertThat(record(10_000, connectionsFull).rate().clientLimited()).isTrue();
  }

  @Test
  void aServerThatKeepsUpLeavesNothingUnsent() {
    ConstantRateResult fine = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 2_000L)), new TreeMap<>(),
        new ConstantRateResult.Latency(300, 400, 600, 900, 1000, 320), 0.1, 0.05);
    RunRecord run = record(1_000, fine);
    assertThat(run.rate().unsent()).isZero();
    assertThat(run.rate().successRate()).isEqualTo(1.0);
    assertThat(run.rate().clientLimited()).isFalse();
  }

  @Test
  void theSlotsDueInTheRunsLast10MsThatAServerKeepingUpStillLosesAtTheDeadlineAreTheClients() {
    // go-nethttp at 31,941 req/s in the 2026-12-01 reference run: 53 slots (1.7 ms) never sent, p99.9 8 ms.
    ConstantRateResult keptUp = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 63_829L)), new TreeMap<>(),
        new ConstantRateResult.Latency(300, 500, 2000, 8000, 8700, 350), 0.5, 0.5);
    RunRecord run = record(31_941, keptUp);
    assertThat(run.rate().scheduled()).isEqualTo(63_882);
    assertThat(run.rate().unsent()).isEqualTo(53);
    assertThat(run.rate().cutAtDeadline()).isEqualTo(53);
    assertThat(run.rate().successRate()).isEqualTo(1.0);
    assertThat(run.rate().clientLimited()).isFalse();
  }

  @Test
  void theCutIsDerivedFromTheRecordedRunNotWrittenBesideIt() throws Exception {
    RunRecord run = record(1_000, new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 1_995L)), new TreeMap<>(),
        new ConstantRateResult.Latency(300, 400, 600, 900, 1000, 320), 0.1, 0.05));
    String json = ResultsJson.mapper().writeValueAsString(run.rate());
    assertThat(json).contains("\"unsent\" : 5").doesNotContain("cutAtDeadline");
    assertThat(ResultsJson.mapper().readValue(json, RunRecord.RateRecord.class).cutAtDeadline()).isEqualTo(5);
  }

  @Test
  void unsentRequestsBeyondTheDeadlinesAllowanceCountAgainstTheServer() {
    // 1,000 slots unsent at 31,941 req/s: the 319 of the last 10 ms are the client's, 681 the server's
    ConstantRateResult behind = new ConstantRateResult(2.0, new TreeMap<>(Map.of(200, 62_882L)), new TreeMap<>(),
        new ConstantRateResult.Latency(300, 500, 2000, 8000, 8700, 350), 0.5, 0.5);
    RunRecord run = record(31_941, behind);
    assertThat(run.rate().unsent()).isEqualTo(1_000);
    assertThat(run.rate().cutAtDeadline()).isEqualTo(319);
    assertThat(run.rate().successRate()).isEqualTo(62_882 / (63_882.0 - 319));
  }
}
