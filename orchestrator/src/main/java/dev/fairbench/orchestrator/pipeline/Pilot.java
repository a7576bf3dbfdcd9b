package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.events.RunListener;
import dev.fairbench.orchestrator.core.Endpoint;
import dev.fairbench.orchestrator.load.LoadException;
import dev.fairbench.orchestrator.load.LoadGenerator;
import dev.fairbench.orchestrator.load.LoadSpec;
import dev.fairbench.orchestrator.load.SlicedLoad;
import dev.fairbench.orchestrator.runtime.RunningServer;
import dev.fairbench.orchestrator.runtime.ServerRuntime;
import dev.fairbench.orchestrator.runtime.ServerStartException;
import dev.fairbench.orchestrator.stats.MannWhitney;
import dev.fairbench.orchestrator.stats.Statistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The method's pilot (docs/ORCHESTRATOR.md, "Pilot"): what the numbers of the method rest on,
 * measured on this machine rather than assumed. Per entry:
 *
 * <ul>
 *   <li>freeze bias: visits of the server frozen-then-thawed against visits of the same server kept
 *       running idle for the same time, interleaved in a seeded random order;
 *   <li>the re-warm curve: responses per 100 ms after a thaw, against after an idle pause unfrozen;
 *   <li>variance components: back-to-back runs (within a round), rounds of one process, and fresh
 *       processes of the same entry (JMH's forks).
 * </ul>
 */
public final class Pilot {
  private final ServerRuntime runtime;
  private final LoadGenerator wrk;
  private final Limits limits;
  private final int connections;
  private final RunListener listener;
  private final Endpoint endpoint;
  private final Duration run;
  private final Duration idle;

  public Pilot(ServerRuntime runtime, LoadGenerator wrk, Limits limits, int connections, Endpoint endpoint,
      Duration run, Duration idle, RunListener listener) {
    this.runtime = runtime;
    this.wrk = wrk;
    this.limits = limits;
    this.connections = connections;
    this.endpoint = endpoint;
    this.run = run;
    this.idle = idle;
    this.listener = listener;
  }

  /** One entry's pilot figures. */
  public record Result(String id, List<Double> frozenVisits, List<Double> runningVisits, double freezeBias,
      double freezeBiasP, List<Integer> recoveredAfterThaw, List<Integer> recoveredAfterIdle,
      List<long[]> thawCurves, double withinRoundCv, double betweenRoundsCv, double betweenInstancesCv,
      Map<Integer, List<Double>> instanceRuns) {}

  public List<Result> run(List<EntryVariant> variants, int pairs, int instances, int roundsPerInstance, long seed)
      throws InterruptedException, ServerStartException, LoadException {
    List<Result> results = new ArrayList<>();
    Map<EntryVariant, RunningServer> servers = new LinkedHashMap<>();
    boolean moved = false;
    try {
      for (EntryVariant variant : variants) {
        listener.note("[pilot] starting " + variant.id());
        RunningServer server = runtime.start(variant, limits, Pipeline.freePort());
        servers.put(variant, server);
        server.freeze();
      }
      moved = SelfPlacement.moveTo(limits.clientCpus());
      if (!moved) {
        listener.note("[pilot] note: the orchestrator could not move off the server's CPUs");
      }
      Random random = new Random(seed);
      for (EntryVariant variant : variants) {
        RunningServer server = servers.get(variant);
        server.thaw();
        listener.note("[pilot] " + variant.id() + ": warm-up");
        load(server, Duration.ofSeconds(3));
        List<Double> frozen = new ArrayList<>();
        List<Double> running = new ArrayList<>();
        for (int pair = 0; pair < pairs; pair++) {
          boolean freezeFirst = random.nextBoolean();
          for (boolean freeze : freezeFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
            if (freeze) {
              server.freeze();
            }
            Thread.sleep(idle.toMillis());
            if (freeze) {
              server.thaw();
            }
            load(server, Duration.ofSeconds(1));
            double rps = load(server, run);
            (freeze ? frozen : running).add(rps);
          }
          listener.note(String.format(Locale.ROOT, "[pilot] %s: pair %d: frozen %,.0f, kept running %,.0f req/s",
              variant.id(), frozen.size(), frozen.getLast(), running.getLast()));
        }
        List<Integer> afterThaw = new ArrayList<>();
        List<Integer> afterIdle = new ArrayList<>();
        List<long[]> curves = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          server.freeze();
          Thread.sleep(idle.toMillis());
          server.thaw();
          SlicedLoad.Curve curve = SlicedLoad.run(server.baseUrl(), endpoint.path(), 16, Duration.ofSeconds(3),
              Duration.ofMillis(100));
          curves.add(curve.counts());
          afterThaw.add(curve.recoveredAt(0.95, 10));
          Thread.sleep(idle.toMillis());
          SlicedLoad.Curve unfrozen = SlicedLoad.run(server.baseUrl(), endpoint.path(), 16, Duration.ofSeconds(3),
              Duration.ofMillis(100));
          afterIdle.add(unfrozen.recoveredAt(0.95, 10));
        }
        listener.note("[pilot] " + variant.id() + ": re-warm slices to 95% after thaw " + afterThaw + ", after idle "
            + afterIdle);
        server.freeze();
        // Fresh processes of the same entry: heap layout, JIT decisions and hash seeds differ per process.
        Map<Integer, List<Double>> byInstance = new LinkedHashMap<>();
        List<Double> pairDiffs = new ArrayList<>();
        List<Double> roundMeans = new ArrayList<>();
        List<Double> roundMeansWithinInstance = new ArrayList<>();
        double roundVariance = 0;
        int roundGroups = 0;
        for (int instance = 1; instance <= instances; instance++) {
          RunningServer fresh = instance == 1 ? server : runtime.start(variant, limits, Pipeline.freePort());
          if (instance == 1) {
            fresh.thaw();
          }
          load(fresh, Duration.ofSeconds(3));
          List<Double> runs = new ArrayList<>();
          List<Double> means = new ArrayList<>();
          for (int round = 0; round < roundsPerInstance; round++) {
            double a = load(fresh, run);
            double b = load(fresh, run);
            runs.add(a);
            runs.add(b);
            pairDiffs.add((a - b) * (a - b) / 2);
            means.add((a + b) / 2);
            fresh.freeze();
            Thread.sleep(idle.toMillis());
            fresh.thaw();
            load(fresh, Duration.ofSeconds(1));
          }
          byInstance.put(instance, runs);
          roundVariance += variance(means);
          roundGroups++;
          roundMeans.addAll(means);
          roundMeansWithinInstance.add(Statistics.mean(means));
          listener.note(String.format(Locale.ROOT, "[pilot] %s: instance %d: runs %s", variant.id(), instance,
              runs.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList()));
          fresh.close();
        }
        servers.remove(variant);
        double grand = Statistics.mean(roundMeans);
        double within = Math.sqrt(pairDiffs.stream().mapToDouble(Double::doubleValue).average().orElse(0)) / grand;
        // A round mean of two runs carries half the within variance; what is left is the rounds' own.
        double roundsOwn = Math.max(0, roundVariance / roundGroups
            - pairDiffs.stream().mapToDouble(Double::doubleValue).average().orElse(0) / 2);
        double between = Math.sqrt(roundsOwn) / grand;
        double instancesOwn = Math.max(0, variance(roundMeansWithinInstance) - roundVariance / roundGroups / roundsPerInstance);
        MannWhitney.Result test = MannWhitney.test(frozen, running);
        results.add(new Result(variant.id(), frozen, running, Statistics.median(frozen) / Statistics.median(running),
            test.pValue(), afterThaw, afterIdle, curves, within, between, Math.sqrt(instancesOwn) / grand, byInstance));
      }
      return results;
    } finally {
      for (RunningServer server : servers.values()) {
        server.close();
      }
      if (moved) {
        SelfPlacement.restore();
      }
    }
  }

  private double load(RunningServer server, Duration length) throws LoadException, InterruptedException {
    return wrk.run(new LoadSpec(server.baseUrl(), endpoint, length, connections, 1, Duration.ofSeconds(2)))
        .requestsPerSecond();
  }

  private static double variance(List<Double> values) {
    if (values.size() < 2) {
      return 0;
    }
    double mean = Statistics.mean(values);
    return values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (values.size() - 1);
  }

  /** The pilot's figures as the tables docs/ORCHESTRATOR.md quotes. */
  public static String toMarkdown(List<Result> results, String context) {
    StringBuilder md = new StringBuilder("# fairbench pilot\n\n").append(context).append("\n\n");
    md.append("## Freeze bias\n\n| entry | frozen-then-thawed median req/s | kept-running median req/s | ratio | "
        + "Mann–Whitney p | frozen runs | running runs |\n|---|---:|---:|---:|---:|---|---|\n");
    for (Result r : results) {
      md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %.3f | %.3f | %s | %s |%n", r.id(),
          Statistics.median(r.frozenVisits()), Statistics.median(r.runningVisits()), r.freezeBias(), r.freezeBiasP(),
          format(r.frozenVisits()), format(r.runningVisits())));
    }
    md.append("\n## Re-warm after thaw (100 ms slices until every later slice is at 95% of the steady state)\n\n"
        + "| entry | after thaw (3 tries) | after the same idle time unfrozen | first thawed curve (responses per slice) |\n"
        + "|---|---|---|---|\n");
    for (Result r : results) {
      md.append("| ").append(r.id()).append(" | ").append(r.recoveredAfterThaw()).append(" | ")
          .append(r.recoveredAfterIdle()).append(" | ")
          .append(java.util.Arrays.toString(java.util.Arrays.copyOf(r.thawCurves().getFirst(), 12))).append(" … |\n");
    }
    md.append("\n## Variance components (coefficients of variation)\n\n| entry | within a round (back-to-back runs) | "
        + "between rounds of one process | between fresh processes | runs per process |\n|---|---:|---:|---:|---|\n");
    for (Result r : results) {
      md.append(String.format(Locale.ROOT, "| %s | %.1f%% | %.1f%% | %.1f%% | %s |%n", r.id(), r.withinRoundCv() * 100,
          r.betweenRoundsCv() * 100, r.betweenInstancesCv() * 100,
          r.instanceRuns().values().stream().map(Pilot::format).toList()));
    }
    return md.toString();
  }

  private static String format(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList().toString();
  }
}
