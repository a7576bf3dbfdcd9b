package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FairnessReviewTest {
  private final FairnessReview review = FairnessReview.of(ResultsFixtures.mixed(), Map.of(
      "steady-entry", new EntryFacts("steady", List.of("release build"), List.of("checks keys by hand: the binder is case-insensitive"))));

  @Test
  void eachEntryShowsLimitsAppliedAndWorkersObserved() {
    assertThat(review.entries()).hasSize(3);
    assertThat(review.entries().get(0).limitsApplied()).contains("server CPUs 1").contains("512 MiB").contains("WORKERS=1");
    assertThat(review.entries().get(0).workersObserved()).startsWith("1 thread(s) busy under load for WORKERS=1");
    assertThat(review.entries().get(2).workersMatch()).isFalse();
  }

  @Test
  void departuresAndProductionFactsComeFromTheManifest() {
    String md = review.toMarkdown();
    assertThat(md).contains("Production mode: release build").contains("  - checks keys by hand: the binder is case-insensitive");
  }

  @Test
  void conformanceWarningsAndRunQualityDoubtsAreListed() {
    String md = review.toMarkdown();
    assertThat(md).contains("  - 7.10: 30.0 answered 400 (integral floats rejected)");
    assertThat(md).contains("  - /plaintext: client-bound").contains("  - /json: invalid");
    assertThat(md).contains("Status: unavailable — dependencies not fetched: hex.pm is unreachable");
  }
}
