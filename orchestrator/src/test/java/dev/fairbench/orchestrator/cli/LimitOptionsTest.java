package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LimitOptionsTest {
  @Test
  void theAutoRuntimeIsDockerWhenAnEngineAnswers() {
    assertThat(LimitOptions.resolve("auto", () -> true)).isEqualTo("docker");
  }

  @Test
  void theAutoRuntimeIsNativeWithoutAnEngine() {
    assertThat(LimitOptions.resolve("auto", () -> false)).isEqualTo("native");
  }

  @Test
  void anExplicitRuntimeIsKeptWhateverTheEngine() {
    assertThat(LimitOptions.resolve("native", () -> true)).isEqualTo("native");
    assertThat(LimitOptions.resolve("docker", () -> false)).isEqualTo("docker");
  }
}
