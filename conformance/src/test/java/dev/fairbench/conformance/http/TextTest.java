package dev.fairbench.conformance.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextTest {
  @Test
  void escapesControlCharactersAndKeepsUnicode() {
    assertThat(Text.preview("a\nb\t\u0000 é 😀", 100)).isEqualTo("a\\nb\\t\\u0000 é 😀");
  }

  @Test
  void showsInvisibleCharactersAsEscapes() {
    assertThat(Text.preview("\uFEFF{}\u200B", 100)).isEqualTo("\\uFEFF{}\\u200B");
  }

  @Test
  void saysWhenTwoTextsDifferOnlyInTheirUnicodeNormalization() {
    assertThat(Text.normalizationHint("caf\u00E9", "cafe\u0301"))
        .isEqualTo(" (the same text in another Unicode normalization: cafe\\u0301 instead of caf\\u00E9)");
    assertThat(Text.normalizationHint("caf\u00E9", "caf\u00E9")).as("the same").isEmpty();
    assertThat(Text.normalizationHint("caf\u00E9", "cafe")).as("other text").isEmpty();
  }

  @Test
  void showsInvalidUtf8ByteByByte() {
    assertThat(Text.preview(new byte[] {'a', (byte) 0xff, '"'}, 100)).isEqualTo("a\\xFF\"");
  }

  @Test
  void cutsLongTextAndSaysHowBigItWas() {
    byte[] bytes = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
    assertThat(Text.preview(bytes, 5)).isEqualTo("xxxxx… (1000 bytes)");
  }

  @Test
  void saysADurationInSecondsOrMinutesAsAReaderWould() {
    assertThat(Text.duration(java.time.Duration.ofSeconds(10))).isEqualTo("10 s");
    assertThat(Text.duration(java.time.Duration.ofSeconds(90))).isEqualTo("1 min 30 s");
    assertThat(Text.duration(java.time.Duration.ofMinutes(10))).isEqualTo("10 min");
    assertThat(Text.duration(java.time.Duration.ofSeconds(1234))).isEqualTo("20 min 34 s");
  }

  @Test
  void saysADurationThatIsNotWholeSecondsInMillisecondsUnderAMinute() {
    assertThat(Text.duration(java.time.Duration.ofMillis(1))).isEqualTo("1 ms");
    assertThat(Text.duration(java.time.Duration.ofMillis(1500))).isEqualTo("1500 ms");
    assertThat(Text.duration(java.time.Duration.ofMillis(2000))).isEqualTo("2 s");
  }
}
