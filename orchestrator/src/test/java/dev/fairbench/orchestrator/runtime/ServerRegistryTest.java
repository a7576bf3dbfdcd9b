package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.exception.NotFoundException;
import org.junit.jupiter.api.Test;

class ServerRegistryTest {
  private static final Thread HOOK = new Thread(() -> {}, "Thread-0");

  @Test
  void aContainerAlreadyGoneWhileTheJvmStopsIsNotAnError() {
    RuntimeException wrapped = new RuntimeException(new NotFoundException("Status 404: No such container: 6ffc"));

    assertThat(ServerRegistry.uncaughtLine(HOOK, wrapped, true)).isNull();
  }

  @Test
  void anyOtherUncaughtExceptionIsOneLineNamingItsThread() {
    String line = ServerRegistry.uncaughtLine(HOOK, new IllegalStateException("broken", new java.io.IOException("disk")), true);

    assertThat(line).startsWith("fairbench: unexpected error in thread Thread-0: broken: disk").doesNotContain("\n");
  }

  @Test
  void aMissingContainerOutsideShutdownIsStillSaid() {
    assertThat(ServerRegistry.uncaughtLine(HOOK, new NotFoundException("No such container: 6ffc"), false))
        .contains("No such container: 6ffc");
  }
}
