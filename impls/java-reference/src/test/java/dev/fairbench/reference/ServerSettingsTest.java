package dev.fairbench.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerSettingsTest {

  @Test
  void defaultsToAllInterfacesPort8080AndOneWorker() {
    assertThat(ServerSettings.fromEnvironment(Map.of()))
        .isEqualTo(new ServerSettings("0.0.0.0", 8080, 1));
  }

  @Test
  void readsHostPortAndWorkers() {
    assertThat(ServerSettings.fromEnvironment(Map.of("HOST", "127.0.0.1", "PORT", "18600", "WORKERS", "2")))
        .isEqualTo(new ServerSettings("127.0.0.1", 18600, 2));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "abc", "65536"})
  void rejectsAnInvalidPortNamingIt(String port) {
    assertThatThrownBy(() -> ServerSettings.fromEnvironment(Map.of("PORT", port)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("PORT must be an integer from 1 to 65535, got '" + port + "'");
  }

  @Test
  void rejectsZeroWorkers() {
    assertThatThrownBy(() -> ServerSettings.fromEnvironment(Map.of("WORKERS", "0")))
        .hasMessageStartingWith("WORKERS must be an integer from 1");
  }
}
