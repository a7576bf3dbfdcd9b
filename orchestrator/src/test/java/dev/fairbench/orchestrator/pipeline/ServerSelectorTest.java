package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.core.RuntimeKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerSelectorTest {
  @Test
  void aSelectorWithoutASuffixRunsInTheDefaultRuntime() {
    ServerSelector plain = ServerSelector.parse("go-gin");

    assertThat(plain.entry()).isEqualTo("go-gin");
    assertThat(plain.runtime()).isEmpty();
    assertThat(plain.runtimeOr(RuntimeKind.NATIVE)).isEqualTo(RuntimeKind.NATIVE);
    assertThat(plain.runtimeOr(RuntimeKind.DOCKER)).isEqualTo(RuntimeKind.DOCKER);
    assertThat(plain).hasToString("go-gin");
  }

  @Test
  void aSuffixNamesTheRuntimeWhateverTheDefault() {
    ServerSelector docker = ServerSelector.parse("go-gin@docker");
    ServerSelector nativeOne = ServerSelector.parse("py-blacksheep:uvicorn@native");

    assertThat(docker.entry()).isEqualTo("go-gin");
    assertThat(docker.runtime()).contains(RuntimeKind.DOCKER);
    assertThat(docker.runtimeOr(RuntimeKind.NATIVE)).isEqualTo(RuntimeKind.DOCKER);
    assertThat(docker).hasToString("go-gin@docker");
    assertThat(nativeOne.entry()).as("the variant stays with the entry").isEqualTo("py-blacksheep:uvicorn");
    assertThat(nativeOne.runtime()).contains(RuntimeKind.NATIVE);
    assertThat(nativeOne.runtimeOr(RuntimeKind.DOCKER)).isEqualTo(RuntimeKind.NATIVE);
  }

  @Test
  void everySelectorIsParsedInTheOrderGiven() {
    assertThat(ServerSelector.parseAll(List.of("go-gin", "go-gin@docker", "rust-rocket@native")))
        .containsExactly(new ServerSelector("go-gin", Optional.empty()),
            new ServerSelector("go-gin", Optional.of(RuntimeKind.DOCKER)),
            new ServerSelector("rust-rocket", Optional.of(RuntimeKind.NATIVE)));
    assertThat(ServerSelector.parseAll(List.of())).isEmpty();
  }

  @Test
  void anUnknownRuntimeIsOneLineNamingTheKnownOnes() {
    assertThatThrownBy(() -> ServerSelector.parse("go-gin@podman"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown runtime \"podman\" in \"go-gin@podman\"; runtimes: native, docker");
    assertThatThrownBy(() -> ServerSelector.parse("go-gin@Docker")).as("runtimes are lower case, as --runtime takes them")
        .hasMessageContaining("unknown runtime \"Docker\"");
  }

  @Test
  void aSuffixWithoutAnEntryOrARuntimeIsRefused() {
    assertThatThrownBy(() -> ServerSelector.parse("@docker"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no entry before the @");
    assertThatThrownBy(() -> ServerSelector.parse("go-gin@"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no runtime after the @")
        .hasMessageContaining("native, docker");
    assertThatThrownBy(() -> ServerSelector.parse("go-gin@docker@native"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than one @");
    assertThatThrownBy(() -> ServerSelector.parse(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty entry name");
  }
}
