package dev.fairbench.orchestrator.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntryCatalogTest {
  private final EntryCatalog catalog = EntryCatalog.load(TestEntries.impls());

  @Test
  void readsEveryFolderAndKeepsBrokenManifestsAsInvalidEntries() {
    assertThat(catalog.entries()).extracting(Entry::name)
        .containsExactly("bad-manifest", "broken-build", "exits-at-start", "missing-tool", "tiny-python");
    assertThat(catalog.entry("bad-manifest").orElseThrow().manifestError()).get().asString()
        .contains("bad-manifest/fairbench.toml").contains("start.comand");
  }

  @Test
  void anEntryNameSelectsAllItsVariantsAndEntryVariantSelectsOne() throws Exception {
    assertThat(catalog.select(List.of("tiny-python"))).extracting(Selection::id)
        .containsExactly("tiny-python:stdlib", "tiny-python:wrong-json");
    assertThat(catalog.select(List.of("tiny-python:wrong-json"))).extracting(Selection::id)
        .containsExactly("tiny-python:wrong-json");
  }

  @Test
  void noSelectorSelectsEverythingIncludingBrokenManifests() throws Exception {
    assertThat(catalog.select(List.of())).extracting(Selection::id).contains("bad-manifest", "tiny-python:stdlib");
  }

  @Test
  void unknownNamesAreRejectedWithTheKnownOnes() {
    assertThatThrownBy(() -> catalog.select(List.of("tiny-python", "nginx", "tiny-python:pypy")))
        .isInstanceOf(UnknownEntryException.class)
        .hasMessageContaining("nginx")
        .hasMessageContaining("tiny-python:pypy")
        .hasMessageContaining("known: ")
        .hasMessageContaining("tiny-python:stdlib");
  }

  /** The ladder fixtures (tiny-bare, tiny-framework) and {@code name}, tiny-framework standing on {@code baseline}. */
  private static EntryCatalog ladderWith(Path impls, String name, String baseline) throws Exception {
    Path ladder = TestEntries.impls().getParent().resolve("ladder");
    for (String entry : List.of("tiny-bare", "tiny-framework")) {
      Files.createDirectories(impls.resolve(entry));
      Files.copy(ladder.resolve(entry + "/fairbench.toml"), impls.resolve(entry + "/fairbench.toml"));
    }
    Files.createDirectories(impls.resolve(name));
    Files.writeString(impls.resolve(name + "/fairbench.toml"), Files.readString(ladder.resolve("tiny-framework/fairbench.toml"))
        .replace("name        = \"tiny-framework\"", "name = \"" + name + "\"")
        .replace("baseline = \"tiny-bare\"", "baseline = \"" + baseline + "\""));
    return EntryCatalog.load(impls);
  }

  private static String manifestError(EntryCatalog catalog, String name) {
    return catalog.entry(name).orElseThrow().manifestError().orElseThrow();
  }

  @Test
  void aFrameworkStandingOnAnEntryThatIsNoBaselineIsUnavailableSayingSo(@TempDir Path impls) throws Exception {
    EntryCatalog catalog = ladderWith(impls, "on-a-framework", "tiny-framework");
    assertThat(manifestError(catalog, "on-a-framework")).contains("on-a-framework/fairbench.toml")
        .contains("field `ladder.baseline`: names \"tiny-framework\", which is no entry of kind \"baseline\" here "
            + "(baselines: tiny-bare)");
    assertThat(catalog.entry("tiny-framework").orElseThrow().isValid()).isTrue();
  }

  @Test
  void aFrameworkStandingOnNoEntryAtAllIsUnavailableSayingSo(@TempDir Path impls) throws Exception {
    EntryCatalog catalog = ladderWith(impls, "on-nothing", "no-such-baseline");
    assertThat(manifestError(catalog, "on-nothing"))
        .contains("names \"no-such-baseline\", which is no entry of kind \"baseline\" here (baselines: tiny-bare)");
  }

  @Test
  void aFrameworkStandingOnABaselineWhoseManifestIsBrokenSaysThatRatherThanNoBaseline(@TempDir Path impls)
      throws Exception {
    EntryCatalog catalog = ladderWith(impls, "on-broken", "broken-bare");
    Files.createDirectories(impls.resolve("broken-bare"));
    Files.writeString(impls.resolve("broken-bare/fairbench.toml"), Files.readString(impls.resolve("tiny-bare/fairbench.toml"))
        .replace("name        = \"tiny-bare\"", "name = \"broken-bare\"").replace("model = \"processes\"", "model = \"fibers\""));
    catalog = EntryCatalog.load(impls);
    assertThat(manifestError(catalog, "broken-bare")).contains("workers.model");
    assertThat(manifestError(catalog, "on-broken"))
        .contains("field `ladder.baseline`: names \"broken-bare\", whose own manifest is broken (its error is "
            + "listed with it), so it is no baseline until that is fixed");
  }

  @Test
  void aVariantStandingOnNoBaselineIsNamedByItsIndexInTheVariantsArray(@TempDir Path impls) throws Exception {
    EntryCatalog catalog = ladderWith(impls, "two-variants", "tiny-bare");
    Path manifest = impls.resolve("two-variants/fairbench.toml");
    Files.writeString(manifest, Files.readString(manifest).replace("[ladder]\nbaseline = \"tiny-bare\"\n", "")
        + "\n[[variants]]\nname = \"good\"\n[variants.ladder]\nbaseline = \"tiny-bare\"\n"
        + "\n[[variants]]\nname = \"typo\"\n[variants.ladder]\nbaseline = \"tiny-bear\"\n");
    catalog = EntryCatalog.load(impls);
    assertThat(manifestError(catalog, "two-variants"))
        .contains("field `variants[1].ladder.baseline`: names \"tiny-bear\", which is no entry of kind \"baseline\"");
  }
}
