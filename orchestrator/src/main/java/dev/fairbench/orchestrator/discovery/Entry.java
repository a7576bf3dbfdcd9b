package dev.fairbench.orchestrator.discovery;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A folder under impls/: either its variants, or why its manifest cannot be used.
 *
 * @param manifestError empty when the manifest is valid
 */
public record Entry(String name, Path dir, List<EntryVariant> variants, Optional<String> manifestError) {
  public Entry {
    variants = List.copyOf(variants);
  }

  public static Entry valid(String name, Path dir, List<EntryVariant> variants) {
    return new Entry(name, dir, variants, Optional.empty());
  }

  public static Entry invalid(String name, Path dir, String error) {
    return new Entry(name, dir, List.of(), Optional.of(error));
  }

  public boolean isValid() {
    return manifestError.isEmpty();
  }
}
