package dev.fairbench.orchestrator.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.discovery.EntryCatalog.Selection;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
