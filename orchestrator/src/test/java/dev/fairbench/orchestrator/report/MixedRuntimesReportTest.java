package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.core.RuntimeKind;
import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run of two runtimes (fast-entry in Docker beside native entries) as the reports and the file show it. */
class MixedRuntimesReportTest {
  private final ResultsDocument results = ResultsFixtures.mixedRuntimes();
  private final FairnessReview review = FairnessReview.of(results);

  @Test
  void theFairnessReviewSaysTheRunMixedRuntimesAndWhichEntryRanWhere() {
    String md = review.toMarkdown();

    assertThat(md).contains("Runtimes: **this run mixed runtimes**, measured in the same shuffled rounds with every "
        + "idle server frozen (cgroup freezer natively, docker pause in Docker)")
        .contains("native (cgroup-v1): steady-entry, absent-entry, nginx; docker (docker-cgroup-v1): fast-entry@docker")
        .contains("The calibration server ran in the default runtime (native)")
        .contains("Every server of both runtimes got the same limits (CPU set, memory, WORKERS, open files)");
    assertThat(md).contains("## fast-entry@docker — Fast 2.0\n\n- Status: measured\n");
    assertThat(md).contains("- Runtime: docker\n- Limits applied: server CPUs 1, client CPUs 0, memory 512 MiB, WORKERS=1, "
        + "open files 8192:8192, enforced by docker-cgroup-v1, docker runtime — the same limits as every server of the "
        + "other runtime, read back and checked");
    assertThat(md).contains("- Runtime: native\n- Limits applied: server CPUs 1, client CPUs 0, memory 512 MiB, WORKERS=1, "
        + "open files 8192:8192, enforced by cgroup-v1, native runtime");
  }

  @Test
  void aReviewOfOneRuntimeSaysNothingOfRuntimesPerEntry() {
    String md = FairnessReview.of(ResultsFixtures.mixed()).toMarkdown();

    assertThat(md).doesNotContain("mixed runtimes").doesNotContain("- Runtime: ");
    assertThat(md).contains("enforced by cgroup-v1, native runtime");
  }

  @Test
  void theReportsSayWhichServerRanInWhichRuntime() {
    String markdown = MarkdownReport.render(results);
    String html = HtmlReport.render(results, review);

    assertThat(markdown).contains("mixed, in the same rounds, every idle server frozen: native (cgroup-v1): steady-entry, "
        + "absent-entry, nginx; docker (docker-cgroup-v1): fast-entry@docker (the calibration server in native, the default)");
    assertThat(html).contains("mixed, in the same rounds, every idle server frozen: native (cgroup-v1)")
        .contains("the same in both runtimes: native (cgroup-v1) and docker (docker-cgroup-v1) runtimes, in the same rounds");
  }

  @Test
  void theEntriesAndTheirRuntimesReadBackFromTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(results, file);

    ResultsDocument read = ResultsJson.read(file);
    assertThat(read).isEqualTo(results);
    assertThat(read.environment().mixedRuntimes()).isTrue();
    assertThat(read.entries()).filteredOn(e -> e.id().equals("fast-entry@docker")).extracting(EntryResult::runtime)
        .containsExactly(RuntimeKind.DOCKER);
    assertThat(Files.readString(file)).contains("\"runtime\" : \"docker\"").contains("\"runtimes\" : [")
        .contains("\"servers\" : [ \"fast-entry@docker\" ]");
  }

  @Test
  void aWithinRunComparisonTakesTheSuffixedId() {
    Comparison c = Comparison.withinRun(results, "steady-entry", "fast-entry@docker", 0.05, 0.05,
        Comparison.Normalization.NONE);

    assertThat(c.toMarkdown()).contains("steady-entry → fast-entry@docker");
  }
}
