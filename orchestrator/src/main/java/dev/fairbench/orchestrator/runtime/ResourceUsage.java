package dev.fairbench.orchestrator.runtime;

/**
 * The server's resource use since it started.
 *
 * @param cpuSeconds        CPU time of every process of the server (user + system)
 * @param peakRssBytes      the sum of the peak resident set sizes (VmHWM) of the server's processes
 * @param memoryPeakBytes   the peak memory use of its cgroup (includes page cache), -1 when unknown
 * @param source            where the figures come from, e.g. "cgroup-v1" or "proc"
 */
public record ResourceUsage(double cpuSeconds, long peakRssBytes, long memoryPeakBytes, String source) {}
