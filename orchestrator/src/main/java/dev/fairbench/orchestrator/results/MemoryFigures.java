package dev.fairbench.orchestrator.results;

/**
 * What a server holds in memory, each physical page counted once across its processes (the
 * cgroup's anonymous memory, or summed Pss_Anon without a cgroup; see runtime.MemoryReading).
 *
 * @param idleBytes        right after the start, every endpoint answered once, nothing else sent; -1 unknown
 * @param afterWarmupBytes after the warm-up
 * @param peakBytes        the largest reading, idle and warm-up ones included, sampled every
 *                         {@code sampleMillis} while load ran
 * @param method           e.g. "cgroup-v1 memory.stat total_rss"
 * @param peakDuring       what ran while the peak was sampled: "the measured runs" or "the warm-up requests"
 * @param sampleMillis     the pause between two samples
 */
public record MemoryFigures(long idleBytes, long afterWarmupBytes, long peakBytes, String method, String peakDuring,
    long sampleMillis) {
  public MemoryFigures {
    method = method == null ? "" : method;
    peakDuring = peakDuring == null ? "" : peakDuring;
  }
}
