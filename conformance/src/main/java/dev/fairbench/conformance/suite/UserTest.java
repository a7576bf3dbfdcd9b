package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.http.Exchange;
import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.RawResponse;
import dev.fairbench.conformance.http.Text;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

@Order(3)
@DisplayName("3. GET /user/{id}")
@ExtendWith(TargetExtension.class)
class UserTest {
  private final HttpTarget server;

  UserTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("3.1")
  @DisplayName("/user/42 answers 200 application/json, exactly {\"id\":\"42\",\"name\":\"User 42\"}")
  void user42AnswersItsIdAndName() {
    Exchange ex = server.get("/user/42");
    Expect.status(ex, 200);
    Expect.mediaType(ex, "application/json");
    JsonNode body = Expect.objectWithKeys(ex, "id", "name");
    assertThat(body.path("id").isTextual() && body.path("id").asText().equals("42")
            && body.path("name").isTextual() && body.path("name").asText().equals("User 42"))
        .as("%s: expected {\"id\":\"42\",\"name\":\"User 42\"}, got %s", ex.request(), ex.summary())
        .isTrue();
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{0}\"")
  @ValueSource(strings = {"007", "-1", "3.5", "true", "null", "0", "12345678901234567890"})
  @Clause("3.2")
  @DisplayName("the id is always a JSON string, whatever it looks like")
  void idIsAlwaysAString(String id) {
    expectUser("/user/" + id, id);
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{1}\"")
  @CsvSource({
      "caf%C3%A9, café",
      "%F0%9F%98%80, 😀",
      "%E4%B8%AD%E6%96%87, 中文",
      "%22quoted%22, \"quoted\"",
      "100%2541, 100%41",
      "%25, %",
      // Nothing else is done to the segment: no matrix parameter cut, no extension, no trim, no
      // normalisation, no HTML escaping, a control character kept (and escaped in the JSON).
      "a;b, a;b",
      "42.json, 42.json",
      "%20a%20, ' a '",
      "e%CC%81, e\u0301",
      "%3Cb%3E%26, <b>&",
      "a%01b, a\u0001b"
  })
  @Clause("3.3")
  @DisplayName("the id is the path segment percent-decoded once, as UTF-8")
  void idIsPercentDecodedAsUtf8(String segment, String id) {
    expectUser("/user/" + segment, id);
  }

  @ParameterizedTest(name = "/user/{0} has the id \"{1}\"")
  @CsvSource({
      "John%20Doe, John Doe",
      "a+b, a+b",
      "%2B1, +1"
  })
  @Clause("3.4")
  @DisplayName("a percent-encoded space is decoded and + stays a literal plus")
  void encodedSpaceIsDecodedAndPlusStaysPlus(String segment, String id) {
    expectUser("/user/" + segment, id);
  }

  @ParameterizedTest(name = "{0} has the id \"42\"")
  @ValueSource(strings = {"/user/42?x=1", "/user/42?id=7&name=x"})
  @Clause("3.5")
  @DisplayName("the query string is not part of the id")
  void queryStringIsNotPartOfTheId(String path) {
    expectUser(path, "42");
  }

  @Test
  @Clause("3.6")
  @DisplayName("/user/ answers an error response with status 404")
  void userWithoutIdAnswers404() {
    Expect.errorResponse(server.get("/user/"), 404);
  }

  @Test
  @Clause("3.7")
  @DisplayName("/user/a/b answers an error response with status 404")
  void userWithTwoSegmentsAnswers404() {
    Expect.errorResponse(server.get("/user/a/b"), 404);
  }

  /**
   * The ids of clause 3.8: percent-encoded bytes that are not UTF-8, each with the valid text around
   * them. A 200 must hold that text exact and one or more U+FFFD where each invalid sequence stood
   * (decoders differ in how many: one per maximal subpart, or one per byte).
   */
  enum NotUtf8Id {
    LONE_FF("%FF", "", ""),
    TRUNCATED_TWO_BYTES("%C3", "", ""),
    TRUNCATED_AFTER_TEXT("caf%C3", "caf", ""),
    TRUNCATED_FOUR_BYTES("%F0%9F%98", "", ""),
    ENCODED_SURROGATE("%ED%A0%80", "", ""),
    OVERLONG_SLASH("a%C0%AFb", "a", "b");

    final String segment;
    final String before;
    final String after;

    NotUtf8Id(String segment, String before, String after) {
      this.segment = segment;
      this.before = before;
      this.after = after;
    }

    boolean matches(String id) {
      return id != null && Pattern.matches(Pattern.quote(before) + "\uFFFD+" + Pattern.quote(after), id);
    }

