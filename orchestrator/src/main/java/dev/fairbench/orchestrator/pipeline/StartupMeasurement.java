package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.results.MemoryFigures;
import dev.fairbench.orchestrator.results.SizeFigures;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.results.StartupFigures.StartTime;
import dev.fairbench.orchestrator.runtime.BuildOutput;
import dev.fairbench.orchestrator.runtime.ImageSize;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Start times, memory and size of one entry variant. The variant must have been built in this run
 * (the pipeline's first {@link ServerRuntime#start} does it): every launch here is
 * {@link ServerRuntime#startBuilt}, a fresh process or container each time.
 *
 * <p>A start time runs from {@link RunningServer#launchedAt()} (the start command's launch, or the
 * container's creation and start) to the first correct answer (the body {@link CorrectnessCheck}
 * expects) of each endpoint. One thread per endpoint tries it from just before the launch, every
 * {@value #POLL_MILLIS} ms: that is the resolution. The warm starts follow the build, so the page
 * cache holds the program; the cold start drops the page cache first ({@code sync; echo 3 >
 * /proc/sys/vm/drop_caches}, root only; it slows every process on the machine for a moment).
 *
 * <p>Memory: after the last warm start, idle (one second after every endpoint answered), after
 * {@link Options#warmupRequests} requests to each endpoint, and the peak of samples taken during
 * those; see {@link MemoryTracker}. The pipeline may replace them with its own server's figures
 * under load ({@link StartupFigures#withMemory}).
 *
 * <p>The orchestrator moves itself to the client CPUs while it measures and back to all its CPUs
 * afterwards: call it outside the rounds (which place it themselves).
 */
public final class StartupMeasurement {
  public static final int DEFAULT_RUNS = 5;
  public static final long POLL_MILLIS = 5;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
  private static final long IDLE_SETTLE_MILLIS = 1000;
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  /**
   * @param runs           warm starts, at least 1
   * @param cold           whether to measure a cold start too (drops the page cache of the whole machine)
   * @param warmupRequests requests to each endpoint before the after-warm-up memory reading
   */
  public record Options(int runs, boolean cold, int warmupRequests) {
    public static final Options DEFAULT = new Options(DEFAULT_RUNS, true, 200);

    public Options {
      if (runs < 1) {
        throw new IllegalArgumentException("at least one start, got " + runs);
      }
    }
  }

  private StartupMeasurement() {}

  public static StartupFigures measure(ServerRuntime runtime, EntryVariant variant, Limits limits)
      throws InterruptedException {
    return measure(runtime, variant, limits, Options.DEFAULT);
  }

  public static StartupFigures measure(ServerRuntime runtime, EntryVariant variant, Limits limits, Options options)
      throws InterruptedException {
    List<String> notes = new ArrayList<>();
    Map<String, List<Double>> warm = new LinkedHashMap<>();
    Map<String, List<Double>> cold = new LinkedHashMap<>();
    String coldNote = "";
    MemoryFigures memory = null;
    // Off the server's CPUs while it starts: the pollers must not compete with it.
    SelfPlacement.moveTo(limits.clientCpus());
    try (HttpClient client = CorrectnessCheck.client()) {
      prime(client);
      for (int i = 1; i <= options.runs(); i++) {
        Launch launch = launch(runtime, variant, limits, client);
        if (launch.problem != null) {
          notes.add("warm start " + i + ": " + launch.problem);
          break;
        }
        try {
          launch.addTo(warm);
          if (i == options.runs()) {
            memory = memoryOf(launch.server, client, options.warmupRequests());
          }
        } finally {
          launch.server.close();
        }
      }
      if (!options.cold()) {
        coldNote = "not measured";
      } else {
        Optional<String> refused = dropPageCache();
        if (refused.isPresent()) {
          coldNote = refused.get();
        } else {
          Launch launch = launch(runtime, variant, limits, client);
          if (launch.problem != null) {
            notes.add("cold start: " + launch.problem);
          } else {
            launch.addTo(cold);
            launch.server.close();
          }
        }
      }
    } finally {
      SelfPlacement.restore();
    }
    return new StartupFigures(runtime.name(), POLL_MILLIS, times(warm), times(cold), coldNote, memory,
        sizeOf(runtime, variant), String.join("; ", notes));
  }

  /** The image (Docker) or the build output (natively) of a built variant. */
  public static SizeFigures sizeOf(ServerRuntime runtime, EntryVariant variant) {
    java.util.Optional<ImageSize> imageSize = runtime.imageSize(variant);
    if (imageSize.isPresent()) {
      ImageSize image = imageSize.get();
      return new SizeFigures(image.bytes(), image.baseImage(), image.layersAboveBase(), image.bytesAboveBase(), -1,
          Map.of(), "docker image inspect .Size (uncompressed); base: the local image sharing the longest layer prefix",
          image.note());
    }
    BuildOutput output = BuildOutput.measure(variant.dir());
    return new SizeFigures(-1, "", 0, -1, output.bytes(), output.paths(), output.method(), "");
  }

  private static Map<String, StartTime> times(Map<String, List<Double>> millis) {
    Map<String, StartTime> out = new LinkedHashMap<>();
    millis.forEach((key, values) -> out.put(key, StartTime.of(values)));
    return out;
  }

  /** One request to a closed port, so the client's classes are loaded before the first launch is timed. */
  private static void prime(HttpClient client) throws InterruptedException {
    CorrectnessCheck.check(client, URI.create("http://127.0.0.1:" + Pipeline.freePort()), Endpoint.PLAINTEXT, REQUEST_TIMEOUT);
  }

  /** A started server and when each endpoint first answered correctly, or why not. */
  private record Launch(RunningServer server, Map<Endpoint, Double> millis, String problem) {
    void addTo(Map<String, List<Double>> figures) {
      double all = 0;
      for (var e : millis.entrySet()) {
        figures.computeIfAbsent(e.getKey().wireName(), k -> new ArrayList<>()).add(e.getValue());
        all = Math.max(all, e.getValue());
      }
      figures.computeIfAbsent(StartupFigures.ALL, k -> new ArrayList<>()).add(all);
    }
  }

  private static Launch launch(ServerRuntime runtime, EntryVariant variant, Limits limits, HttpClient client)
      throws InterruptedException {
    int port = Pipeline.freePort();
    URI base = URI.create("http://127.0.0.1:" + port);
    AtomicBoolean stop = new AtomicBoolean();
    long deadline = System.nanoTime() + variant.readyTimeout().toNanos() + TimeUnit.SECONDS.toNanos(10);
    Map<Endpoint, CompletableFuture<Long>> firsts = new EnumMap<>(Endpoint.class);
    Map<Endpoint, String> lastProblem = new java.util.concurrent.ConcurrentHashMap<>();
    for (Endpoint endpoint : Endpoint.values()) {
      CompletableFuture<Long> first = new CompletableFuture<>();
      firsts.put(endpoint, first);
      Thread.ofVirtual().name("start-probe-" + endpoint.wireName()).start(() -> {
        try {
          while (!stop.get() && System.nanoTime() < deadline) {
            Optional<String> wrong = CorrectnessCheck.check(client, base, endpoint, REQUEST_TIMEOUT);
            if (wrong.isEmpty()) {
              first.complete(System.nanoTime());
              return;
            }
            lastProblem.put(endpoint, wrong.get());
            Thread.sleep(POLL_MILLIS);
          }
        } catch (InterruptedException e) {
          // stopped
        }
        first.complete(-1L);
      });
    }
    long calledAt = System.nanoTime();
    RunningServer server;
    try {
      server = runtime.startBuilt(variant, limits, port);
    } catch (ServerStartException e) {
      stop.set(true);
      return new Launch(null, Map.of(), e.getMessage());
    }
    long launchedAt = server.launchedAt() >= 0 ? server.launchedAt() : calledAt;
    Map<Endpoint, Double> millis = new EnumMap<>(Endpoint.class);
    List<String> missing = new ArrayList<>();
    for (var entry : firsts.entrySet()) {
      long at;
      try {
        at = entry.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        at = -1;
      }
      if (at < 0) {
        missing.add(entry.getKey().wireName() + " (" + lastProblem.getOrDefault(entry.getKey(), "no answer") + ")");
      } else {
        millis.put(entry.getKey(), Math.max(0, at - launchedAt) / 1e6);
      }
    }
    stop.set(true);
    if (!missing.isEmpty()) {
      server.close();
      return new Launch(null, Map.of(), "no correct answer from " + String.join(", ", missing));
    }
    return new Launch(server, millis, null);
  }

  private static MemoryFigures memoryOf(RunningServer server, HttpClient client, int requests) throws InterruptedException {
    MemoryTracker tracker = new MemoryTracker(server);
    Thread.sleep(IDLE_SETTLE_MILLIS);
    tracker.idle();
    tracker.watch();
    try {
      for (Endpoint endpoint : Endpoint.values()) {
        for (int i = 0; i < requests; i++) {
          CorrectnessCheck.check(client, server.baseUrl(), endpoint, REQUEST_TIMEOUT);
        }
      }
    } finally {
      tracker.unwatch();
    }
    tracker.warm();
    return tracker.figures(String.format(Locale.ROOT, "the warm-up requests (%d per endpoint, one at a time)", requests));
  }

  /** Empty when the page cache was dropped; otherwise why it could not be ("unavailable: not root"). */
  static Optional<String> dropPageCache() throws InterruptedException {
    if (!isRoot()) {
      return Optional.of("unavailable: not root");
    }
    try {
      Process sync = new ProcessBuilder("sync").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!sync.waitFor(60, TimeUnit.SECONDS)) {
        sync.destroyForcibly();
        return Optional.of("unavailable: sync did not finish within 60 s");
      }
      Files.writeString(DROP_CACHES, "3");
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("unavailable: cannot drop the page cache (" + e.getMessage() + ")");
    }
  }

  static boolean isRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.substring(4).trim().split("\\s+")[1].equals("0"); // the effective uid
        }
      }
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      // not Linux, or unreadable
    }
    return false;
  }
}
