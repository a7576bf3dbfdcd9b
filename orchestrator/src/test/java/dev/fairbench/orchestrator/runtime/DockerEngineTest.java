package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DockerEngineTest {
  @Test
  void withoutServerHostAndWithALocalDockerHostTheServersStayHere() {
    assertThat(DockerEngine.fromOptions(null, null, Map.of())).isEmpty();
    assertThat(DockerEngine.fromOptions(null, null, Map.of("DOCKER_HOST", "unix:///var/run/docker.sock"))).isEmpty();
    assertThat(DockerEngine.fromOptions(null, null, Map.of("DOCKER_HOST", "tcp://127.0.0.1:2375"))).isEmpty();
  }

  @Test
  void aTcpUrlNamesTheEngineAndTheServerHostsAddress() {
    DockerEngine engine = DockerEngine.fromOptions("tcp://169.254.77.2:2375", null, Map.of()).orElseThrow();

    assertThat(engine.remote()).isTrue();
    assertThat(engine.dockerHost()).isEqualTo(URI.create("tcp://169.254.77.2:2375"));
    assertThat(engine.serverAddress()).isEqualTo("169.254.77.2");
    assertThat(engine.tlsVerify()).isFalse();
  }

  @Test
  void aDockerHostNamingAnotherMachineIsTheServerHost() {
    DockerEngine engine = DockerEngine.fromOptions(null, null, Map.of("DOCKER_HOST", "tcp://192.0.2.10:2375")).orElseThrow();

    assertThat(engine.serverAddress()).isEqualTo("192.0.2.10");
  }

  @Test
  void serverAddressOverridesTheUrlsHostAndIsNeededForAUnixSocket() {
    assertThat(DockerEngine.fromOptions("tcp://192.0.2.10:2375", "192.0.2.20", Map.of()).orElseThrow().serverAddress())
        .isEqualTo("192.0.2.20");
    assertThatThrownBy(() -> DockerEngine.fromOptions("unix:///tmp/forwarded.sock", null, Map.of()))
        .hasMessageContaining("--server-address");
    assertThat(DockerEngine.fromOptions("unix:///tmp/forwarded.sock", "192.0.2.20", Map.of()).orElseThrow().serverAddress())
        .isEqualTo("192.0.2.20");
  }

  @Test
  void sshAndLoopbackAndPortlessUrlsAreUsageErrorsThatSayWhatToDo() {
    assertThatThrownBy(() -> DockerEngine.fromOptions("ssh://bench@server", null, Map.of()))
        .hasMessageContaining("ssh -nNT -L").hasMessageContaining("--server-address server");
    assertThatThrownBy(() -> DockerEngine.fromOptions("tcp://192.0.2.10:2375", "127.0.0.1", Map.of()))
        .hasMessageContaining("loopback");
    assertThatThrownBy(() -> DockerEngine.fromOptions("tcp://192.0.2.10", null, Map.of()))
        .hasMessageContaining("host and port");
    assertThatThrownBy(() -> DockerEngine.fromOptions("ftp://192.0.2.10:21", null, Map.of()))
        .hasMessageContaining("tcp://HOST:PORT");
    assertThatThrownBy(() -> DockerEngine.fromOptions(null, "192.0.2.20", Map.of()))
        .hasMessageContaining("--server-address needs --server-host");
  }

  @Test
  void aClientHostIsAnyEngineUrlAndKnowsWhetherItIsThisMachine() {
    DockerEngine here = DockerEngine.clientHost("unix:///var/run/docker.sock", Map.of());
    assertThat(here.onThisMachine()).isTrue();
    assertThat(here.dockerHost()).isEqualTo(URI.create("unix:///var/run/docker.sock"));
    assertThat(DockerEngine.clientHost("tcp://127.0.0.1:2375", Map.of()).onThisMachine()).isTrue();

    DockerEngine there = DockerEngine.clientHost("tcp://192.0.2.30:2376", Map.of());
    assertThat(there.onThisMachine()).isFalse();
    assertThat(there.tlsVerify()).isFalse();
    // TLS is for tcp: a unix socket ignores DOCKER_TLS_VERIFY, as the docker CLI does.
    assertThat(DockerEngine.clientHost("unix:///var/run/docker.sock", Map.of("DOCKER_TLS_VERIFY", "1")).tlsVerify()).isFalse();
  }

  @Test
  void aBadClientHostIsAUsageErrorThatNamesTheOptionAndSaysWhatToDo() {
    assertThatThrownBy(() -> DockerEngine.clientHost("ftp://192.0.2.30:21", Map.of()))
        .hasMessageStartingWith("--client-host ftp://192.0.2.30:21").hasMessageContaining("tcp://HOST:PORT");
    assertThatThrownBy(() -> DockerEngine.clientHost("tcp://192.0.2.30", Map.of()))
        .hasMessageContaining("--client-host").hasMessageContaining("host and port");
    assertThatThrownBy(() -> DockerEngine.clientHost("unix://", Map.of())).hasMessageContaining("socket's path");
    assertThatThrownBy(() -> DockerEngine.clientHost("not a url", Map.of())).hasMessageContaining("is not a URL");
    assertThatThrownBy(() -> DockerEngine.clientHost("ssh://bench@client", Map.of()))
        .hasMessageContaining("ssh -nNT -L").hasMessageContaining("--client-host unix:///tmp/fairbench-engine.sock")
        .hasMessageNotContaining("--server-address");
  }

  @Test
  void tlsNeedsTheThreeCertificateFiles(@TempDir Path certs) throws Exception {
    Map<String, String> env = Map.of("DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", certs.toString());
    assertThatThrownBy(() -> DockerEngine.fromOptions("tcp://192.0.2.10:2376", null, env))
        .hasMessageContaining("ca.pem").hasMessageContaining("DOCKER_CERT_PATH");
    for (String file : new String[] {"ca.pem", "cert.pem", "key.pem"}) {
      Files.writeString(certs.resolve(file), "not checked here");
    }

    DockerEngine engine = DockerEngine.fromOptions("tcp://192.0.2.10:2376", null, env).orElseThrow();

    assertThat(engine.tlsVerify()).isTrue();
    assertThat(engine.certPath()).isEqualTo(certs);
  }

  @Test
  void statsOfCgroupV1AndV2() throws Exception {
    ObjectMapper json = new ObjectMapper();
    var v1 = DockerEngine.ContainerStats.parse(json.readTree("""
        {"pids_stats":{"current":3},"cpu_stats":{"cpu_usage":{"total_usage":78217257}},
         "memory_stats":{"usage":10203136,"max_usage":10498048,"stats":{"rss":9674752,"cache":12288}}}"""));
    var v2 = DockerEngine.ContainerStats.parse(json.readTree("""
        {"pids_stats":{"current":5},"cpu_stats":{"cpu_usage":{"total_usage":2000000000}},
         "memory_stats":{"usage":20000000,"stats":{"anon":15000000,"file":100}}}"""));

    assertThat(v1).isEqualTo(new DockerEngine.ContainerStats(0.078217257, 10498048, 9674752, 3));
    assertThat(v2).isEqualTo(new DockerEngine.ContainerStats(2.0, -1, 15000000, 5));
  }
}
