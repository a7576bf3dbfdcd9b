package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.ClauseResult;
import dev.fairbench.conformance.Severity;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.conformance.Verdict;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryCatalog;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.UnknownEntryException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A conformance verdict is reused only for the same entry, suite, toolchain, runtime and limits. */
class VerdictStoreTest {
  static final Limits LIMITS = new Limits("0", "1", 512L * 1024 * 1024, 1);
  static final Map<String, String> VERSIONS = Map.of("runtime", "Python 3.11.7");
  static final Duration SUITE_LIMIT = Duration.ofMinutes(10);

  @TempDir Path temp;
  Path impls;

  @BeforeEach
  void copyTheFixtureEntry() throws IOException {
    impls = temp.resolve("impls");
    TestEntries.copyTree(TestEntries.impls().resolve("tiny-python"), impls.resolve("tiny-python"));
  }

  EntryVariant variant(String name) {
    try {
      return EntryCatalog.load(impls).select(List.of("tiny-python:" + name)).getFirst().variant().orElseThrow();
    } catch (UnknownEntryException e) {
      throw new AssertionError(e);
    }
  }

  String hash() {
    return VerdictStore.contentHash(variant("stdlib"), "native", VERSIONS, LIMITS, SUITE_LIMIT);
  }

  static SuiteReport report(Duration took) {
    return new SuiteReport(URI.create("http://127.0.0.1:8080"), Instant.parse("2026-12-06T00:18:03Z"), took,
        List.of(new ClauseResult("1.1", "GET /plaintext", Severity.FAIL, Verdict.PASS, List.of())));
  }

  @Test
  void theSameEntrySuiteToolchainRuntimeAndLimitsHashTheSame() {
    assertThat(hash()).matches("[0-9a-f]{64}").isEqualTo(hash());
  }

  @Test
  void anyChangeToWhatTheVerdictDependsOnChangesTheHash() throws IOException {
    String before = hash();
    EntryVariant stdlib = variant("stdlib");
    assertThat(List.of(
        VerdictStore.contentHash(variant("wrong-json"), "native", VERSIONS, LIMITS, SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "docker", VERSIONS, LIMITS, SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "native", Map.of("runtime", "Python 3.12.1"), LIMITS, SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "native", VERSIONS, new Limits("0-1", "2", LIMITS.memoryBytes(), 1), SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "native", VERSIONS, new Limits("0", "1", 256L * 1024 * 1024, 1), SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "native", VERSIONS, new Limits("0", "1", LIMITS.memoryBytes(), 2), SUITE_LIMIT),
        VerdictStore.contentHash(stdlib, "native", VERSIONS, LIMITS, Duration.ofMinutes(1))))
        .doesNotContain(before).doesNotHaveDuplicates();

    Path server = impls.resolve("tiny-python/server.py");
    Files.writeString(server, Files.readString(server) + "\n# one more line\n");
    String edited = hash();
    assertThat(edited).isNotEqualTo(before);
    Files.writeString(impls.resolve("tiny-python/helper.py"), "X = 1\n");
    assertThat(hash()).isNotEqualTo(edited);
  }

  @Test
  void whichServerCpusAreUsedDoesNotChangeTheHashButHowManyDoes() {
    EntryVariant stdlib = variant("stdlib");
    assertThat(VerdictStore.contentHash(stdlib, "native", VERSIONS, new Limits("1", "0", LIMITS.memoryBytes(), 1),
        SUITE_LIMIT)).isEqualTo(hash());
  }

  @Test
  void buildOutputDoesNotChangeTheHashSinceTheBuildRunsEveryTime() throws IOException {
    String before = hash();
    Files.createDirectories(impls.resolve("tiny-python/build"));
    Files.writeString(impls.resolve("tiny-python/build/server"), "built\n");
    Files.createDirectories(impls.resolve("tiny-python/__pycache__"));
    Files.writeString(impls.resolve("tiny-python/__pycache__/server.cpython-311.pyc"), "compiled\n");
    assertThat(hash()).isEqualTo(before);
  }