    @Override
    public String toString() {
      return "GET /user/" + segment;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(NotUtf8Id.class)
  @Clause("3.8")
  @DisplayName("an id whose percent-decoded bytes are not UTF-8 answers 400, or 200 with U+FFFD in their place")
  void idThatIsNotUtf8Answers400OrIsReplaced(NotUtf8Id request) {
    String what = request.toString();
    // Raw, so that no client library re-encodes the escapes; recorded, so 9.1 and 12.1 see the answer too.
    Exchange ex = server.sendRaw(what, server.raw().request("GET", server.target("/user/" + request.segment), null, null, true));
    if (ex.status() == 400) {
      Expect.errorResponse(ex, 400);
      return;
    }
    assertThat(ex.status())
        .as("%s: expected an error response with status 400, or 200 with U+FFFD for the bytes that are not UTF-8, got %s",
            what, ex.summary())
        .isEqualTo(200);
    assertThat(Text.strictUtf8(ex.body()))
        .as("%s: the 200 is not valid UTF-8 (the decoded bytes written raw?), got %s", what, ex.summary())
        .isNotNull();
    Expect.mediaType(ex, "application/json");
    JsonNode body = Expect.objectWithKeys(ex, "id", "name");
    String id = body.path("id").textValue();
    assertThat(request.matches(id) && body.path("name").isTextual() && body.path("name").textValue().equals("User " + id))
        .as("%s: expected the id %s with one or more U+FFFD for the invalid bytes (and \"name\" \"User \" + id), got %s",
            what, Json.quote(request.before + "\uFFFD" + request.after), ex.summary())
        .isTrue();
  }

  @ParameterizedTest(name = "GET /user/{0}")
  @ValueSource(strings = {"%zz", "%", "abc%4", "50%off"})
  @Clause(value = "3.9", severity = Severity.WARN)
  @DisplayName("malformed percent-encoding answers 400, whatever its body; kept as written is tolerated")
  void malformedPercentEncodingAnswers400(String segment) {
    String what = "GET /user/" + segment;
    server.requireResponsive(what);
    RawResponse response;
    try {
      // Not recorded: a runtime parser's 400, with its own body, is this clause's answer, not a 9.1 finding.
      response = server.raw().exchange(server.raw().request("GET", server.target("/user/" + segment), null, null, true));
    } catch (SocketTimeoutException e) {
      throw server.noAnswer(what, e);
    } catch (IOException e) {
      throw new AssertionError(what + ": expected 400, got no answer (" + e.getMessage() + ")", e);
    }
    Exchange ex = response.toExchange(what);
    if (ex.status() == 400) {
      return; // whatever its body: the runtime's parser may refuse the target before any handler runs
    }
    if (ex.status() == 200 && keepsTheIdAsWritten(ex, segment)) {
      throw new ImplementationDefined(what + ": served with the malformed escape kept as written, the id "
          + Json.quote(segment) + " (tolerated); preferred: 400 (RFC 3986 2.1, RFC 9112 3)");
    }
    throw new AssertionError(what + ": expected 400 (or, tolerated, 200 with the id "
        + Json.quote(segment) + " as written), got " + ex.summary());
  }

  private static boolean keepsTheIdAsWritten(Exchange ex, String id) {
    if (Text.strictUtf8(ex.body()) == null) {
      return false;
    }
    try {
      JsonNode body = Json.parse(ex.body());
      Set<String> keys = new TreeSet<>();
      body.fieldNames().forEachRemaining(keys::add);
      return keys.equals(Set.of("id", "name")) && id.equals(body.path("id").textValue())
          && ("User " + id).equals(body.path("name").textValue())
          && ex.mediaType().equals("application/json");
    } catch (IOException e) {
      return false;
    }
  }

  /** 200, application/json and exactly {"id":<id>,"name":"User <id>"}, as 3.1 asks of /user/42. */
  private void expectUser(String path, String id) {
    Exchange ex = server.get(path);
    Expect.status(ex, 200);
    Expect.mediaType(ex, "application/json");
    JsonNode body = Expect.objectWithKeys(ex, "id", "name");
    assertThat(body.path("id").isTextual() && body.path("id").asText().equals(id)
            && body.path("name").isTextual() && body.path("name").asText().equals("User " + id))
        .as("%s: expected {\"id\":%s,\"name\":%s}, got %s%s", ex.request(), Json.quote(id), Json.quote("User " + id),
            ex.summary(), Text.normalizationHint(id, body.path("id").asText()))
        .isTrue();
  }
}
