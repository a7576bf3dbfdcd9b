package dev.fairbench.orchestrator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigTest {
  @Test
  void cpuListsParseLikeTheKernelWritesThem() {
    assertThat(CpuSet.count("0")).isEqualTo(1);
    assertThat(CpuSet.count("2-3")).isEqualTo(2);
    assertThat(CpuSet.count("0,2-4")).isEqualTo(4);
    assertThat(CpuSet.highest("0,2-4")).isEqualTo(4);
    assertThatThrownBy(() -> CpuSet.parse("3-1")).hasMessageContaining("invalid CPU list");
    assertThatThrownBy(() -> CpuSet.parse("one")).hasMessageContaining("invalid CPU list");
  }

  @Test
  void serverAndClientCpuSetsMustBeDisjoint() {
    assertThatThrownBy(() -> new Limits("0-1", "1", 512L << 20, 1)).hasMessageContaining("disjoint");
    assertThat(new Limits("1", "0", 512L << 20, 1).serverCpus()).isEqualTo("1");
  }

  @Test
  void twoCoresGetTheSmallProfileAndFourTheSeedProfile() {
    Defaults.Profile small = Defaults.forCores(2);
    assertThat(small.serverCpus()).isEqualTo("1");
    assertThat(small.clientCpus()).isEqualTo("0");
    assertThat(small.workers()).isEqualTo(1);
    assertThat(small.rounds()).as("from 9 runs the 95% interval of the median survives an outlier on each side")
        .isGreaterThanOrEqualTo(9);
    assertThat(small.duration().toMillis() % 1000).as("wrk takes whole seconds").isZero();

    Defaults.Profile seed = Defaults.forCores(8);
    assertThat(seed.workers()).isEqualTo(2);
    assertThat(seed.connections()).isEqualTo(128);
    assertThat(seed.threads()).isEqualTo(2);
    assertThat(CpuSet.count(seed.serverCpus())).isEqualTo(2);
    assertThat(CpuSet.overlap(seed.serverCpus(), seed.clientCpus())).isFalse();

    assertThatThrownBy(() -> Defaults.forCores(1)).hasMessageContaining("at least 2 CPUs");
  }
}