  @Test
  void anEditOfTheEntrysDocsDoesNotChangeTheHashSinceTheServerIsTheSame() throws IOException {
    String before = hash();
    Files.writeString(impls.resolve("tiny-python/README.md"), "# tiny-python\n\nWhy it departs from idiom.\n");
    Files.createDirectories(impls.resolve("tiny-python/docs"));
    Files.writeString(impls.resolve("tiny-python/docs/NOTES.MD"), "notes\n");
    assertThat(hash()).isEqualTo(before);
  }

  @Test
  void aKeptVerdictIsFoundUnderItsHashByAStoreThatReuses() {
    VerdictStore store = VerdictStore.at(temp.resolve("verdicts"), VerdictStore.Use.REUSE);
    String hash = hash();
    assertThat(store.find(hash)).isEmpty();
    assertThat(store.keep(hash, report(Duration.ofSeconds(6)), SUITE_LIMIT)).isEmpty();

    VerdictStore.Kept kept = store.find(hash).orElseThrow();
    assertThat(kept.report().overall()).isEqualTo(Verdict.PASS);
    assertThat(kept.reused().checkedAt()).isEqualTo(Instant.parse("2026-12-06T00:18:03Z"));
    assertThat(kept.reused().contentHash()).isEqualTo(hash);
    assertThat(kept.reused().describe()).isEqualTo("the check of 2026-12-06 00:18:03 UTC (content hash "
        + hash.substring(0, 8) + ")");
    assertThat(store.find(VerdictStore.contentHash(variant("stdlib"), "docker", VERSIONS, LIMITS, SUITE_LIMIT)))
        .isEmpty();
  }

  @Test
  void aStoreThatRecordsKeepsVerdictsButNeverReusesThem() {
    Path dir = temp.resolve("verdicts");
    VerdictStore recording = VerdictStore.at(dir, VerdictStore.Use.RECORD);
    String hash = hash();
    assertThat(recording.keep(hash, report(Duration.ofSeconds(6)), SUITE_LIMIT)).isEmpty();
    assertThat(recording.find(hash)).isEmpty();
    assertThat(VerdictStore.at(dir, VerdictStore.Use.REUSE).find(hash)).isPresent();
  }

  @Test
  void noStoreKeepsOrFindsAnything() {
    String hash = hash();
    assertThat(VerdictStore.at(null, VerdictStore.Use.REUSE)).isSameAs(VerdictStore.NONE);
    assertThat(VerdictStore.NONE.keep(hash, report(Duration.ofSeconds(6)), SUITE_LIMIT)).isEmpty();
    assertThat(VerdictStore.NONE.find(hash)).isEmpty();
  }

  @Test
  void aVerdictTheSuiteCutAtItsTimeLimitIsNotKept() {
    VerdictStore store = VerdictStore.at(temp.resolve("verdicts"), VerdictStore.Use.REUSE);
    String hash = hash();
    assertThat(store.keep(hash, report(SUITE_LIMIT), SUITE_LIMIT)).hasValueSatisfying(
        why -> assertThat(why).contains("reached its time limit"));
    assertThat(store.find(hash)).isEmpty();
  }

  @Test
  void aKeptFileThatCannotBeReadIsNotReusedAndTheNextVerdictReplacesIt() throws IOException {
    Path dir = temp.resolve("verdicts");
    VerdictStore store = VerdictStore.at(dir, VerdictStore.Use.REUSE);
    String hash = hash();
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(hash + ".json"), "{\"format\": \"fairbench-conformance/1\", \"clau");
    assertThat(store.find(hash)).isEmpty();
    assertThat(store.keep(hash, report(Duration.ofSeconds(6)), SUITE_LIMIT)).isEmpty();
    assertThat(store.find(hash)).isPresent();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly(hash + ".json");
    }
  }
}
