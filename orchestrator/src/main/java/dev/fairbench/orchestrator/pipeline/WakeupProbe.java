package dev.fairbench.orchestrator.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How fast a task on the load client's CPUs wakes one on the server's: one byte at a time written to
 * {@code cat} pinned to the server's CPUs and read back, round trips per second. Each round trip is two
 * cross-CPU wake-ups, the step every request of a loopback benchmark takes twice. On this kind of VM
 * the machine slows for tens of seconds at a time in a way neither steal nor hashing shows, and wrk's
 * requests per second fall with these round trips (correlation 0.82 over 343 one-second runs against
 * nginx, docs/ORCHESTRATOR.md, "Slow wake-ups"). Read while every server is frozen.
 */
final class WakeupProbe implements AutoCloseable {
  /** 2,000 round trips: 60–100 ms here, a few times the noise of one reading. */
  static final int ROUND_TRIPS = 2_000;

  private final Process echo;
  private final OutputStream toEcho;
  private final InputStream fromEcho;
  private final int roundTrips;

  private WakeupProbe(Process echo, int roundTrips) {
    this.echo = echo;
    this.toEcho = echo.getOutputStream();
    this.fromEcho = echo.getInputStream();
    this.roundTrips = roundTrips;
  }

  /** Empty when taskset or cat cannot run here, or the echo does not answer. */
  static Optional<WakeupProbe> create(String serverCpus) {
    return create(serverCpus, ROUND_TRIPS);
  }

  static Optional<WakeupProbe> create(String serverCpus, int roundTrips) {
    try {
      Process echo = new ProcessBuilder(List.of("taskset", "-c", serverCpus, "cat"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      WakeupProbe probe = new WakeupProbe(echo, roundTrips);
      if (probe.read() > 0) {
        return Optional.of(probe);
      }
      probe.close();
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Round trips per second; -1 when the echo has gone. */
  double read() {
    try {
      long started = System.nanoTime();
      for (int i = 0; i < roundTrips; i++) {
        toEcho.write(i);
        toEcho.flush();
        if (fromEcho.read() < 0) {
          return -1;
        }
      }
      return roundTrips / ((System.nanoTime() - started) / 1e9);
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    try {
      toEcho.close();
      if (!echo.waitFor(2, TimeUnit.SECONDS)) {
        echo.destroyForcibly();
      }
    } catch (IOException e) {
      echo.destroyForcibly();
    } catch (InterruptedException e) {
      echo.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
