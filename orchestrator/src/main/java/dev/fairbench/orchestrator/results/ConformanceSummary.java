package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.conformance.Verdict;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The suite's verdict for one entry.
 *
 * @param verdict     PASS, WARN or FAIL (the worst clause)
 * @param failed      ids of FAILed clauses, each with its first finding
 * @param warned      ids of WARNed clauses, each with its first finding
 * @param report      the suite's full JSON report, relative to the results file
 * @param reused      the earlier check whose verdict this is, when the suite did not run again because the
 *                    entry, suite, toolchain, runtime and limits hashed the same; null when it ran in this run
 */
public record ConformanceSummary(
    Verdict verdict, int pass, int warn, int fail, List<String> failed, List<String> warned, String report,
    @JsonInclude(JsonInclude.Include.NON_NULL) Reused reused) {

  /** A verdict of the suite run in this run. */
  public ConformanceSummary(Verdict verdict, int pass, int warn, int fail, List<String> failed, List<String> warned,
      String report) {
    this(verdict, pass, warn, fail, failed, warned, report, null);
  }

  /**
   * The check a verdict was reused from.
   *
   * @param contentHash the SHA-256 (hex) of what the verdict depends on, the same then and now
   * @param checkedAt   when the suite ran that check
   */
  public record Reused(String contentHash, Instant checkedAt) {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
        .withZone(ZoneOffset.UTC);

    /** "the check of 2026-12-06 00:18:03 UTC (content hash 1a2b3c4d)", as progress and reports write it. */
    public String describe() {
      return "the check of " + WHEN.format(checkedAt) + " (content hash "
          + contentHash.substring(0, Math.min(8, contentHash.length())) + ")";
    }
  }
}
