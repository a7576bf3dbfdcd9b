package dev.fairbench.conformance;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Everything one run of the suite against one server found, clause by clause, in SPEC order. */
public record SuiteReport(URI target, Instant startedAt, Duration took, List<ClauseResult> clauses) {
  public SuiteReport {
    clauses = List.copyOf(clauses);
  }

  /** The worst verdict of any clause: FAIL gates the benchmark. */
  public Verdict overall() {
    return clauses.stream().map(ClauseResult::verdict).reduce(Verdict.PASS, Verdict::worst);
  }

  public List<ClauseResult> withVerdict(Verdict verdict) {
    return clauses.stream().filter(c -> c.verdict() == verdict).toList();
  }
}
