package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.HttpTarget;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Order(4)
@DisplayName("4. POST /validate: request media type and size")
@ExtendWith(TargetExtension.class)
class ValidateMediaTypeAndSizeTest {
  private static final byte[] VALID = "{\"name\":\"Ada\",\"age\":36}".getBytes(StandardCharsets.UTF_8);

  private final HttpTarget server;

  ValidateMediaTypeAndSizeTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("4.1")
  @DisplayName("Content-Type: application/json is accepted")
  void applicationJsonIsAccepted() {
    Expect.accepted(server.postValidate("application/json", VALID), "Ada", 36);
  }

  @ParameterizedTest(name = "Content-Type: {0}")
  @ValueSource(strings = {"application/json; charset=utf-8", "application/json;charset=UTF-8"})
  @Clause("4.2")
  @DisplayName("parameters are allowed: application/json; charset=utf-8 is accepted")
  void charsetParameterIsAccepted(String contentType) {
    Expect.accepted(server.postValidate(contentType, VALID), "Ada", 36);
  }

  @ParameterizedTest(name = "Content-Type: {0}")
  @ValueSource(strings = {"Application/JSON", "APPLICATION/JSON"})
  @Clause("4.3")
  @DisplayName("the media type is case-insensitive: Application/JSON is accepted")
  void mediaTypeIsCaseInsensitive(String contentType) {
    Expect.accepted(server.postValidate(contentType, VALID), "Ada", 36);
  }

  @ParameterizedTest(name = "Content-Type: {0}")
  @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/jsonx", "multipart/form-data; boundary=x"})
  @Clause("4.4")
  @DisplayName("any other media type answers an error response with status 415, whatever the body holds")
  void otherMediaTypeAnswers415(String contentType) {
    Expect.errorResponse(server.postValidate(contentType, VALID), 415);
  }

  @Test
  @Clause("4.5")
  @DisplayName("a request without Content-Type answers an error response with status 415")
  void missingContentTypeAnswers415() {
    Expect.errorResponse(server.postValidate(null, VALID), 415);
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {Json.MIB + 1, 3 * Json.MIB})
  @Clause("4.6")
  @DisplayName("a body over 1 MiB answers an error response with status 413, and the server stays up")
  void bodyOverOneMebibyteAnswers413(int size) {
    // Over a raw socket: the server may answer and close before reading the whole body.
    Expect.errorResponse(server.postRaw("/validate", "application/json", Json.validBodyOfSize(size)), 413);
    Expect.stillUp(server, "a " + size + "-byte body");
  }

  @Test
  @Clause("4.7")
  @DisplayName("a valid body of exactly 1 MiB is accepted: the limit is over, not at, 1 MiB")
  void bodyOfExactlyOneMebibyteIsAccepted() {
    Expect.accepted(server.postValidate("application/json", Json.validBodyOfSize(Json.MIB)), "a", 1);
  }
}
