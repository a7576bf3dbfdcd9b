package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;

class VerdictListenerTest {
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
