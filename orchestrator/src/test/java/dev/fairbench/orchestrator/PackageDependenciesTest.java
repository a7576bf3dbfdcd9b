package dev.fairbench.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shape of the house (STYLE.md): lower packages know nothing of higher ones. Read from the sources. */
class PackageDependenciesTest {
  private static final Path MAIN = Path.of(System.getProperty("fairbench.root", ".."))
      .resolve("orchestrator/src/main/java/dev/fairbench/orchestrator");
  private static final Pattern REFERENCE = Pattern.compile("dev\\.fairbench\\.orchestrator\\.([a-z]+)\\.[A-Z]");

  /** package → the other fairbench packages its sources name, each with the files that do. */
  private static final Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
  /** file (relative to the orchestrator package) → its text. */
  private static final Map<String, String> sources = new TreeMap<>();

  @BeforeAll
  static void readSources() throws IOException {
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String relative = MAIN.relativize(file).toString();
        String pkg = relative.contains("/") ? relative.substring(0, relative.indexOf('/')) : "";
        String text = Files.readString(file);
        sources.put(relative, text);
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
          if (!m.group(1).equals(pkg)) {
            uses.computeIfAbsent(pkg, k -> new TreeMap<>()).computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(relative);
          }
        }
      }
    }
    assertThat(sources).as("sources under " + MAIN).hasSizeGreaterThan(50);
  }

  private static Map<String, Set<String>> usesOf(String pkg) {
    return uses.getOrDefault(pkg, Map.of());
  }

  @Test
  void coreAndStatsAreAtTheBottomAndNameNoOtherPackage() {
    assertThat(usesOf("core")).isEmpty();
    assertThat(usesOf("stats")).isEmpty();
  }

  @Test
  void configDoesNotReachUpIntoLoad() {
    assertThat(usesOf("config")).doesNotContainKeys("load", "runtime", "pipeline", "report", "results", "cli");
  }

  @Test
  void resultsCarryTheirFactsWithoutNamingTheRuntime() {
    assertThat(usesOf("results")).doesNotContainKeys("runtime", "load", "pipeline", "report", "discovery", "cli");
  }

  @Test
  void reportsReadResultsOnly() {
    assertThat(usesOf("report")).doesNotContainKeys("discovery", "runtime", "load", "pipeline", "cli");
  }

  @Test
  void onlyTheCliNamesTheCli() {
    uses.forEach((pkg, used) -> {
      if (!pkg.equals("cli") && !pkg.isEmpty()) {
        assertThat(used).as(pkg).doesNotContainKey("cli");
      }
    });
  }

  @Test
  void noCodeOutsideTheRuntimePackageNamesARuntimeImplementation() {
    Pattern implementation = Pattern.compile("\\b(NativeRuntime|DockerRuntime)\\b");
    assertThat(sources.entrySet().stream().filter(e -> !e.getKey().startsWith("runtime/"))
        .filter(e -> implementation.matcher(e.getValue()).find()).map(Map.Entry::getKey)).isEmpty();
  }
}
