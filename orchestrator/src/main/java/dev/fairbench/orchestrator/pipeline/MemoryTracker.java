package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.results.MemoryFigures;
import dev.fairbench.orchestrator.results.RunRecord.RssSample;
import dev.fairbench.orchestrator.runtime.MemoryReading;
import dev.fairbench.orchestrator.runtime.RunningServer;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory figures of one server: a reading when it is idle after its start, one after its
 * warm-up, and the largest of those and of the samples taken every {@value #SAMPLE_MILLIS} ms
 * while {@link #watch} is on (around the load). Each reading is {@link RunningServer#memory()}:
 * one figure for the whole server, never a sum of per-process peaks taken at different moments.
 * While watched it also keeps one reading every {@value #SERIES_MILLIS} ms, with its time since
 * {@link #watch}: the series a constant-rate run records for its RSS slope (docs/ORCHESTRATOR.md, "Soak").
 */
public final class MemoryTracker {
  public static final long SAMPLE_MILLIS = 50;
  /** The spacing of the kept series. */
  public static final long SERIES_MILLIS = 1000;

  private RunningServer server;
  private long idle = -1;
  private long warm = -1;
  private long peak = -1;
  private String method = "";
  private Thread sampler;
  private volatile boolean watching;
  private long watchStart;
  private long nextKeep;
  private List<RssSample> series = new ArrayList<>();

  public MemoryTracker(RunningServer server) {
    this.server = server;
  }

  /**
   * Reads from now on the server's next process (--forks): its samples go on into the same peak; the idle
   * and after-warm-up figures stay the first process's.
   */
  public synchronized void follow(RunningServer next) {
    server = next;
  }

  /** Reads the idle figure now. */
  public synchronized void idle() {
    idle = read();
  }

  /** Reads the after-warm-up figure now. */
  public synchronized void warm() {
    warm = read();
  }

  /** Starts sampling in the background until {@link #unwatch}. */
  public synchronized void watch() {
    if (watching) {
      return;
    }
    watching = true;
    watchStart = System.nanoTime();
    nextKeep = 0;
    series = new ArrayList<>();
    sampler = Thread.ofVirtual().name("memory-sampler").start(() -> {
      while (watching) {
        synchronized (this) {
          keep(read());
        }
        try {
          Thread.sleep(SAMPLE_MILLIS);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  /**
   * Stops sampling, with one last reading.
   *
   * @return the series kept since {@link #watch}: a reading at its start, then one a second
   */
  public List<RssSample> unwatch() {
    Thread thread;
    synchronized (this) {
      watching = false;
      thread = sampler;
      sampler = null;
    }
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      read();
      return List.copyOf(series);
    }
  }

  /** Keeps the reading when the next second of the series is due (the sampler runs every 50 ms). */
  private void keep(long bytes) {
    long elapsedNanos = System.nanoTime() - watchStart;
    if (bytes < 0 || elapsedNanos < nextKeep * SERIES_MILLIS * 1_000_000) {
      return;
    }
    series.add(new RssSample(Math.round(elapsedNanos / 1e7) / 100.0, bytes));
    nextKeep = elapsedNanos / (SERIES_MILLIS * 1_000_000) + 1;
  }

  /** @param peakDuring what ran while it was watched, e.g. "the measured runs" */
  public synchronized MemoryFigures figures(String peakDuring) {
    return new MemoryFigures(idle, warm, peak, method, peakDuring, SAMPLE_MILLIS);
  }

  private long read() {
    MemoryReading reading = server.memory();
    if (reading.known()) {
      method = reading.method();
      peak = Math.max(peak, reading.bytes());
    }
    return reading.bytes();
  }
}
