package dev.fairbench.conformance.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseHeadSyntaxTest {
  private static final Instant NOW = Instant.parse("2026-12-05T00:30:00Z");
  private static final String DATE = "Sat, 05 Dec 2026 00:29:59 GMT";

  private static List<String> faults(String head) {
    return ResponseHeadSyntax.faults(head.getBytes(StandardCharsets.ISO_8859_1), NOW);
  }

  @Test
  void aWellFormedHeadHasNoFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: " + DATE + "\r\nContent-Length: 13\r\n\r\n")).isEmpty();
  }

  @Test
  void anEmptyReasonNeedsNoPhraseButKeepsItsSpace() {
    assertThat(faults("HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n")).isEmpty();
    assertThat(faults("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n")).singleElement().asString().contains("status line");
  }

  @Test
  void aHeadWithoutADateIsWellFormed() {
    assertThat(faults("HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n")).isEmpty();
  }

  @Test
  void valuesMayHoldTabsSpacesAndObsText() {
    assertThat(faults("HTTP/1.1 200 OK\r\nX-A: a\tb  c \u00e9\r\n\r\n")).isEmpty();
  }

  @Test
  void bareLineFeedsAreOneFaultThatCountsThem() {
    assertThat(faults("HTTP/1.1 200 OK\nContent-Length: 0\r\nServer: x\n\n"))
        .singleElement().asString().startsWith("3 of 4 lines end in a bare LF, the first line 1");
  }

  @Test
  void aBareCarriageReturnInALineIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n")).anySatisfy(f -> assertThat(f).startsWith("a bare CR in line 2"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"HTTP/1.0 200 OK", "HTTP/2 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1  200 OK",
      "http/1.1 200 OK", "HTTP/1.1 200 O\u0001K", "HTTP/1.1 600 Custom"})
  void aStatusLineOtherThanHttp11ThreeDigitsAndAReasonIsAFault(String statusLine) {
    assertThat(faults(statusLine + "\r\nContent-Length: 0\r\n\r\n")).singleElement().asString().contains("status line");
  }

  @Test
  void whitespaceBeforeTheColonIsNamed() {
    assertThat(faults("HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n"))
        .singleElement().asString().startsWith("whitespace between the field name `Content-Length` and its colon");
  }

  @Test
  void aNameThatIsNotATokenIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nX(A): 1\r\n\r\n")).singleElement().asString().contains("is not a token");
    assertThat(faults("HTTP/1.1 200 OK\r\n: 1\r\n\r\n")).singleElement().asString().contains("is not a token");
  }

  @Test
  void aLineWithoutAColonIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nContent-Length 0\r\n\r\n")).singleElement().asString().contains("is not `name: value`");
  }

  @Test
  void obsoleteLineFoldingIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\n\r\n")).singleElement().asString().contains("obsolete line folding");
  }

  @Test
  void aControlByteInAValueIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\n\r\n")).singleElement().asString()
        .isEqualTo("the value of X-A holds the control byte 0x00 (RFC 9110 §5.5)");
    assertThat(faults("HTTP/1.1 200 OK\r\nX-A: a\u007Fb\r\n\r\n")).singleElement().asString().contains("0x7F");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Saturday, 05-Dec-26 00:29:59 GMT", "Sat Dec  5 00:29:59 2026", "Sat, 5 Dec 2026 00:29:59 GMT",
      "Sat, 05 Dec 2026 00:29:59 UTC", "sat, 05 dec 2026 00:29:59 GMT", "Sat, 05 Dec 2026 00:29:59 +0000", "1796430599", ""})
  void aDateInAnotherFormatThanImfFixdateIsAFault(String date) {
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: " + date + "\r\n\r\n")).singleElement().asString().contains("is not in IMF-fixdate");
  }

  @Test
  void aDateWhoseDayNameIsWrongIsNotADate() {
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Mon, 05 Dec 2026 00:29:59 GMT\r\n\r\n"))
        .singleElement().asString().contains("is not a date");
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Sat, 32 Dec 2026 00:29:59 GMT\r\n\r\n"))
        .singleElement().asString().contains("is not a date");
  }

  @Test
  void aDateMoreThanADayFromTheClockIsAFaultButWithinADayIsNot() {
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Fri, 04 Dec 2026 01:00:00 GMT\r\n\r\n")).isEmpty();
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Thu, 03 Dec 2026 00:00:00 GMT\r\n\r\n"))
        .singleElement().asString().contains("is 48 hours behind the suite's clock");
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\n"))
        .singleElement().asString().contains("behind the suite's clock");
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: Mon, 07 Dec 2026 00:30:00 GMT\r\n\r\n"))
        .singleElement().asString().contains("ahead of the suite's clock");
  }

  @Test
  void aDateSentTwiceIsAFault() {
    assertThat(faults("HTTP/1.1 200 OK\r\nDate: " + DATE + "\r\ndate: " + DATE + "\r\n\r\n"))
        .singleElement().asString().isEqualTo("Date sent 2 times (RFC 9110 §6.6.1: one value)");
  }
}
