package dev.fairbench.orchestrator.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.report.FairnessReview;
import dev.fairbench.orchestrator.report.ResultsFixtures;
import dev.fairbench.orchestrator.results.ResultsDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renders a report with every kind of cell, opens it in a real headless Chromium (Debian's, which
 * scripts/setup installs), and asserts on the DOM the browser built. Also leaves a screenshot in
 * orchestrator/target/browser/report.png.
 */
class HtmlReportInBrowserTest {
  private static final Path OUT = Path.of("target", "browser").toAbsolutePath();
  private static Document dom;
  /** Every Chromium profile folder the test made, to check that none is left behind. */
  private static final List<Path> profiles = new ArrayList<>();

  @BeforeAll
  static void renderAndOpenInChromium() throws Exception {
    ResultsDocument results = ResultsFixtures.mixed();
    FairnessReview review = FairnessReview.of(results);
    Files.createDirectories(OUT);
    Path html = OUT.resolve("report.html");
    Files.writeString(html, HtmlReport.render(results, review), StandardCharsets.UTF_8);
    dom = Jsoup.parse(chromium(html, "--dump-dom"), html.toUri().toString());
    chromium(html, "--screenshot=" + OUT.resolve("report.png"), "--window-size=1200,2400");
  }

  private static String chromium(Path page, String... args) throws IOException, InterruptedException {
    String binary = System.getenv().getOrDefault("FAIRBENCH_CHROMIUM", "/usr/bin/chromium");
    assertThat(Path.of(binary)).as("Chromium is needed for this test: run scripts/setup (Debian package chromium)").exists();
    Path profile = Files.createTempDirectory("fairbench-chromium-");
    profiles.add(profile);
    Process p = null;
    try {
      List<String> command = new ArrayList<>(List.of(binary, "--headless", "--no-sandbox", "--disable-gpu",
          "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
          "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile));
      command.addAll(List.of(args));
      command.add(page.toUri().toString());
      p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished within 60 s").isTrue();
      assertThat(p.exitValue()).as("chromium exit code").isZero();
      return out;
    } finally {
      // Whatever happened, no browser is left writing into the profile, and the profile (2 MiB) is gone.
      if (p != null) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        if (p.isAlive()) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
      TestEntries.deleteTree(profile);
    }
  }

  @Test
  void theChromiumProfilesAreDeletedAfterUse() {
    assertThat(profiles).as("one profile per Chromium start").hasSize(2);
    for (Path profile : profiles) {
      assertThat(profile).doesNotExist();
    }
  }

  @Test
  void everyEndpointHasChartsForThroughputCpuLatencyAndMemory() {
    assertThat(dom.select("section.endpoint")).hasSize(2);
    for (String kind : List.of("rps", "cpu", "p50", "p99", "rss")) {
      assertThat(dom.select("svg.chart[id^=chart-" + kind + "-]")).as(kind + " charts").hasSize(2);
    }
    assertThat(dom.select("svg#chart-rps-plaintext g.bar-row")).as("three entries and the calibration").hasSize(4);
  }

  @Test
  void throughputAndCpuBarsCarryTheirConfidenceIntervalAsWhiskers() {
    assertThat(dom.select("svg#chart-rps-plaintext path.whisker")).hasSize(3);
    assertThat(dom.select("svg#chart-cpu-plaintext path.whisker")).hasSize(3);
  }

  @Test
  void theCalibrationServerIsMarkedAndNeverRankedAsAnEntry() {
    assertThat(dom.select("svg#chart-rps-plaintext g.calibration[data-label='nginx (calibration)']")).hasSize(1);
    assertThat(dom.select("table.trust tr.calibration .badge.calibration")).hasSize(1);
    assertThat(dom.select("p.trustline").text()).contains("Trustworthy: 3 of 4 entry cells");
  }

  @Test
  void clientBoundInvalidAndUnavailableCellsAreVisiblyMarked() {
    assertThat(dom.select("svg#chart-rps-plaintext g.client-bound[data-label=fast-entry]")).hasSize(1);
    assertThat(dom.select("svg#chart-rps-json g.invalid[data-label=fast-entry]")).hasSize(1);
    assertThat(dom.select("svg#chart-rps-json g.unavailable[data-label=absent-entry] text.missing").text())
        .contains("hex.pm is unreachable");
    assertThat(dom.select("table.trust tr.entry td.cell.trusted")).as("client-bound but tight on CPU-µs/request counts").hasSize(3);
    assertThat(dom.select("table.trust tr.entry td.cell.trusted .badge.client-bound")).hasSize(1);
    assertThat(dom.select("table.trust tr.entry td.cell.doubtful .badge.invalid")).hasSize(1);
    assertThat(dom.select("table.trust td.cell.unavailable")).hasSize(2);
    assertThat(dom.select("#rounds tbody tr")).hasSize(9);
  }

  @Test
  void conformanceVerdictsListEachWarn() {
    assertThat(dom.select("#conformance tr.conformance-row")).hasSize(4);
    assertThat(dom.select("#conformance li.warn").text()).contains("7.10");
  }

  @Test
  void theFairnessReviewAndEnvironmentAreInThePage() {
    assertThat(dom.select("#fairness article.review")).hasSize(4);
    assertThat(dom.select("#fairness article[data-entry=steady-entry]").text()).contains("release build");
    assertThat(dom.select("#environment").text()).contains("cgroup-v1").contains("Test CPU").contains("0123abcd");
  }

  @Test
  void thePageNeedsNoNetwork() {
    assertThat(dom.select("script, link, img, iframe, object, [src]")).isEmpty();
    assertThat(dom.select("[href]")).allSatisfy(a -> assertThat(a.attr("href")).startsWith("#"));
    assertThat(dom.select("style").html()).doesNotContain("url(").doesNotContain("@import");
  }

  @Test
  void aScreenshotIsWritten() throws IOException {
    byte[] png = Files.readAllBytes(OUT.resolve("report.png"));
    assertThat(png.length).isGreaterThan(10_000);
    assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
  }
}
