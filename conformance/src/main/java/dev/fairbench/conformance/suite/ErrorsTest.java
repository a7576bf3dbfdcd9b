package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(9)
@DisplayName("9. Errors")
@ExtendWith(TargetExtension.class)
class ErrorsTest {
  private static final List<String> STACK_TRACE_MARKERS = List.of("Traceback", "at java.", "goroutine ", "panicked at",
      "(<anonymous>)", "node:internal", "** (");
  /** Frames of a stack without its heading: Python's, and JavaScript's (V8, JavaScriptCore) with a file and a line. */
  private static final List<Pattern> STACK_FRAMES = List.of(
      Pattern.compile("File \\\\?\"[^\"\\\\]+\\\\?\", line \\d+"),
      Pattern.compile("\\bat (?:[\\w$.<>\\[\\] ]+ )?\\(?(?:/|file:|node:|[A-Za-z]:\\\\)[^\\s()]*:\\d+:\\d+\\)?"));

  private final HttpTarget server;

  ErrorsTest(HttpTarget server) {
    this.server = server;
  }

  /** Whether the status is right is the business of the probe's own clause; here the body is judged. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Probe.class, names = {"PLAINTEXT", "JSON", "USER", "VALID_PERSON"}, mode = EnumSource.Mode.EXCLUDE)
  @Clause("9.1")
  @DisplayName("every error response is application/json with a JSON object holding a string \"error\"")
  void errorResponsesAreJsonObjectsWithAnErrorString(Probe probe) {
    Exchange ex = probe.send(server);
    if (ex.status() >= 400 && ex.status() < 500) {
      Expect.errorBody(ex);
    }
  }

  /**
   * Not only the probes: every 400, 404, 405, 413 and 415 the checks of sections 3 to 8 got (an age
   * out of range, an empty name, a fraction, invalid UTF-8...) is an error response too, and a server
   * whose range check answers {"detail": ...} while its parse errors answer {"error": ...} is seen.
   */
  @Test
  @Clause("9.1")
  @DisplayName("every error response to the checks of sections 3 to 8 is application/json with a JSON object holding a string \"error\"")
  void everyErrorResponseSoFarHasTheErrorBody() {
    List<String> wrong = new ArrayList<>();
    int judged = 0;
    for (Exchange ex : server.errorResponses()) {
      judged++;
      try {
        Expect.errorBody(ex);
      } catch (AssertionError e) {
        wrong.add(e.getMessage().lines().findFirst().orElse(""));
      }
    }
    assertThat(wrong)
        .as("%d of the %d error responses the checks of sections 3 to 8 got are not 9.1 error responses: %s", wrong.size(), judged,
            String.join("; ", wrong.subList(0, Math.min(wrong.size(), 5))) + (wrong.size() > 5 ? "; and " + (wrong.size() - 5) + " more" : ""))
        .isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Probe.class, names = {"PLAINTEXT", "JSON", "USER", "VALID_PERSON"}, mode = EnumSource.Mode.EXCLUDE)
  @Clause("9.2")
  @DisplayName("no error response leaks a stack trace")
  void errorResponsesLeakNoStackTrace(Probe probe) {
    expectNoStackTrace(probe.send(server));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"name\":\"a\",\"age\":1e400}",
      "{\"name\":\"a\",\"age\":99999999999999999999}",
      "{\"name\":{\"a\":[1,2]},\"age\":[{}]}",
      "{\"name\":\"a\",\"age\":NaN}",
      "\"just a string\""
  })
  @Clause("9.2")
  @DisplayName("no error response to a bad body leaks a stack trace")
  void badBodiesLeakNoStackTrace(String body) {
    expectNoStackTrace(server.postJson(body));
  }

  private static void expectNoStackTrace(Exchange ex) {
    String text = ex.text();
    for (String marker : STACK_TRACE_MARKERS) {
      assertThat(text)
          .as("%s: the response leaks a stack trace (contains \"%s\"): %s", ex.request(), marker.strip(), ex.summary())
          .doesNotContain(marker);
    }
    for (Pattern frame : STACK_FRAMES) {
      Matcher found = frame.matcher(text);
      assertThat(found.find() ? found.group() : null)
          .as("%s: the response leaks a stack frame: %s", ex.request(), ex.summary())
          .isNull();
    }
  }
}
