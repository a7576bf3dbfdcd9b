package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.suite.Clause;
import dev.fairbench.conformance.suite.ImplementationDefined;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests with known outcomes for {@link VerdictListenerTest}. Not named *Test, so surefire does not
 * run it on its own; it runs only when selected.
 */
class VerdictFixture {
  @Test
  @Clause("1.1")
  void passes() {}

  @Test
  @Clause(value = "7.10", severity = Severity.WARN)
  void takesTheToleratedChoice() {
    throw new ImplementationDefined("answered 400 (tolerated)");
  }

  @Test
  @Clause("1.2")
  void claimsImplementationDefinedInAFailClause() {
    throw new ImplementationDefined("not allowed here");
  }

  @Test
  @Clause(value = "8.5", severity = Severity.WARN)
  void isAbortedSomeOtherWay() {
    Assumptions.abort("an assumption did not hold");
  }

  @Test
  @Clause("2.1")
  void failsAnAssertion() {
    assertThat(200).as("GET /x: expected status 404, got 200").isEqualTo(404);
  }

  @Test
  @Clause("2.2")
  void breaks() {
    throw new IllegalStateException("a bug in the check");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  @Clause("3.2")
  void failsOnceInThree(int n) {
    assertThat(n).as("case %d failed", n).isNotEqualTo(2);
  }
}
