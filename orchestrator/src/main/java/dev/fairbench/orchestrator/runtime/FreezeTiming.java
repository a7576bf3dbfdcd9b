package dev.fairbench.orchestrator.runtime;

import java.time.Duration;

/** How long a freeze or a thaw took to be confirmed, and by which mechanism. */
public record FreezeTiming(Duration took, String mechanism) {}
