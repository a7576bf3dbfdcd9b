package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListenCheckTest {
  private static final URI SERVER = URI.create("http://127.0.0.1:8080");

  private static InetAddress address(String text) throws Exception {
    return InetAddress.getByName(text);
  }

  @Test
  void aServerListeningOnHostAloneIsWhatSpecZeroOneAsks() throws Exception {
    assertThat(ListenCheck.beyondHost(SERVER, List.of(address("127.0.0.1")))).isEmpty();
    assertThat(ListenCheck.beyondHost(SERVER, List.of(address("::ffff:127.0.0.1")))).as("IPv4-mapped").isEmpty();
  }

  @Test
  void aServerListeningOnEveryInterfaceIsNamedWithTheAddress() throws Exception {
    assertThat(ListenCheck.beyondHost(SERVER, List.of(address("0.0.0.0")))).hasValueSatisfying(why -> assertThat(why)
        .startsWith("listens on every interface (0.0.0.0) port 8080, not only on HOST=127.0.0.1 (SPEC 0.1"));
    assertThat(ListenCheck.beyondHost(SERVER, List.of(address("127.0.0.1"), address("::"))))
        .hasValueSatisfying(why -> assertThat(why).contains("every interface (0:0:0:0:0:0:0:0)"));
    assertThat(ListenCheck.beyondHost(SERVER, List.of(address("127.0.0.2"))))
        .hasValueSatisfying(why -> assertThat(why).startsWith("listens on 127.0.0.2 port 8080"));
  }
}
