package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.load.ConstantRateResult;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.results.RunRecord.Disturbance;
import dev.fairbench.orchestrator.results.RunRecord.RateRecord;
import dev.fairbench.orchestrator.runtime.ResourceUsage;
import java.time.Duration;
import java.util.Map;

/** A constant-rate run as a {@link RunRecord}: every scheduled request counted, sent or not. */
final class RateRuns {
  /** Client CPU at or above this share of its core: the client's own limit, not the server's. */
  static final double CLIENT_SATURATED = 0.90;

  private RateRuns() {}

  static RunRecord record(int round, int visit, double targetRate, Duration duration, int connections,
      ConstantRateResult result, double serverCpuSeconds, ResourceUsage after, Disturbance disturbance) {
    long scheduled = Math.round(targetRate * duration.toMillis() / 1e3);
    long unsent = Math.max(0, scheduled - result.sent());
    // oha keeps at most one request in flight per connection: unsent requests with every connection busy
    // (Little: rate × latency ≥ connections), or with oha's CPU at the wall, are the client's limit.
    double meanLatencySeconds = result.latency() == null ? 0 : result.latency().mean() / 1e6;
    boolean connectionsFull = targetRate * meanLatencySeconds >= connections * 0.9;
    long cut = RateRecord.cutAtDeadline(unsent, targetRate);
    boolean clientLimited = unsent > cut && (connectionsFull || result.clientCpuUtilisation() >= CLIENT_SATURATED);
    Map<String, Long> statuses = result.statusCountsByName();
    long non2xx = result.otherStatuses();
    long errors = result.errors();
    RateRecord rate = new RateRecord(targetRate, scheduled, result.sent(), result.ok(), statuses, result.errorCounts(),
        unsent, clientLimited, scheduled - cut == 0 ? 0 : (double) result.ok() / (scheduled - cut), result.achievedRate());
    ConstantRateResult.Latency l = result.latency();
    RunRecord.LatencyRecord latency = l == null ? null
        : new RunRecord.LatencyRecord(l.p50(), l.p90(), l.p99(), l.p999(), l.max(), l.mean());
    return new RunRecord(round, visit, true, result.completed(), result.durationSeconds(), result.achievedRate(),
        result.bodyBytes(),
        non2xx, new RunRecord.SocketErrors(0, errors, 0, 0), latency, serverCpuSeconds, after.peakRssBytes(),
        after.memoryPeakBytes(), result.clientCpuSeconds(), result.clientCpuUtilisation(), disturbance, rate);
  }
}
