package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.core.Endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The parser against JSON captured from oha 1.16.0 runs on this machine (taskset -c 0 oha -z 2s
 * -w --latency-correction --no-tui --output-format json -t 2s ...): the fixture server of
 * src/test/resources/impls/tiny-python, a closed port, and a throwaway server answering 404 and
 * 503, resetting connections and stalling past a 1 s timeout.
 */
class OhaOutputParserTest {
  private static String captured(String name) throws IOException {
    try (InputStream in = OhaOutputParserTest.class.getResourceAsStream("/oha/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsACleanRunInMicroseconds() throws Exception {
    ConstantRateResult result = OhaOutputParser.parse(captured("validate-post.json"));

    assertThat(result.durationSeconds()).isCloseTo(2.001190677, within(1e-9));
    assertThat(result.statusCounts()).containsExactly(Map.entry(200, 100L));
    assertThat(result.errorCounts()).isEmpty();
    assertThat(result.sent()).isEqualTo(100);
    assertThat(result.completed()).isEqualTo(100);
    assertThat(result.ok()).isEqualTo(100);
    assertThat(result.successRate()).isEqualTo(1.0);
    assertThat(result.achievedRate()).isCloseTo(49.97, within(0.01));
    assertThat(result.latency()).isEqualTo(new ConstantRateResult.Latency(574, 1311, 4509, 4509, 4509, 798));
    assertThat(result.flags(50)).isEmpty();
    assertThat(result.bodyBytes()).as("oha's totalData: 100 bodies of 43 bytes").isEqualTo(4300);
  }

  @Test
  void aServerThatFallsBehindIsSaturatedAndItsQueueingShowsInTheLatency() throws Exception {
    ConstantRateResult result = OhaOutputParser.parse(captured("plaintext-saturated.json"));

    // Asked for 100 req/s over 2 s; 175 answered, all 200, but late: the correction counts the wait.
    assertThat(result.completed()).isEqualTo(175);
    assertThat(result.successRate()).isEqualTo(1.0);
    assertThat(result.achievedRate()).isCloseTo(85.91, within(0.01));
    assertThat(result.latency().p50()).isEqualTo(175014);
    assertThat(result.latency().max()).isEqualTo(326000);
    assertThat(result.flags(100)).containsExactly("saturated");
  }

  @Test
  void countsOtherStatusesAndErrorsByKind() throws Exception {
    ConstantRateResult result = OhaOutputParser.parse(captured("errors-and-statuses.json"));

    assertThat(result.statusCounts()).containsExactly(Map.entry(200, 139L), Map.entry(404, 8L), Map.entry(503, 18L));
    assertThat(result.errorCounts())
        .containsExactly(Map.entry("connection closed before message completed", 7L), Map.entry("timeout", 5L));
    assertThat(result.ok()).isEqualTo(139);
    assertThat(result.otherStatuses()).isEqualTo(26);
    assertThat(result.errors()).isEqualTo(12);
    assertThat(result.sent()).isEqualTo(177);
    // oha's own successRate (0.932) counts a 503 as a success; ours counts only 200s.
    assertThat(result.successRate()).isCloseTo(139.0 / 177, within(1e-12));
    assertThat(result.statusCountsByName()).containsExactly(
        Map.entry("200", 139L), Map.entry("404", 8L), Map.entry("503", 18L));
    assertThat(result.flags(60)).containsExactly("saturated", "invalid");
  }

  @Test
  void aClosedPortHasOnlyErrorsAndNoLatency() throws Exception {
    ConstantRateResult result = OhaOutputParser.parse(captured("connection-refused.json"));

    assertThat(result.statusCounts()).isEmpty();
    assertThat(result.errorCounts()).containsExactly(Map.entry("Connection refused (os error 111)", 100L));
    assertThat(result.latency()).isNull();
    assertThat(result.successRate()).isZero();
    assertThat(result.achievedRate()).isZero();
    assertThat(result.flags(50)).containsExactly("saturated", "invalid");
  }

  @Test
  void theFlagsStartExactlyAtTheirThresholds() {
    assertThat(run(95, 0).flags(100)).isEmpty();
    assertThat(run(94, 0).flags(100)).containsExactly("saturated");
    assertThat(run(999, 1).flags(1000)).isEmpty();
    assertThat(run(998, 2).flags(1000)).containsExactly("invalid");
  }

  private static ConstantRateResult run(long ok, long timeouts) {
    Map<String, Long> errors = timeouts == 0 ? Map.of() : Map.of("timeout", timeouts);
    return new ConstantRateResult(1.0, new TreeMap<>(Map.of(200, ok)), new TreeMap<>(errors), null, 0, 0);
  }

  @Test
  void outputThatIsNotOhasJsonIsAClearError() {
    assertThatThrownBy(() -> OhaOutputParser.parse("error: invalid value 'x' for '-q <QUERY_PER_SECOND>'"))
        .isInstanceOf(LoadException.class).hasMessageContaining("not JSON").hasMessageContaining("-q");
    assertThatThrownBy(() -> OhaOutputParser.parse("{\"summary\": {\"total\": 1.0}}"))
        .isInstanceOf(LoadException.class).hasMessageContaining("statusCodeDistribution");
    assertThatThrownBy(() -> OhaOutputParser.parse(""))
        .isInstanceOf(LoadException.class).hasMessageContaining("no JSON");
  }

  @Test
  void theCommandAsksForAFixedRateWithCorrectedLatenciesOnTheClientCpus() {
    OhaLoadGenerator oha = new OhaLoadGenerator("0", "oha 1.16.0");
    URI base = URI.create("http://127.0.0.1:19000");

    assertThat(oha.command(new OhaLoadGenerator.Spec(base, Endpoint.PLAINTEXT, 250, Duration.ofSeconds(3), 16,
        Duration.ofSeconds(2)))).containsExactly("taskset", "-c", "0", "oha", "-z", "3000ms", "-q", "250", "-c", "16",
        "-t", "2000ms", "-w", "--latency-correction", "--disable-compression", "--no-tui", "--output-format", "json", "--worker-threads", "1",
        "-m", "GET", "http://127.0.0.1:19000/plaintext");
    assertThat(oha.command(new OhaLoadGenerator.Spec(base, Endpoint.VALIDATE, 12.5, Duration.ofSeconds(1), 1,
        Duration.ofSeconds(2)))).containsSubsequence("-q", "12.5").endsWith("-m", "POST", "-T", "application/json",
        "-d", "{\"name\":\"Alice\",\"age\":30}", "http://127.0.0.1:19000/validate");
  }

  @Test
  void theAnswerCheckSendsTheHeadersOhaAdds() {
    assertThat(new OhaLoadGenerator("0", "oha 1.16.0").requestHeaders())
        .containsExactly("accept: */*", "user-agent: oha/1.16.0");
    assertThat(new OhaLoadGenerator("0", "oha (unknown version)").requestHeaders())
        .containsExactly("accept: */*", "user-agent: oha");
  }

  @Test
  void aRateThatIsNotPositiveIsRefused() {
    URI base = URI.create("http://127.0.0.1:19000");
    assertThatThrownBy(() -> new OhaLoadGenerator.Spec(base, Endpoint.JSON, 0, Duration.ofSeconds(1), 1,
        Duration.ofSeconds(2))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    assertThatThrownBy(() -> new OhaLoadGenerator.Spec(base, Endpoint.JSON, 10, Duration.ofMillis(500), 1,
        Duration.ofSeconds(2))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 s");
  }

  @Test
  void theVersionIsOhasFirstLine() {
    assertThat(OhaLoadGenerator.parseVersion("oha 1.16.0\n")).isEqualTo("oha 1.16.0");
    assertThat(OhaLoadGenerator.parseVersion("")).isEqualTo("oha (unknown version)");
  }
}
