package dev.fairbench.conformance;

/** The outcome of one clause against one server. Ordered from best to worst. */
public enum Verdict {
  PASS,
  /** An implementation-defined clause where the server took the tolerated, not the preferred, choice. */
  WARN,
  FAIL;

  public Verdict worst(Verdict other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
