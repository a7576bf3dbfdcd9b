package dev.fairbench.orchestrator.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoadSettingsTest {
  @Test
  void aWarmUpThatRepeatsWhileTheServerGetsFasterSaysSo() {
    assertThat(new Environment.LoadSettings(1, 2, 64, 1, 2, 0.05).warmupDescription())
        .isEqualTo("runs of 2 s while one is over 5% faster than the last");
  }

  @Test
  void aFileMadeBeforeTheWarmUpSettledReadsAsOneRunOfItsLength() {
    assertThat(new Environment.LoadSettings(1, 2, 64, 1, 2, null).warmupDescription()).isEqualTo("2 s");
    assertThat(new Environment.LoadSettings(1, 0.5, 64, 1, 2, null).warmupDescription()).isEqualTo("0.5 s");
  }

  @Test
  void noWarmUpIsNoneWhateverTheRise() {
    assertThat(new Environment.LoadSettings(1, 0, 64, 1, 2, 0.05).warmupDescription()).isEqualTo("0 s");
  }

  @Test
  void theRiseIsWrittenAndReadBackAndAnOlderFileHasNone() throws Exception {
    var mapper = ResultsJson.mapper();
    String json = mapper.writeValueAsString(new Environment.LoadSettings(1, 2, 64, 1, 2, 0.05));
    assertThat(mapper.readTree(json).get("warmupRise").asDouble()).isEqualTo(0.05);
    assertThat(mapper.readValue(json, Environment.LoadSettings.class).warmupRise()).isEqualTo(0.05);
    assertThat(mapper.readValue("{\"durationSeconds\":1,\"warmupSeconds\":2,\"connections\":64,\"threads\":1,"
        + "\"timeoutSeconds\":2}", Environment.LoadSettings.class).warmupRise()).isNull();
  }
}
