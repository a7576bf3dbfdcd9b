package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;

class VerdictListenerTest {
  private static Map<String, ClauseResult> results;

  @BeforeAll
  static void runTheFixture() {
    VerdictListener listener = new VerdictListener();
    ConformanceSuite.launcher().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(VerdictFixture.class))
        .enableImplicitConfigurationParameters(false)
        .build(), listener);
    results = listener.report(URI.create("http://fixture"), Instant.now(), Duration.ZERO).clauses().stream()
        .collect(Collectors.toMap(ClauseResult::id, Function.identity()));
  }

  @Test
  void aSuccessfulTestPasses() {
    assertThat(results.get("1.1").verdict()).isEqualTo(Verdict.PASS);
    assertThat(results.get("1.1").findings()).isEmpty();
  }

  @Test
  void implementationDefinedInAWarnClauseWarnsWithItsReason() {
    assertThat(results.get("7.10").verdict()).isEqualTo(Verdict.WARN);
    assertThat(results.get("7.10").findings()).containsExactly("answered 400 (tolerated)");
  }

  @Test
  void implementationDefinedInAFailClauseFails() {
    assertThat(results.get("1.2").verdict()).isEqualTo(Verdict.FAIL);
  }

  @Test
  void anyOtherAbortFails() {
    assertThat(results.get("8.5").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(results.get("8.5").findings()).singleElement().asString().contains("an assumption did not hold");
  }

  @Test
  void aFailedAssertionFailsWithItsDescriptionAsTheFinding() {
    assertThat(results.get("2.1").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(results.get("2.1").findings()).containsExactly("GET /x: expected status 404, got 200");
  }

  @Test
  void aBrokenCheckFailsNamingTheTestAndTheException() {
    assertThat(results.get("2.2").findings()).singleElement().asString()
        .contains("breaks()", "IllegalStateException", "a bug in the check");
  }

  @Test
  void aClauseIsTheWorstOfItsTestsWithOneFindingPerNonPassingTest() {
    assertThat(results.get("3.2").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(results.get("3.2").findings()).containsExactly("case 2 failed");
  }

  @Test
  void aClauseWithoutAnyTestFails() {
    assertThat(results.get("12.2").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(results.get("12.2").findings()).containsExactly("no check of this clause ran");
  }

  @Test
  void anAssertjDescriptionIsTheWholeFinding() {
    Throwable thrown = catchThrowable(() -> assertThat(200)
        .as("POST /validate {\"age\":\"30\"}: expected status 400, got %s", "200 application/json {\"a\":[1]}")
        .isEqualTo(400));
    assertThat(thrown).isInstanceOf(AssertionError.class);
    assertThat(VerdictListener.oneLine(thrown.getMessage()))
        .isEqualTo("POST /validate {\"age\":\"30\"}: expected status 400, got 200 application/json {\"a\":[1]}");
  }

  @Test
  void otherMessagesAreFoldedOntoOneLine() {
    assertThat(VerdictListener.oneLine("first\n  second\r\nthird")).isEqualTo("first second third");
    assertThat(VerdictListener.oneLine(null)).isEqualTo("(no message)");
  }
}
