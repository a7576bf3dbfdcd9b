package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.orchestrator.stats.Interval;

/**
 * Derived from the counted runs of one cell.
 *
 * @param runs               counted runs
 * @param medianRequestsPerSecond median req/s (for a rate cell: the achieved rate)
 * @param requestsPerSecondInterval distribution-free 95% confidence interval of that median; null with too few runs
 * @param cv                 coefficient of variation of req/s across runs
 * @param microsPerRequest   1e6 / median req/s
 * @param cpuMicrosPerRequest median over runs of server CPU-µs per request
 * @param cpuInterval        95% confidence interval of that median; null with too few runs
 * @param p50Micros          median over runs of p50 latency; null (left out of the file) when no run has latency
 *                           figures: a pipelined cell ({@link RunRecord#latencyMicros()})
 * @param p99Micros          median over runs of p99 latency; null as p50Micros
 * @param p999Micros         median over runs of p99.9 latency; null as p50Micros
 * @param peakRssBytes       the largest server peak RSS of the runs
 * @param clientCpuUtilisation the largest client utilisation of the runs
 * @param serverCpuUtilisation median over runs of the server's CPU seconds over wall seconds, per server CPU
 * @param littlesLaw         (connections ÷ mean latency) ÷ req/s, median over runs; 1 when consistent; NaN
 *                           without latency figures
 * @param errorShare         (non-2xx + socket errors) over requests, all runs
 * @param toCalibration      req/s and CPU-µs/request over the calibration server's for the same endpoint
 *                           in the same run; null when there is none
 * @param rate               a rate cell's success figures; null for throughput
 * @param rss                a constant-rate cell's memory trend after each run's warm-up part; null for a
 *                           throughput cell or runs without memory samples (left out of the file then)
 */
public record CellStats(
    int runs,
    double medianRequestsPerSecond,
    double minRequestsPerSecond,
    double maxRequestsPerSecond,
    Interval requestsPerSecondInterval,
    double cv,
    double microsPerRequest,
    double cpuMicrosPerRequest,
    Interval cpuInterval,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long p50Micros,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long p99Micros,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long p999Micros,
    long peakRssBytes,
    double clientCpuUtilisation,
    double serverCpuUtilisation,
    double littlesLaw,
    double errorShare,
    Ratios toCalibration,
    RateStats rate,
    @JsonInclude(JsonInclude.Include.NON_NULL) RssTrend rss) {

  /** Without a memory trend. */
  public CellStats(int runs, double medianRequestsPerSecond, double minRequestsPerSecond, double maxRequestsPerSecond,
      Interval requestsPerSecondInterval, double cv, double microsPerRequest, double cpuMicrosPerRequest,
      Interval cpuInterval, Long p50Micros, Long p99Micros, Long p999Micros, long peakRssBytes,
      double clientCpuUtilisation, double serverCpuUtilisation, double littlesLaw, double errorShare,
      Ratios toCalibration, RateStats rate) {
    this(runs, medianRequestsPerSecond, minRequestsPerSecond, maxRequestsPerSecond, requestsPerSecondInterval, cv,
        microsPerRequest, cpuMicrosPerRequest, cpuInterval, p50Micros, p99Micros, p999Micros, peakRssBytes,
        clientCpuUtilisation, serverCpuUtilisation, littlesLaw, errorShare, toCalibration, rate, null);
  }

  /** A cell's figures as ratios to the calibration server's (higher req/s ratio, lower CPU ratio is better). */
  public record Ratios(double requestsPerSecond, double cpuMicrosPerRequest) {}

  /**
   * @param targetRate     requests per second asked for (median over runs; the same in every run)
   * @param successRate    ok ÷ (scheduled − cutAtDeadline), all runs together
   * @param scheduled      scheduled requests, all runs
   * @param ok             200 responses, all runs
   * @param otherStatuses  responses with another status, all runs
   * @param clientErrors   requests sent without a response, all runs
   * @param unsent         scheduled requests never sent, all runs, less those cut at the deadline
   * @param cutAtDeadline  unsent requests due in each run's last 10 ms, the client's end of the run
   *                       ({@link RunRecord.RateRecord#cutAtDeadline()}); not held against the server
   */
  public record RateStats(double targetRate, double successRate, long scheduled, long ok, long otherStatuses,
      long clientErrors, long unsent, long cutAtDeadline) {}

  /**
   * How the server's memory moved during a constant-rate cell's measured runs, after each run's warm-up
   * part (its first third: garbage-collected runtimes grow towards their heap target first; see
   * docs/ORCHESTRATOR.md, "Soak"). Each figure is the median over the counted runs with samples.
   *
   * @param slopeMibPerMinute Theil–Sen slope of the memory samples over time, in MiB per minute
   * @param windowSeconds     the length of the part after the warm-up the slope is taken over
   * @param warmupSeconds     the part of each run left out before it
   * @param startBytes        the fitted memory at the window's start
   * @param growthShare       slope × window ÷ start: how much the memory grew over the window, as a share of where it began
   * @param runs              the runs it is taken from
   */
  public record RssTrend(double slopeMibPerMinute, double windowSeconds, double warmupSeconds, long startBytes,
      double growthShare, int runs) {}
}
