package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceReportsTest {
  private static final SuiteReport REPORT = new SuiteReport(
      URI.create("http://127.0.0.1:8080"),
      Instant.parse("2026-11-30T12:00:00Z"),
      Duration.ofMillis(12_345),
      List.of(
          new ClauseResult("1.1", "GET /plaintext answers 200", Severity.FAIL, Verdict.PASS, List.of()),
          new ClauseResult("7.10", "age: an integral float is accepted", Severity.WARN, Verdict.WARN,
              List.of("POST /validate {\"name\":\"a\",\"age\":30.0}: answered 400 (tolerated)")),
          new ClauseResult("10.1", "an unknown path answers 404", Severity.FAIL, Verdict.FAIL,
              List.of("GET /nope: expected status 404, got 200 text/plain hi", "POST /nope: expected status 404, got 500"))));

  @Test
  void tableListsEveryClauseWithFindingsBelowAndASummary() {
    String n = System.lineSeparator();
    assertThat(ConformanceReports.table(REPORT)).isEqualTo(
        "Conformance of http://127.0.0.1:8080 (12.3 s)" + n
            + n
            + "clause  verdict  title" + n
            + "1.1     PASS     GET /plaintext answers 200" + n
            + "7.10    WARN     age: an integral float is accepted" + n
            + "                 - POST /validate {\"name\":\"a\",\"age\":30.0}: answered 400 (tolerated)" + n
            + "10.1    FAIL     an unknown path answers 404" + n
            + "                 - GET /nope: expected status 404, got 200 text/plain hi" + n
            + "                 - POST /nope: expected status 404, got 500" + n
            + n
            + "1 PASS, 1 WARN, 1 FAIL" + n);
  }

  @Test
  void jsonRoundTripsAndCarriesTheOverallVerdict(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("nested/conformance.json");
    ConformanceReports.writeJson(REPORT, file);
    assertThat(ConformanceReports.readJson(file)).isEqualTo(REPORT);
    String json = Files.readString(file);
    assertThat(json).contains("\"format\" : \"fairbench-conformance/1\"", "\"overall\" : \"FAIL\"", "\"tookMillis\" : 12345",
        "\"counts\" : {", "\"PASS\" : 1");
  }

  @Test
  void readingSomethingElseSaysWhy(@TempDir Path dir) throws IOException {
    Path notJson = Files.writeString(dir.resolve("a.json"), "not json");
    assertThatThrownBy(() -> ConformanceReports.readJson(notJson)).isInstanceOf(IOException.class)
        .hasMessageContaining("is not a JSON conformance report");
    Path otherFormat = Files.writeString(dir.resolve("b.json"), "{\"format\":\"something/2\"}");
    assertThatThrownBy(() -> ConformanceReports.readJson(otherFormat)).isInstanceOf(IOException.class)
        .hasMessageContaining("unsupported report format \"something/2\"");
    Path badVerdict = Files.writeString(dir.resolve("c.json"), """
        {"format":"fairbench-conformance/1","target":"http://x:1","startedAt":"2026-11-30T12:00:00Z","tookMillis":1,
         "clauses":[{"id":"1.1","title":"t","severity":"FAIL","verdict":"MAYBE","findings":[]}]}""");
    assertThatThrownBy(() -> ConformanceReports.readJson(badVerdict)).isInstanceOf(IOException.class)
        .hasMessageContaining("MAYBE");
  }
}
