package dev.fairbench.orchestrator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Endpoint;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BaselineEndpointsTest {
  private static final List<Endpoint> EVERY = List.of(Endpoint.values());

  private static RunConfig run(double ladderShare, List<Endpoint> ladderEndpoints) {
    return new RunConfig(true, CellKind.THROUGHPUT, EVERY, Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofMillis(500), 9, 6, Duration.ZERO, 42, List.of(), 64, 1, Duration.ofSeconds(2),
        new Limits("1", "0", 512L << 20, 1), true, 0.05, 1, true, List.of(), ladderShare, ladderEndpoints, 5, false);
  }

  @Test
  void aBaselineWithALadderIsMeasuredOnTheChosenEndpointsAndEveryOtherServerOnEveryEndpoint() {
    RunConfig config = run(0.5, List.of(Endpoint.JSON)).withBaselineEndpoints(List.of(Endpoint.JSON));
    assertThat(config.baselinesNarrowed()).isTrue();
    assertThat(config.endpointsOf(true)).containsExactly(Endpoint.JSON);
    assertThat(config.endpointsOf(false)).isEqualTo(EVERY);
  }

  @Test
  void theChosenEndpointsKeepTheOrderOfTheEndpoints() {
    RunConfig config = run(0.5, List.of(Endpoint.JSON))
        .withBaselineEndpoints(List.of(Endpoint.VALIDATE, Endpoint.JSON, Endpoint.PLAINTEXT));
    assertThat(config.endpointsOf(true)).containsExactly(Endpoint.PLAINTEXT, Endpoint.JSON, Endpoint.VALIDATE);
  }

  @Test
  void allOrAnInvocationWithoutTheChoiceMeansEveryEndpoint() {
    RunConfig config = run(0.5, List.of(Endpoint.JSON)).withBaselineEndpoints(null);
    assertThat(config.baselinesNarrowed()).isFalse();
    assertThat(config.endpointsOf(true)).isEqualTo(EVERY);
  }

  @Test
  void withoutLadderCellsABaselineIsMeasuredOnEveryEndpoint() {
    assertThat(run(0, List.of(Endpoint.JSON)).withBaselineEndpoints(List.of(Endpoint.JSON)).endpointsOf(true))
        .isEqualTo(EVERY);
    assertThat(run(0.5, List.of()).withBaselineEndpoints(List.of()).endpointsOf(true)).isEqualTo(EVERY);
  }

  @Test
  void theChosenEndpointsMustIncludeTheLadderEndpointsAndBeAmongTheEndpoints() {
    assertThatThrownBy(() -> run(0.5, List.of(Endpoint.JSON)).withBaselineEndpoints(List.of(Endpoint.PLAINTEXT)))
        .hasMessageContaining("--baseline-endpoints must include the ladder endpoints");
    RunConfig jsonOnly = new RunConfig(true, CellKind.THROUGHPUT, List.of(Endpoint.JSON), Duration.ofSeconds(1),
        Duration.ofSeconds(2), Duration.ofMillis(500), 9, 6, Duration.ZERO, 42, List.of(), 64, 1, Duration.ofSeconds(2),
        new Limits("1", "0", 512L << 20, 1), true, 0.05, 1, true, List.of(), 0.5, List.of(Endpoint.JSON), 5, false);
    assertThatThrownBy(() -> jsonOnly.withBaselineEndpoints(List.of(Endpoint.JSON, Endpoint.USER)))
        .hasMessageContaining("--baseline-endpoints must be among --endpoints");
  }
}
