package dev.fairbench.orchestrator.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WrkOutputParserTest {
  private static String captured(String name) throws IOException {
    try (InputStream in = WrkOutputParserTest.class.getResourceAsStream("/wrk/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsTheResultLineOfACapturedRun() throws Exception {
    LoadResult result = WrkOutputParser.parse(captured("validate-post.txt"));

    assertThat(result.requests()).isEqualTo(84);
    assertThat(result.durationSeconds()).isCloseTo(1.011297, within(1e-9));
    assertThat(result.requestsPerSecond()).isCloseTo(83.06, within(0.01));
    assertThat(result.bytes()).isEqualTo(9860);
    assertThat(result.non2xx()).isZero();
    assertThat(result.socketErrors()).isZero();
    assertThat(result.latency()).isEqualTo(new LoadResult.Latency(47987, 51789, 68878, 68878, 68878, 46674.2));
  }

  @Test
  void countsErrorsByKind() throws Exception {
    LoadResult result = WrkOutputParser.parse("""
        Running 5s test @ http://127.0.0.1:8080/plaintext
        FAIRBENCH-RESULT requests=1000 duration_us=5000000 bytes=1 connect=1 read=2 write=3 status=7 timeout=4 \
        p50_us=1 p90_us=2 p99_us=3 p999_us=4 max_us=5 mean_us=1.5
        """);

    assertThat(result.non2xx()).isEqualTo(7);
    assertThat(result.connectErrors()).isEqualTo(1);
    assertThat(result.readErrors()).isEqualTo(2);
    assertThat(result.writeErrors()).isEqualTo(3);
    assertThat(result.timeouts()).isEqualTo(4);
    assertThat(result.socketErrors()).isEqualTo(10);
    assertThat(result.requestsPerSecond()).isEqualTo(200.0);
  }

  @Test
  void aRunWithoutRequestsHasNoMeanLatency() throws Exception {
    LoadResult result = WrkOutputParser.parse("FAIRBENCH-RESULT requests=0 duration_us=1000000 bytes=0 connect=64 "
        + "read=0 write=0 status=0 timeout=0 p50_us=0 p90_us=0 p99_us=0 p999_us=0 max_us=0 mean_us=-nan\n");

    assertThat(result.requests()).isZero();
    assertThat(result.latency().mean()).isZero();
  }

  @Test
  void outputWithoutAResultLineIsAnErrorQuotingTheOutput() throws Exception {
    assertThatThrownBy(() -> WrkOutputParser.parse(captured("connection-refused.txt")))
        .isInstanceOf(LoadException.class)
        .hasMessageContaining("no result line")
        .hasMessageContaining("Connection refused");
  }

  @Test
  void aMissingFieldIsNamed() {
    assertThatThrownBy(() -> WrkOutputParser.parse("FAIRBENCH-RESULT requests=1 duration_us=1"))
        .isInstanceOf(LoadException.class)
        .hasMessageContaining("lacks");
  }

  @Test
  void theVersionComesFromWrksBanner() {
    assertThat(WrkLoadGenerator.parseVersion("wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\nUsage: wrk"))
        .isEqualTo("wrk debian/4.1.0-3+b2");
    assertThat(WrkLoadGenerator.parseVersion("")).isEqualTo("unknown");
  }
}
