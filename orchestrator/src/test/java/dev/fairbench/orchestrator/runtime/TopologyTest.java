package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.results.Environment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TopologyTest {
  @Test
  void percentilesAreNearestRank() {
    long[] sorted = new long[100];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i + 1;
    }
    assertThat(Topology.percentile(sorted, 0.50)).isEqualTo(50);
    assertThat(Topology.percentile(sorted, 0.99)).isEqualTo(99);
    assertThat(Topology.percentile(new long[] {7}, 0.99)).isEqualTo(7);
    assertThat(Topology.percentile(new long[0], 0.5)).isEqualTo(-1);
  }

  @Test
  void theSignatureIgnoresTheMeasuredLinkButNotTheHosts() {
    Environment.Host here = new Environment.Host("orchestrator, load client, servers", "a", "CPU X", 2, "6.1", "none", "v1", "127.0.0.1");
    Environment.Topology fast = new Environment.Topology("one-host", java.util.List.of(here),
        new Environment.NetworkPath("a", "127.0.0.1", "m", 2000, 8, 40, 2e9, 1));
    Environment.Topology slow = new Environment.Topology("one-host", java.util.List.of(here),
        new Environment.NetworkPath("a", "127.0.0.1", "m", 2000, 80, 400, 1e9, 1));
    Environment.Topology bigger = new Environment.Topology("one-host",
        java.util.List.of(new Environment.Host("orchestrator, load client, servers", "a", "CPU X", 4, "6.1", "none", "v1", "127.0.0.1")),
        fast.network());

    assertThat(fast.signature()).isEqualTo(slow.signature()).isNotEqualTo(bigger.signature());
  }

  @Test
  void theLoadClientIsHereUnlessItRanOnAnotherHost() {
    var link = new Environment.NetworkPath("a", "127.0.0.1", "m", 2000, 8, 40, 2e9, 1);
    Environment.Host all = new Environment.Host("orchestrator, load client, servers", "a", "CPU X", 2, "6.1", "none", "v1", "127.0.0.1");
    Environment.Host orchestrator = new Environment.Host("orchestrator, servers", "a", "CPU X", 2, "6.1", "none", "v1", "127.0.0.1");
    Environment.Host client = new Environment.Host("load client (container, CPUs 0)", "b", "CPU X", 2, "6.1", "docker 20", "v1", "");
    assertThat(new Environment.Topology("one-host", java.util.List.of(all), link).clientHere()).isTrue();
    assertThat(new Environment.Topology("two-hosts", java.util.List.of(orchestrator, client), link).clientHere()).isFalse();
  }

  /** The native runtime's probe is a local perl process: one host, loopback measured. */
  @Test
  void onOneHostTheProbeMeasuresLoopback() {
    assumeTrue(TestEntries.onPath("perl"), "perl is not installed");
    Environment.Topology topology = Topology.probe(new NativeRuntime(Path.of("/tmp")), new Limits("1", "0", 64L << 20, 1));

    assertThat(topology.layout()).isEqualTo(Environment.Topology.ONE_HOST);
    assertThat(topology.hosts()).singleElement().satisfies(h -> assertThat(h.roles()).contains("servers"));
    Environment.NetworkPath path = topology.network();
    assertThat(path.method()).doesNotStartWith("not measured");
    assertThat(path.to()).isEqualTo("127.0.0.1");
    assertThat(path.rttSamples()).isEqualTo(Topology.RTT_SAMPLES);
    assertThat(path.rttP50Micros()).isPositive();
    assertThat(path.rttP99Micros()).isGreaterThanOrEqualTo(path.rttP50Micros());
    assertThat(path.throughputBytesPerSecond()).isPositive();
    assertThat(Topology.describe(topology)).startsWith("one-host: ").contains("RTT p50");
  }
}
