package dev.fairbench.orchestrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.report.html.HtmlReport;
import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.MemoryFigures;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.results.SizeFigures;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.results.StartupFigures.StartTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupReportTest {
  @TempDir Path dir;

  static StartupFigures figures(double warmAll, Double coldAll, long peak, SizeFigures size) {
    Map<String, StartTime> warm = new LinkedHashMap<>();
    warm.put("plaintext", StartTime.of(List.of(10.0, 12.0, 11.0)));
    warm.put("json", StartTime.of(List.of(10.5, 12.5, 11.5)));
    warm.put("user", StartTime.of(List.of(10.5, 12.5, 11.5)));
    warm.put("validate", StartTime.of(List.of(11.0, 13.0, 12.0)));
    warm.put(StartupFigures.ALL, StartTime.of(List.of(warmAll - 1, warmAll + 1, warmAll)));
    Map<String, StartTime> cold = coldAll == null ? Map.of() : Map.of(StartupFigures.ALL, StartTime.of(List.of(coldAll)));
    return new StartupFigures("native", 5, warm, cold, coldAll == null ? "unavailable: not root" : "",
        new MemoryFigures(1L << 20, 3L << 20, 4L << 20, "cgroup-v1 memory.stat total_rss", "the measured runs", 50), size, "");
  }

  static ResultsDocument withStartup() {
    ResultsDocument mixed = ResultsFixtures.mixed();
    SizeFigures build = new SizeFigures(-1, "", 0, -1, 6_181_129, Map.of("build", 6_181_129L), "git-ignored paths, du -sb", "");
    SizeFigures image = new SizeFigures(80_953_018, "debian:bookworm-slim", 1, 6_127_778, -1, Map.of(), "docker image inspect", "");
    List<EntryResult> entries = mixed.entries().stream().map(e -> switch (e.id()) {
      case "steady-entry" -> e.withStartup(figures(20, 39.2, 4L << 20, build));
      case "fast-entry" -> e.withStartup(figures(150, null, 12L << 20, image));
      default -> e;
    }).toList();
    return mixed.withEntries(entries);
  }

  @Test
  void theFiguresSurviveTheResultsFileAndAreLeftOutWhereAbsent() throws Exception {
    Path file = dir.resolve("results.json");
    ResultsJson.write(withStartup(), file);

    ResultsDocument read = ResultsJson.read(file);
    assertThat(read).isEqualTo(withStartup());
    assertThat(read.entries().stream().filter(e -> e.id().equals("steady-entry")).findFirst().orElseThrow()
        .startup().warm().get(StartupFigures.ALL).medianMillis()).isEqualTo(20.0);
    String json = Files.readString(file);
    assertThat(json).contains("\"startup\" : {");
    assertThat(json.split("\"startup\"", -1)).as("only the two entries with figures carry the field").hasSize(3);
  }

  @Test
  void startTimesAreMedianAndRange() {
    StartTime t = StartTime.of(List.of(30.0, 10.0, 20.0, 40.0));

    assertThat(t.n()).isEqualTo(4);
    assertThat(t.medianMillis()).isEqualTo(25.0);
    assertThat(t.minMillis()).isEqualTo(10.0);
    assertThat(t.maxMillis()).isEqualTo(40.0);
    assertThat(t.millis()).as("in the order measured").containsExactly(30.0, 10.0, 20.0, 40.0);
  }

  @Test
  void markdownHasOneRowPerEntryWithFigures() {
    String md = MarkdownReport.render(withStartup());

    assertThat(md).contains("## Start, memory and size");
    assertThat(md).contains("| steady-entry | 39.2 ms | 20.0 ms (19.0 ms–21.0 ms, 3) | 11.0 ms / 11.5 ms / 11.5 ms / 12.0 ms "
        + "| 1.0 MiB | 3.0 MiB | 4.0 MiB | build 5.9 MiB (build) |");
    assertThat(md).contains("| fast-entry | unavailable: not root | 150 ms (149 ms–151 ms, 3) |");
    assertThat(md).contains("image 77.2 MiB (+5.8 MiB in 1 layers over debian:bookworm-slim)");
    assertThat(md).contains("cgroup-v1 memory.stat total_rss").contains("tried every 5 ms");
    assertThat(md).doesNotContain("| absent-entry | unavailable: not root");
  }

  @Test
  void withoutFiguresThereIsNoSection() {
    assertThat(MarkdownReport.render(ResultsFixtures.mixed())).doesNotContain("Start, memory and size");
    assertThat(HtmlReport.render(ResultsFixtures.mixed(), FairnessReview.of(ResultsFixtures.mixed())))
        .doesNotContain("id=\"startup\"");
  }

  @Test
  void compareShowsEachFigureBeforeAndAfter() {
    ResultsDocument after = withStartup().withEntries(withStartup().entries().stream()
        .map(e -> e.id().equals("steady-entry") ? e.withStartup(figures(30, 39.2, 4L << 20, e.startup().size())) : e)
        .toList());

    Comparison c = Comparison.of(withStartup(), after);

    assertThat(c.startup()).contains(new Comparison.StartupRow("steady-entry", "warm start p50", "ms", 20.0, 30.0));
    assertThat(c.startup()).filteredOn(r -> r.entry().equals("fast-entry") && r.metric().equals("cold start"))
        .as("a figure absent on both sides has no row").isEmpty();
    assertThat(c.toMarkdown()).contains("## Start, memory and size")
        .contains("| steady-entry | warm start p50 (ms) | 20.0 | 30.0 | +50.0% |");
    assertThat(dev.fairbench.orchestrator.report.html.CompareHtml.render(c, "a", "b"))
        .contains("<table class=\"startup\">").contains("+50.0%");
    assertThat(Comparison.of(ResultsFixtures.mixed(), ResultsFixtures.mixed()).toMarkdown())
        .doesNotContain("Start, memory and size");
  }

  @Test
  void htmlHasTheTableAndTheCharts() {
    String html = HtmlReport.render(withStartup(), FairnessReview.of(withStartup()));

    assertThat(html).contains("<section id=\"startup\"><h2>Start, memory and size</h2>");
    assertThat(html).contains("id=\"chart-start-warm\"").contains("id=\"chart-start-cold\"").contains("id=\"chart-memory-peak\"");
    assertThat(html).contains("unavailable: not root");
    assertThat(html).contains("<td>steady-entry</td><td>39.2 ms</td>");
  }
}
