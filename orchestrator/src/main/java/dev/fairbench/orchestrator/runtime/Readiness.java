package dev.fairbench.orchestrator.runtime;

import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.runtime.ServerStartException.Stage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waiting until a started server answers GET /plaintext with 200, in either runtime. Tries every
 * {@value #POLL_MILLIS} ms (a refused connection costs well under a millisecond), so the moment it
 * returns is within about that of the first answer; whether the server is gone is asked at most
 * every {@value #GONE_CHECK_MILLIS} ms (for a container that is a call to the engine).
 */
final class Readiness {
  /** The pause between two tries: the resolution of {@link RunningServer#readyAt()}. */
  static final long POLL_MILLIS = 10;
  static final long GONE_CHECK_MILLIS = 100;
  private static final int TAIL_LINES = 20;

  private Readiness() {}

  /**
   * @param gone        the reason the server is gone (e.g. "exited with code 1"), empty while it runs
   * @param what        "server" or "container", for messages
   * @param notReadyHint what to try when it never answers
   * @return {@link System#nanoTime()} when the first 200 arrived
   */
  static long forPlaintext(EntryVariant variant, RunningServer server, Supplier<Optional<String>> gone, String what,
      String notReadyHint) throws ServerStartException {
    URI probe = server.baseUrl().resolve("/plaintext");
    long deadline = System.nanoTime() + variant.readyTimeout().toNanos();
    String lastProblem = "no answer yet";
    long nextGoneCheck = System.nanoTime();
    // HTTP/1.1: an HTTP/2 client adds "Upgrade: h2c" to cleartext requests, which some servers mishandle.
    try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(1)).build()) {
      while (System.nanoTime() < deadline) {
        Optional<String> why = Optional.empty();
        if (System.nanoTime() >= nextGoneCheck) {
          why = gone.get();
          nextGoneCheck = System.nanoTime() + GONE_CHECK_MILLIS * 1_000_000;
        }
        if (why.isPresent()) {
          throw new ServerStartException(Stage.EXITED_AT_START,
              variant.id() + ": the " + what + " " + why.get() + " before it was ready (log: " + server.log() + ")",
              server.logTail(TAIL_LINES));
        }
        try {
          HttpResponse<Void> response = client.send(
              HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(2)).GET().build(),
              HttpResponse.BodyHandlers.discarding());
          if (response.statusCode() == 200) {
            return System.nanoTime();
          }
          lastProblem = "GET /plaintext answered " + response.statusCode();
        } catch (IOException e) {
          lastProblem = "GET /plaintext: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new ServerStartException(Stage.NOT_READY, variant.id() + ": interrupted while waiting", "");
        }
        Commands.sleep(POLL_MILLIS);
      }
    }
    throw new ServerStartException(Stage.NOT_READY,
        variant.id() + ": not ready after " + variant.readyTimeout().toSeconds() + " s (" + lastProblem + "); "
            + notReadyHint + " (log: " + server.log() + ")",
        server.logTail(TAIL_LINES));
  }
}
