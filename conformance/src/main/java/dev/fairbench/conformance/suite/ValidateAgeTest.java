package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(7)
@DisplayName("7. POST /validate: age")
@ExtendWith(TargetExtension.class)
class ValidateAgeTest {
  private final HttpTarget server;

  ValidateAgeTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("7.1")
  @DisplayName("a missing age answers 400")
  void missingAgeAnswers400() {
    Expect.status(server.postJson("{\"name\":\"a\"}"), 400);
  }

  @Test
  @Clause("7.2")
  @DisplayName("the lower bound is valid: age 0")
  void ageZeroIsValid() {
    Expect.accepted(server.postJson(Json.person("a", "0")), "a", 0);
  }

  @Test
  @Clause("7.2")
  @DisplayName("the upper bound is valid: age 150")
  void age150IsValid() {
    Expect.accepted(server.postJson(Json.person("a", "150")), "a", 150);
  }

  @Test
  @Clause("7.3")
  @DisplayName("just below the lower bound is invalid: age -1 answers 400")
  void ageMinusOneAnswers400() {
    Expect.status(server.postJson(Json.person("a", "-1")), 400);
  }

  @Test
  @Clause("7.3")
  @DisplayName("just above the upper bound is invalid: age 151 answers 400")
  void age151Answers400() {
    Expect.status(server.postJson(Json.person("a", "151")), 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"\"30\"", "\"abc\"", "\"\"", "\"30.0\""})
  @Clause("7.4")
  @DisplayName("a string, even a numeric one, answers 400")
  void stringAgeAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"true", "false"})
  @Clause("7.5")
  @DisplayName("a boolean answers 400")
  void booleanAgeAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }

  @Test
  @Clause("7.6")
  @DisplayName("null answers 400")
  void nullAgeAnswers400() {
    Expect.status(server.postJson(Json.person("a", "null")), 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"[30]", "{\"value\":30}", "[]", "{}"})
  @Clause("7.7")
  @DisplayName("an array or an object answers 400")
  void arrayOrObjectAgeAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"30.5", "0.1", "149.9", "3.05e1"})
  @Clause("7.8")
  @DisplayName("a fraction answers 400")
  void fractionAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"1e400", "-1e400", "99999999999999999999", "-99999999999999999999", "18446744073709551646",
      // Exponents beyond a 64-bit integer and beyond Python's Decimal (999,999,999,999,999,999).
      "1e99999999999999999999", "-1E+1000000000000000000"})
  @Clause("7.9")
  @DisplayName("huge numbers answer 400, never 5xx")
  void hugeNumberAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }

  @ParameterizedTest(name = "age {0} is accepted as {1}")
  @CsvSource({"30.0, 30", "3e1, 30", "1.5e2, 150", "3E+1, 30"})
  @Clause(value = "7.10", severity = Severity.WARN)
  @DisplayName("an integral number written as a float is accepted as the integer; 400 is tolerated")
  void integralFloatIsAcceptedAsTheInteger(String literal, long age) {
    Exchange ex = server.postJson(Json.person("a", literal));
    if (ex.status() == 400) {
      throw new ImplementationDefined(
          ex.request() + ": answered 400 (tolerated); preferred: 200 accepting the age as " + age);
    }
    Expect.accepted(ex, "a", age);
    Expect.ageIsAJsonInteger(ex);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"30.000000000000001", "150.0000000000000000001", "1e-400", "-1e-400"})
  @Clause(value = "7.12", severity = Severity.WARN)
  @DisplayName("a fraction too fine for a 64-bit float answers 400; accepted as the integer it rounds to is tolerated")
  void fractionTooFineForADoubleAnswers400(String age) {
    Exchange ex = server.postJson(Json.person("a", age));
    if (ex.status() == 200) {
      throw new ImplementationDefined(ex.request() + ": accepted as the integer a 64-bit float rounds it to (tolerated: "
          + "RFC 8259 lets a parser limit precision); preferred: 400, it is a fraction");
    }
    Expect.status(ex, 400);
  }

  @ParameterizedTest(name = "age {0}")
  @ValueSource(strings = {"151.0", "-1.0", "1.51e2", "-1e0"})
  @Clause("7.11")
  @DisplayName("an integral float outside the bounds answers 400")
  void integralFloatOutsideTheBoundsAnswers400(String age) {
    Expect.status(server.postJson(Json.person("a", age)), 400);
  }
}
