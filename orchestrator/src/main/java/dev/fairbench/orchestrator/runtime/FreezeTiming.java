package dev.fairbench.orchestrator.runtime;

import java.time.Duration;

/**
 * How long a freeze or thaw took, from the request until the kernel or the engine reported the
 * new state, and how it was done.
 *
 * @param took      from the request until the state was confirmed
 * @param mechanism "cgroup-v1-freezer", "cgroup-v2-freeze", "docker-pause" or "sigstop"
 */
public record FreezeTiming(Duration took, String mechanism) {}
