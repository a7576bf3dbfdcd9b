package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CorrectServerTest {
  @Test
  void correctServerPassesEveryClause() throws Exception {
    try (FaultyServer server = FaultyServer.correct()) {
      SuiteReport report = ConformanceSuite.run(server.url());
      System.out.println(ConformanceReports.table(report));
      assertThat(report.overall()).isEqualTo(Verdict.PASS);
    }
  }
}
