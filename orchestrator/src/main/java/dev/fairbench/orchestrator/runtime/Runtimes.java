package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.core.RuntimeKind;
import java.nio.file.Path;
import java.util.List;
import org.testcontainers.DockerClientFactory;

/** Makes the runtimes by kind, so that code outside this package never names an implementation. */
public final class Runtimes {
  private Runtimes() {}

  /** Whether this process can run servers in Docker here: the environment Testcontainers needs, and an engine. */
  public static boolean dockerUsable() {
    return DockerRuntime.engineReachable();
  }

  /**
   * A runtime of {@code kind} for servers on this machine, as {@code --runtime} names it: made at once,
   * its engine (for Docker) is checked by the run's preflight.
   *
   * @param logDir where its build and server logs go
   */
  public static ServerRuntime of(RuntimeKind kind, Path logDir) {
    return switch (kind) {
      case NATIVE -> new NativeRuntime(logDir);
      case DOCKER -> new DockerRuntime(logDir);
    };
  }

  /** Servers on another machine's Docker engine ({@code --server-host}). */
  public static ServerRuntime onEngine(Path logDir, DockerEngine engine) {
    return new DockerRuntime(logDir, engine);
  }

  /** Builds and checks entries natively without starting them: `fairbench test-entries`. */
  public static EntryBuilder nativeBuilder(Path logDir) {
    return new NativeRuntime(logDir);
  }

  /**
   * Removes the containers of orchestrators that are gone, unpausing first, and says what it did, one
   * line each ({@code fairbench cleanup}). The caller has checked {@link #dockerUsable()}.
   */
  public static List<String> removeDockerContainersOfDeadRuns() {
    return DockerRuntime.removeContainersOfDeadRuns(true);
  }

  /** An exception's message with its root cause's, for one-line errors from the Docker client. */
  public static String rootMessage(Throwable e) {
    return DockerRuntime.rootMessage(e);
  }

  /**
   * A runtime of {@code kind} for servers on this machine: a second runtime of a run, for the
   * servers its selectors put there (`go-gin@docker`).
   *
   * @param logDir where its build and server logs go
   * @throws RuntimeUnavailableException when it cannot run servers here, saying why
   */
  public static ServerRuntime local(RuntimeKind kind, Path logDir) {
    return switch (kind) {
      case NATIVE -> new NativeRuntime(logDir);
      case DOCKER -> {
        List<String> missing = DockerRuntime.missingEnvironment(System.getenv());
        if (!missing.isEmpty()) {
          throw new RuntimeUnavailableException("the docker runtime needs " + String.join(" and ", missing)
              + " in the environment (the ./fairbench launcher exports them; see docs/DOCKER.md)");
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
          throw new RuntimeUnavailableException("no Docker engine answers here; start one with scripts/docker-engine");
        }
        yield new DockerRuntime(logDir);
      }
    };
  }
}
