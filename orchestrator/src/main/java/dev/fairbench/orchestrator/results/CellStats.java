package dev.fairbench.orchestrator.results;

/**
 * Derived from the measured runs of one cell.
 *
 * @param cv                 coefficient of variation of req/s across runs
 * @param microsPerRequest   1e6 / median req/s
 * @param cpuMicrosPerRequest median over runs of server CPU-µs per request
 * @param p50Micros          median over runs of p50 latency
 * @param p99Micros          median over runs of p99 latency
 * @param peakRssBytes       the largest server peak RSS of the runs
 * @param clientCpuUtilisation the largest client utilisation of the runs
 */
public record CellStats(
    double medianRequestsPerSecond,
    double minRequestsPerSecond,
    double maxRequestsPerSecond,
    double cv,
    double microsPerRequest,
    double cpuMicrosPerRequest,
    long p50Micros,
    long p99Micros,
    long peakRssBytes,
    double clientCpuUtilisation,
    boolean clientBound,
    boolean invalid) {}
