package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WakeupsTest {
  private static final RunRecord.Disturbance QUIET = new RunRecord.Disturbance(0, 0, 0, 0, 0, 0, false);

  @Test
  void aReadingBelowTheThresholdShareOfTheUsualRateBeforeOrAfterIsSlow() {
    assertThat(RunRecord.Wakeups.judged(23_000, 30_000, 30_000, 0.8).slow()).isTrue();
    assertThat(RunRecord.Wakeups.judged(30_000, 23_000, 30_000, 0.8).slow()).isTrue();
    assertThat(RunRecord.Wakeups.judged(24_000, 24_000, 30_000, 0.8).slow()).as("exactly at the threshold").isFalse();
    assertThat(RunRecord.Wakeups.judged(40_000, 31_000, 30_000, 0.8).slow()).isFalse();
  }

  @Test
  void aFailedReadingOrNoUsualRateJudgesNothing() {
    assertThat(RunRecord.Wakeups.judged(-1, 30_000, 30_000, 0.8).slow()).isFalse();
    assertThat(RunRecord.Wakeups.judged(-1, -1, 30_000, 0.8).slow()).isFalse();
    assertThat(RunRecord.Wakeups.judged(10_000, 10_000, -1, 0.8).slow()).isFalse();
  }

  @Test
  void slowWakeupsDisturbTheRunAndQuietOnesLeaveItAsItWas() {
    assertThat(QUIET.withWakeups(RunRecord.Wakeups.judged(20_000, 30_000, 30_000, 0.8)).disturbed()).isTrue();
    assertThat(QUIET.withWakeups(RunRecord.Wakeups.judged(30_000, 30_000, 30_000, 0.8)).disturbed()).isFalse();
    RunRecord.Disturbance busy = new RunRecord.Disturbance(0.1, 0, 0, 0, 0, 0.1, true);
    assertThat(busy.withWakeups(RunRecord.Wakeups.judged(30_000, 30_000, 30_000, 0.8)).disturbed())
        .as("other work on the server's CPUs still disturbs it").isTrue();
  }

  @Test
  void aRecordWithoutWakeupsReadsBackWithoutThem() throws Exception {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    String json = mapper.writeValueAsString(QUIET);
    assertThat(json).doesNotContain("wakeups");
    assertThat(mapper.readValue(json, RunRecord.Disturbance.class).wakeups()).isNull();
    RunRecord.Disturbance with = QUIET.withWakeups(RunRecord.Wakeups.judged(20_000, 30_000, 30_000, 0.8));
    assertThat(mapper.readValue(mapper.writeValueAsString(with), RunRecord.Disturbance.class)).isEqualTo(with);
  }

  @Test
  void aSpeedReadingWithoutTheMemorysLatencyReadsBackWithoutItAsFilesMadeBeforeItDo() throws Exception {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    RunRecord.Speed old = new RunRecord.Speed(400, 410, 390, 395);
    String json = mapper.writeValueAsString(old);
    assertThat(json).doesNotContain("memory").doesNotContain("readsMemory");
    assertThat(mapper.readValue(json, RunRecord.Speed.class).readsMemory()).isFalse();
    RunRecord.Speed with = new RunRecord.Speed(400, 410, 390, 395, 150.0, 162.5);
    assertThat(mapper.writeValueAsString(with)).contains("\"memoryBefore\":150.0").contains("\"memoryAfter\":162.5");
    assertThat(mapper.readValue(mapper.writeValueAsString(with), RunRecord.Speed.class)).isEqualTo(with);
  }
}
