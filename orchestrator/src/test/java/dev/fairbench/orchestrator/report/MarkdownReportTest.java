package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.CellResult;
import dev.fairbench.orchestrator.results.CellStats;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.RunRecord;
import dev.fairbench.orchestrator.runtime.WorkerObservation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
  private static CellResult cell(String endpoint, double rps, List<String> flags) {
    RunRecord run = new RunRecord(1000, 1, rps, 100_000, 0, new RunRecord.SocketErrors(0, 0, 0, 0),
        new RunRecord.LatencyRecord(900, 1500, 2500, 4000, 9000, 1000.0), 0.5, 50L << 20, 60L << 20, 0.95, 0.95);
    CellStats stats = new CellStats(rps, rps - 100, rps + 100, 0.012, 1e6 / rps, 12.5, 900, 2500, 50L << 20, 0.95,
        flags.contains("client-bound"), flags.contains("invalid"));
    return new CellResult(endpoint, CellResult.MEASURED, "", List.of(run), stats,
        new WorkerObservation("threads", 1, 1, 1, 1, 9, 1, true, List.of("worker-0 (93%)")), flags);
  }

  private static ResultsDocument document() {
    Environment env = new Environment(Instant.parse("2026-11-30T12:00:00Z"), "host", "AMD EPYC", 2, "6.18", "v1",
        "cgroup-v1", "", "native", "wrk 4.1.0", "25", "0123456789abcdef0123456789abcdef01234567", true,
        new Environment.LimitsRecord("1", "0", 512L << 20, 1), new Environment.LoadSettings(5, 2, 3, 64, 1, 2, 65_000),
        List.of("plaintext", "json", "user", "validate"));
    EntryResult gin = new EntryResult("go-gin", "go-gin", "default", "Go", "Gin",
        Map.of("framework", "1.12.0", "runtime", "go version go1.26"), "threads", EntryStatus.MEASURED, "", "",
        new ConformanceSummary("WARN", 57, 2, 0, List.of(), List.of("7.10: 30.0 answered 400"), "conformance/go-gin.json"),
        List.of(cell("plaintext", 61_234, List.of("client-bound")), cell("json", 48_000, List.of()),
            cell("user", 45_000, List.of("invalid")), cell("validate", 30_000, List.of())));
    EntryResult broken = new EntryResult("py-flask:bjoern", "py-flask", "bjoern", "Python", "Flask", Map.of(), "processes",
        EntryStatus.BUILD_FAILED, "build failed: `pip install` exited with 1 | see log", "error", null, List.of());
    return new ResultsDocument(ResultsDocument.SCHEMA_VERSION, env, List.of(gin, broken));
  }

  @Test
  void throughputTableLooksLikeSeed000WithFlagMarks() {
    String md = MarkdownReport.render(document());

    assertThat(md).contains("| Entry | Plaintext | JSON | Params | Validate (POST) |")
        .contains("| go-gin (Go) | 61,234¹ | 48,000 | 45,000² | 30,000 |")
        .contains("Median of 3 runs of 5 s each");
  }

  @Test
  void perCellDetailsCarryCostLatencyMemoryAndWorkers() {
    String md = MarkdownReport.render(document());

    assertThat(md).contains("| go-gin | plaintext | 61,234 (61,134–61,334, CV 1.2%) | 16.3 | 12.5 | 900 | 2500 | 50.0 | 95% "
        + "| 1 of 1 threads (1 proc, 1 listening, 9 threads); busy: worker-0 (93%) | client-bound |");
  }

  @Test
  void failuresConformanceAndEnvironmentAreListed() {
    String md = MarkdownReport.render(document());

    assertThat(md).contains("| py-flask:bjoern | build-failed | build failed: `pip install` exited with 1 \\| see log |")
        .contains("| go-gin | WARN | 57 / 2 / 0 | WARN 7.10: 30.0 answered 400 | conformance/go-gin.json |")
        .contains("| Server limits | CPUs 1, memory 512 MiB, WORKERS=1 |")
        .contains("calibrated ceiling 65,000 req/s")
        .contains("(with uncommitted changes)")
        .contains("| go-gin | Gin: framework 1.12.0, runtime go version go1.26 |");
  }
}
