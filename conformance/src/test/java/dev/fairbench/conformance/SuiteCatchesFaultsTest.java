package dev.fairbench.conformance;

import static dev.fairbench.conformance.Verdict.FAIL;
import static dev.fairbench.conformance.Verdict.WARN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.conformance.FaultyServer.Deviation;
import dev.fairbench.conformance.http.CloseDelimitedRelay;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The suite proves it can fail: every deviation of {@link FaultyServer} is caught by its clause(s). */
@Execution(ExecutionMode.CONCURRENT) // each test has its own servers on ephemeral ports
class SuiteCatchesFaultsTest {
  /** For each deviation, exactly the clauses that must not PASS, and their verdicts. */
  private static final Map<Deviation, Map<String, Verdict>> EXPECTED = new EnumMap<>(Deviation.class);

  static {
    expect(Deviation.VALIDATION_ERRORS_AS_422, FAIL,
        "6.1", "6.2", "6.3", "7.1", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "7.9", "7.11", "7.12", "8.3");
    expect(Deviation.MALFORMED_JSON_500, FAIL, "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "12.1");
    expect(Deviation.REJECTS_AGE_ZERO, FAIL, "7.2");
    expect(Deviation.CASE_INSENSITIVE_KEYS, FAIL, "8.3");
    expect(Deviation.COERCES_NUMERIC_STRINGS, FAIL, "7.4");
    expect(Deviation.ACCEPTS_BOOLEAN_AGE, FAIL, "7.5");
    expect(Deviation.IGNORES_CONTENT_TYPE, FAIL, "4.4", "4.5");
    expect(Deviation.CHARSET_PARAMETER_REJECTED, FAIL, "4.2");
    expect(Deviation.MEDIA_TYPE_CASE_SENSITIVE, FAIL, "4.3");
    expect(Deviation.MEDIA_TYPE_PARAMETERS_STRICT, FAIL, "4.2");
    expect(Deviation.NO_BODY_LIMIT, FAIL, "4.6");
    // 6.7's name fills a body of exactly 1 MiB.
    expect(Deviation.LIMIT_AT_EXACTLY_ONE_MEBIBYTE, FAIL, "4.7", "6.7");
    expect(Deviation.TRIMS_NAMES, FAIL, "6.5", "6.6");
    expect(Deviation.TEXT_PLAIN_ERRORS, FAIL, "3.6", "3.7", "3.8", "4.4", "4.5", "4.6", "9.1", "10.1", "10.2", "10.3");
    expect(Deviation.STACK_TRACE_IN_ERRORS, FAIL, "9.2");
    // Every 200 of 3.2-3.5 has exactly the keys id and name, as 3.1's; every success of /validate, whatever
    // its clause, has exactly name, age and valid, as 8.1's.
    expect(Deviation.EXTRA_KEYS_IN_RESPONSES, FAIL, "2.3", "3.1", "3.2", "3.3", "3.4", "3.5",
        "4.1", "4.2", "4.3", "4.7", "6.4", "6.5", "6.6", "6.7", "7.2", "7.10", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6",
        // 11.1 checks each answer, and 11.6 and 11.7 the answers of /user/<n> and /validate, against the contract's.
        "11.1", "11.6", "11.7");
    expect(Deviation.AGE_AS_FLOAT, FAIL, "7.10", "8.2", "11.1", "11.6", "11.7");
    // Truncating 30.000000000000001 gives 30 too: 7.12's tolerated outcome.
    expectMixed(Deviation.ACCEPTS_FRACTIONS, Map.of("7.8", FAIL, "7.12", WARN));
    expect(Deviation.HUGE_NUMBERS_500, FAIL, "7.9", "12.1");
    expect(Deviation.ACCEPTS_TRAILING_GARBAGE, FAIL, "5.2");
    expect(Deviation.LENIENT_UTF8, FAIL, "5.7");
    expect(Deviation.USER_ID_AS_NUMBER, FAIL, "3.1", "3.2", "3.5", "11.1", "11.6", "11.7");
    expect(Deviation.PLUS_AS_SPACE, FAIL, "3.4");
    expect(Deviation.USER_WITHOUT_ID_ROUTED, FAIL, "3.6");
    // PUT /user/a/b then reaches the route, whose answer to PUT is 405.
    expect(Deviation.NESTED_USER_PATH_ROUTED, FAIL, "3.7", "10.1");
    // The JDK's HttpServer refuses a malformed escape with 400 before the handler: only ids that are not UTF-8 get the 500.
    expect(Deviation.INVALID_PERCENT_ENCODING_500, FAIL, "3.8", "12.1");
    expect(Deviation.NOT_UTF8_IDS_ECHOED_RAW, FAIL, "3.8");
    expect(Deviation.NOT_UTF8_IDS_500, FAIL, "3.8", "12.1");
    expect(Deviation.MALFORMED_ESCAPES_KEPT, WARN, "3.9");
    expect(Deviation.MALFORMED_ESCAPES_REPLACED, FAIL, "3.9");
    expect(Deviation.NON_ASCII_TARGET_AS_UTF8, WARN, "12.5");
    expect(Deviation.NON_ASCII_TARGET_AS_LATIN1, FAIL, "12.5");
    // A connection closed after every answer cannot take pipelined requests either.
    expect(Deviation.KEEP_ALIVE_DISABLED, FAIL, "11.1", "11.6");
    // POST /plaintext is redirected too, so 10.2 sees a 301; 11.4's 512 connections get 301s.
    expect(Deviation.PLAINTEXT_REDIRECTS, FAIL, "1.1", "1.2", "1.3", "10.2", "11.1", "11.4", "12.2");
    // 12.2: after the robustness cases GET /plaintext must still answer correctly; so must 11.4's 512 connections.
    expect(Deviation.PLAINTEXT_TRAILING_NEWLINE, FAIL, "1.3", "11.1", "11.4", "12.2");
    expect(Deviation.PLAINTEXT_AS_HTML, FAIL, "1.2");
    // 2.2 still passes: the 404 is application/json. DELETE /json answers 404 too: 10.2 WARN.
    expectMixed(Deviation.JSON_ROUTE_MISSING, Map.of("2.1", FAIL, "2.3", FAIL, "10.2", WARN, "11.1", FAIL));
    expect(Deviation.JSON_AS_TEXT_PLAIN, FAIL, "2.2");
    // 3.8: %FF kept as the id "%FF". 3.9 passes: the JDK's HttpServer refuses %zz before the handler.
    expect(Deviation.NO_PERCENT_DECODING, FAIL, "3.3", "3.4", "3.8");
    expect(Deviation.ACCEPTS_UNESCAPED_CONTROL_CHARACTERS, FAIL, "5.8");
    expect(Deviation.REJECTS_CHARACTERS_OUTSIDE_THE_BMP, FAIL, "6.4", "6.6", "6.7");
    expect(Deviation.NORMALISES_NAMES, FAIL, "6.6");
    expect(Deviation.REJECTS_LONG_NAMES, FAIL, "6.7");
    // 8.3: {"name":"a","Age":1} has no age either, so it is 0 and accepted.
    expect(Deviation.MISSING_AGE_IS_ZERO, FAIL, "7.1", "8.3");
    expect(Deviation.NULL_AGE_IS_ZERO, FAIL, "7.6");
    expect(Deviation.UNWRAPS_SINGLE_ELEMENT_ARRAYS, FAIL, "6.2", "7.7");
    expect(Deviation.INTEGRAL_FLOATS_REJECTED, WARN, "7.10");
    expect(Deviation.DUPLICATE_KEYS_FIRST_WINS, WARN, "8.5");
    expect(Deviation.DUPLICATE_KEYS_REJECTED, WARN, "8.5");
    expect(Deviation.WRONG_METHOD_404, WARN, "10.2");
    expect(Deviation.DUPLICATE_KEYS_500, FAIL, "8.5", "12.1");
    // The deviations found by docs/CONFORMANCE-VALIDATION.md (D1-D7).
    expect(Deviation.ACCEPTS_NON_FINITE_NUMBERS, FAIL, "5.3");
    expect(Deviation.ACCEPTS_COMMENTS, FAIL, "5.1");
    expect(Deviation.ACCEPTS_ANY_ESCAPE, FAIL, "5.1");
    expect(Deviation.ACCEPTS_BARE_DECIMAL_POINTS, FAIL, "5.1");
    expect(Deviation.BODY_STRIPPED, FAIL, "5.1");
    expect(Deviation.LIMIT_ON_CONTENT_LENGTH_ONLY, FAIL, "4.6");
    expect(Deviation.ACCEPTS_JSON_SUFFIX_MEDIA_TYPES, FAIL, "4.4");
    expect(Deviation.PARSES_BEFORE_MEDIA_TYPE, FAIL, "4.4", "4.5");
    expect(Deviation.LIMIT_COUNTS_CHARACTERS, FAIL, "4.6");
    expect(Deviation.DECODES_IDS_TWICE, FAIL, "3.3");
    expect(Deviation.CASE_INSENSITIVE_ROUTES, WARN, "10.3");
    // Robustness: requests of shapes a hostile client sends (docs/CONFORMANCE-VALIDATION.md, Robustness).
    expect(Deviation.LONE_SURROGATE_NAMES_500, FAIL, "5.9", "12.1");
    expect(Deviation.LONE_SURROGATES_AS_RAW_BYTES, FAIL, "5.9");
    expect(Deviation.CONTROL_BYTES_IN_TARGET_505, WARN, "12.3");
    expect(Deviation.CONTROL_BYTES_IN_TARGET_KEPT, WARN, "12.3");
    expect(Deviation.CONTROL_BYTES_IN_TARGET_CUT, FAIL, "12.3");
    expect(Deviation.CONTROL_BYTES_IN_HEADER_VALUES_500, FAIL, "12.1");
    expect(Deviation.LARGE_HEADER_BLOCKS_500, FAIL, "12.1");
    expect(Deviation.CONTENT_LENGTH_OVER_TRANSFER_ENCODING, FAIL, "12.4");
    expect(Deviation.FIRST_CONTENT_LENGTH_WINS, FAIL, "12.4");
    expect(Deviation.INVALID_CONTENT_LENGTH_IS_ZERO, FAIL, "12.4");
    expect(Deviation.FRAMING_ERROR_KEEPS_THE_CONNECTION, FAIL, "12.4");
    // Silence for 100-Continue too, then the usual answer once the body comes: 11.8's tolerated outcome.
    expectMixed(Deviation.IGNORES_EXPECT_CONTINUE, Map.of("11.3", FAIL, "11.8", WARN));
    expect(Deviation.EXPECT_CONTINUE_CASE_SENSITIVE, WARN, "11.8");
    expect(Deviation.EXPECT_OTHER_LETTER_CASE_400, FAIL, "11.8");
    expect(Deviation.CONNECTION_LIMIT, FAIL, "11.4");
    expect(Deviation.SERIALISES_REQUEST_HEADS, FAIL, "11.5");
    expect(Deviation.PIPELINED_REQUESTS_DROPPED, FAIL, "11.6");
    // 16 requests fit its queue; 11.6's burst of 256 does not.
    expect(Deviation.PIPELINED_BURST_CUT_AFTER_32, FAIL, "11.6");
    expect(Deviation.PIPELINED_ANSWERS_REVERSED, FAIL, "11.6");
    expect(Deviation.CLOSES_AFTER_A_PIPELINED_BURST, FAIL, "11.6");
    expect(Deviation.PIPELINED_BODIES_RUN_TOGETHER, FAIL, "11.6");
    // The suite's own audit (docs/CONFORMANCE-VALIDATION.md, "An audit for deviations the suite missed").
    expect(Deviation.TWO_CONTENT_TYPES, FAIL, "1.2");
    expect(Deviation.RANGE_ERRORS_AS_DETAIL, FAIL, "9.1");
    expect(Deviation.QUERY_PARAMETERS_ECHOED, FAIL, "3.5");
    expect(Deviation.VALIDATE_ANY_METHOD_WITH_A_BODY, FAIL, "10.2");
    expect(Deviation.NAMES_LIMITED_TO_64_KIB, FAIL, "6.7");
    expect(Deviation.CHUNKED_BODIES_413, FAIL, "4.7");
    expect(Deviation.SHARED_REQUEST_STATE, FAIL, "11.7");
    // An endless body is a finding of each check that reads /json, not a run out of memory.
    expect(Deviation.ENDLESS_JSON_BODY, FAIL, "2.1", "2.2", "2.3", "11.1", "11.2", "11.6", "11.9", "11.10");
    // Every clause that reads a JSON body: its 200s, and through 9.1 its error responses.
    String[] readingJson = {"2.3", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "4.1", "4.2", "4.3", "4.4",
        "4.5", "4.6", "4.7", "5.9", "6.4", "6.5", "6.6", "6.7", "7.2", "7.10", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6",
        "9.1", "10.1", "10.2", "10.3", "11.1", "11.6", "11.7"};
    expect(Deviation.JSON_IN_UTF16, FAIL, readingJson);
    expect(Deviation.JSON_WITH_BYTE_ORDER_MARK, FAIL, readingJson);
    expect(Deviation.LOAD_SHEDDING_429, FAIL, "11.4");
    expect(Deviation.DUPLICATE_CONTENT_LENGTH, FAIL, "11.2");
    // Chunked for every request, so for HTTP/1.0 too: 11.9.
    expect(Deviation.CONTENT_LENGTH_WITH_CHUNKED_RESPONSES, FAIL, "11.2", "11.9");
    // Its 413 comes from the head, before the media type is looked at: 4.4's oversized text/plain too.
    expect(Deviation.OVERSIZED_BODY_LEFT_UNREAD, FAIL, "4.4", "4.6");
    expect(Deviation.GARBAGE_FOR_MALFORMED_REQUESTS, FAIL, "12.1");
    // The entries' audit with hostile input (docs/CONFORMANCE-VALIDATION.md).
    expect(Deviation.FRACTIONS_READ_AS_DOUBLES, WARN, "7.12");
    // 7.9's 1e400 as age is a 400 either way.
    expect(Deviation.NUMBERS_LIMITED_TO_DOUBLE_RANGE, WARN, "8.6");
    expect(Deviation.NUMBERS_BEYOND_DOUBLE_RANGE_500, FAIL, "7.9", "8.6", "12.1");
    expect(Deviation.SIZE_CHECKED_BEFORE_MEDIA_TYPE, FAIL, "4.4");
    expect(Deviation.NESTED_USER_PATH_405, FAIL, "10.1");
    expect(Deviation.LONG_KEYS_REJECTED, FAIL, "8.4");
    expect(Deviation.EXPONENTS_BEYOND_DECIMAL_500, FAIL, "7.9", "8.6", "12.1");
    expect(Deviation.HUGE_DECLARED_BODY_BARE_413, FAIL, "4.6");
    expect(Deviation.JS_STACK_FRAMES_IN_ERRORS, FAIL, "9.2");
    expect(Deviation.PYTHON_FRAMES_IN_ERRORS, FAIL, "9.2");
    expect(Deviation.ERRORS_CHARSET_UTF16, FAIL, "3.6", "3.7", "3.8", "4.4", "4.5", "4.6", "9.1", "10.1", "10.2", "10.3");
    expect(Deviation.NUL_ENDS_THE_BODY, FAIL, "5.2");
    expect(Deviation.KEYS_MATCHED_AS_WRITTEN, FAIL, "8.3");
    expect(Deviation.SURROGATE_ESCAPES_REJECTED, FAIL, "6.4");
    expect(Deviation.IDS_CUT_AT_SEMICOLON, FAIL, "3.3");
    expect(Deviation.IDS_HTML_ESCAPED, FAIL, "3.3");
    // Its DELETE /json is never answered whole (10.2 sees the same), so 11.10 gets no head to judge.
    expect(Deviation.ANY_METHOD_ON_GET_ROUTES, FAIL, "10.2", "11.10");
    expect(Deviation.ROOT_SERVED, FAIL, "10.1");
    expect(Deviation.JSON_MEDIA_TYPE_BY_PREFIX, FAIL, "4.4");
    expect(Deviation.ONE_PARAMETER_ONLY, FAIL, "4.2");
    expect(Deviation.SUCCESS_AS_TEXT_FOR_NON_ASCII_NAMES, FAIL, "6.4", "6.6", "6.7");
    expect(Deviation.VALID_FALSE_FOR_AGE_ZERO, FAIL, "7.2");
    expect(Deviation.USER_ANSWERS_CACHED, FAIL, "11.1", "11.6", "11.7");
    expect(Deviation.IGNORES_CONNECTION_CLOSE, FAIL, "11.9");
    expect(Deviation.CHUNKED_FOR_HTTP10, FAIL, "11.9");
    // Only 11.4 opens more than 64 connections at once (11.7: 32).
    expect(Deviation.CONTENT_TYPE_DROPPED_UNDER_LOAD, FAIL, "11.4");
    expect(Deviation.BARE_LF_RESPONSE_HEADS, FAIL, "11.10");
    expect(Deviation.OBSOLETE_DATE_FORMAT, FAIL, "11.10");
    // 11.8's other letter cases get the empty body too; the front's 100 Continue knows them.
    expect(Deviation.EMPTY_BODY_AFTER_CONTINUE, FAIL, "11.3", "11.8");
    // CRASHES_ON_ and HANGS_ON_DEEP_NESTING take every later clause down with them, and
    // REQUIRES_CHARSET_PARAMETER every check that posts JSON: checked on their own below.
  }

  private static void expectMixed(Deviation deviation, Map<String, Verdict> verdicts) {
    EXPECTED.put(deviation, new TreeMap<>(verdicts));
  }

  private static void expect(Deviation deviation, Verdict verdict, String... clauses) {
    EXPECTED.put(deviation, Stream.of(clauses).collect(Collectors.toMap(c -> c, c -> verdict, (a, b) -> a, TreeMap::new)));
  }

  @Test
  void everyClauseIsBrokenByAtLeastOneDeviation() {
    // The relay, the crash and the charset-only server, below.
    Set<String> failed = new TreeSet<>(Set.of("11.1", "11.2", "5.6", "12.2", "4.1"));
    Set<String> warned = new TreeSet<>();
    EXPECTED.values().forEach(verdicts -> verdicts.forEach((clause, verdict) ->
        (verdict == FAIL ? failed : warned).add(clause)));
    for (SpecClause clause : SpecClause.ALL) {
      assertThat(failed).as("a deviation that FAILs %s", clause.id()).contains(clause.id());
      if (clause.severity() == Severity.WARN) {
        assertThat(warned).as("a deviation that WARNs %s", clause.id()).contains(clause.id());
      }
    }
  }

  @Test
  void theCorrectServerPassesEveryClause() throws Exception {
    try (FaultyServer server = FaultyServer.correct()) {
      SuiteReport report = ConformanceSuite.run(server.url());
      assertThat(notPassing(report)).as(ConformanceReports.table(report)).isEmpty();
      assertThat(report.overall()).isEqualTo(Verdict.PASS);
      assertThat(report.clauses()).hasSize(SpecClause.ALL.size());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Deviation.class, mode = EnumSource.Mode.EXCLUDE,
      names = {"CRASHES_ON_DEEP_NESTING", "HANGS_ON_DEEP_NESTING", "REQUIRES_CHARSET_PARAMETER", "SLOW_ANSWERS"})
  void eachDeviationIsCaughtByItsClauses(Deviation deviation) throws Exception {
    Map<String, Verdict> expected = EXPECTED.get(deviation);
    assertThat(expected).as("expected clauses for %s", deviation).isNotNull();
    try (FaultyServer server = FaultyServer.with(deviation)) {
      SuiteReport report = ConformanceSuite.run(server.url());
      assertThat(notPassing(report)).as(ConformanceReports.table(report)).isEqualTo(expected);
      Verdict overall = expected.containsValue(FAIL) ? FAIL : WARN;
      assertThat(report.overall()).isEqualTo(overall);
      report.clauses().stream().filter(c -> c.verdict() != Verdict.PASS)
          .forEach(c -> assertThat(c.findings()).as("findings of %s", c.id()).isNotEmpty());
    }
  }

  @Test
  void theCorrectServerBehindTheFrontPassesEveryClause() throws Exception {
    // The front that carries the HTTP-layer deviations must change nothing by itself.
    try (FaultyServer server = FaultyServer.correctBehindAFront()) {
      SuiteReport report = ConformanceSuite.run(server.url());
      assertThat(notPassing(report)).as(ConformanceReports.table(report)).isEmpty();
    }
  }

  @Test
  void responsesWithoutLengthOrChunksAreCaught() throws Exception {
    try (FaultyServer server = FaultyServer.correct(); CloseDelimitedRelay relay = new CloseDelimitedRelay(server.url())) {
      SuiteReport report = ConformanceSuite.run(relay.url());
      // Every response ends with the connection, so keep-alive and pipelining are gone too.
      assertThat(notPassing(report)).as(ConformanceReports.table(report))
          .isEqualTo(Map.of("11.1", FAIL, "11.2", FAIL, "11.6", FAIL));
    }
  }

  @Test
  void aServerThatOnlyAcceptsJsonWithACharsetFailsPlainJson() throws Exception {
    try (FaultyServer server = FaultyServer.with(Deviation.REQUIRES_CHARSET_PARAMETER)) {
      SuiteReport report = ConformanceSuite.run(server.url());
      assertThat(notPassing(report)).as(ConformanceReports.table(report))
          .containsEntry("4.1", FAIL).doesNotContainKeys("1.1", "4.4", "4.5");
      assertThat(report.overall()).isEqualTo(FAIL);
    }
  }

  @Test
  void aServerThatDiesOnDeepNestingFailsNestingAndLiveness() throws Exception {
    try (FaultyServer server = FaultyServer.with(Deviation.CRASHES_ON_DEEP_NESTING)) {
      SuiteReport report = ConformanceSuite.run(server.url());
      Map<String, Verdict> failing = notPassing(report);
      assertThat(failing).as(ConformanceReports.table(report))
          .containsEntry("5.6", FAIL).containsEntry("12.2", FAIL).doesNotContainKeys("1.1", "4.7");
      assertThat(report.overall()).isEqualTo(FAIL);
    }
  }

  @Test
  void aServerThatHangsOnDeepNestingFailsFastInsteadOfTimingOutEveryCheck() throws Exception {
    try (FaultyServer server = FaultyServer.with(Deviation.HANGS_ON_DEEP_NESTING)) {
      SuiteReport report = ConformanceSuite.run(server.url());
      Map<String, Verdict> failing = notPassing(report);
      assertThat(failing).as(ConformanceReports.table(report))
          .containsEntry("5.6", FAIL).containsEntry("12.2", FAIL).doesNotContainKeys("1.1", "4.7");
      assertThat(report.clauses().stream().filter(c -> c.id().equals("12.2")).findFirst().orElseThrow().findings())
          .anySatisfy(f -> assertThat(f).contains("the server stopped answering"));
      // Hundreds of checks follow the hang: at 10 s each the run would take most of an hour.
      assertThat(report.took()).isLessThan(Duration.ofSeconds(90));
    }
  }

  @Test
  void aServerTooSlowForTheTimeLimitFailsEveryClauseLeftAsNotJudgedAndTheRunEndsNearTheLimit() throws Exception {
    // At 300 ms an answer the whole suite would take about half an hour; the limit stops it at 10 s.
    Duration limit = Duration.ofSeconds(10);
    try (FaultyServer server = FaultyServer.with(Deviation.SLOW_ANSWERS)) {
      SuiteReport report = ConformanceSuite.run(server.url(), limit);
      assertThat(report.overall()).isEqualTo(FAIL);
      assertThat(report.clauses()).hasSize(SpecClause.ALL.size());
      // What was judged before the limit keeps its verdict: the server is correct, only slow.
      assertThat(report.clauses().get(0)).as(ConformanceReports.table(report))
          .extracting(ClauseResult::id, ClauseResult::verdict).containsExactly("1.1", Verdict.PASS);
      ClauseResult last = report.clauses().get(report.clauses().size() - 1);
      assertThat(last.verdict()).isEqualTo(FAIL);
      assertThat(last.findings()).anySatisfy(f -> assertThat(f).contains("not judged: the suite's time limit of 10 s had passed"));
      // A check under way sends nothing more once the limit passes: it ends within one answer's wait or so.
      assertThat(report.took()).isLessThan(limit.plusSeconds(20));
    }
  }

  @Test
  void aTimeLimitThatIsNotPositiveIsRefusedBeforeAnyRequest() {
    assertThatThrownBy(() -> ConformanceSuite.run(java.net.URI.create("http://127.0.0.1:1"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time limit must be positive");
  }

  private static Map<String, Verdict> notPassing(SuiteReport report) {
    return report.clauses().stream().filter(c -> c.verdict() != Verdict.PASS)
        .collect(Collectors.toMap(ClauseResult::id, ClauseResult::verdict, (a, b) -> a, TreeMap::new));
  }
}
