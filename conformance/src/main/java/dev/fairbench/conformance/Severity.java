package dev.fairbench.conformance;

/** How a clause of docs/SPEC.md is judged. */
public enum Severity {
  /** A violation fails the clause, and the entry is not benchmarked. */
  FAIL,
  /** Implementation-defined: the preferred behaviour passes, the tolerated one warns, anything else fails. */
  WARN
}
