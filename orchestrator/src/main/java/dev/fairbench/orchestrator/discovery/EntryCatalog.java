package dev.fairbench.orchestrator.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Every folder under an impls directory, read through its manifest. */
public final class EntryCatalog {
  private final Path implsDir;
  private final List<Entry> entries;

  private EntryCatalog(Path implsDir, List<Entry> entries) {
    this.implsDir = implsDir;
    this.entries = List.copyOf(entries);
  }

  /** Reads every sub-folder of {@code implsDir}; a broken manifest becomes an invalid entry, not an exception. */
  public static EntryCatalog load(Path implsDir) {
    if (!Files.isDirectory(implsDir)) {
      throw new IllegalArgumentException("the entries folder " + implsDir + (Files.exists(implsDir) ? " is not a folder" : " does not exist"));
    }
    ManifestReader reader = new ManifestReader();
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> children = Files.list(implsDir)) {
      for (Path dir : children.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList()) {
        String name = dir.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        try {
          entries.add(Entry.valid(name, dir, reader.read(dir)));
        } catch (ManifestException e) {
          entries.add(Entry.invalid(name, dir, e.getMessage()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + implsDir, e);
    }
    return new EntryCatalog(implsDir, checkBaselines(entries));
  }

  /** A framework's [ladder].baseline must name a variant of kind "baseline" in the same folder of entries. */
  private static List<Entry> checkBaselines(List<Entry> entries) {
    Set<String> baselines = new java.util.TreeSet<>();
    for (Entry entry : entries) {
      if (entry.isValid()) {
        entry.variants().stream().filter(EntryVariant::baseline).forEach(v -> baselines.add(v.id()));
      }
    }
    List<Entry> checked = new ArrayList<>();
    for (Entry entry : entries) {
      Optional<EntryVariant> wrong = entry.isValid() ? entry.variants().stream()
          .filter(v -> !v.standsOn().isEmpty() && !baselines.contains(v.standsOn())).findFirst() : Optional.empty();
      if (wrong.isPresent()) {
        EntryVariant v = wrong.get();
        String named = v.standsOn().contains(":") ? v.standsOn().substring(0, v.standsOn().indexOf(':')) : v.standsOn();
        boolean broken = entries.stream().anyMatch(e -> e.name().equals(named) && !e.isValid());
        // A variant's [ladder] is its own table merged over the top level's: name the variant it applies to.
        String field = EntryVariant.DEFAULT_VARIANT.equals(v.variant()) ? "ladder.baseline"
            : "variants[" + entry.variants().indexOf(v) + "].ladder.baseline";
        checked.add(Entry.invalid(entry.name(), entry.dir(), new ManifestException(v.file(), field,
            broken ? "names \"" + v.standsOn() + "\", whose own manifest is broken (its error is listed with it), so it "
                + "is no baseline until that is fixed"
            : "names \"" + v.standsOn() + "\", which is no entry of kind \"baseline\" here (baselines: "
                + (baselines.isEmpty() ? "none" : String.join(", ", baselines)) + ")").getMessage()));
      } else {
        checked.add(entry);
      }
    }
    return checked;
  }

  public Path implsDir() {
    return implsDir;
  }

  public List<Entry> entries() {
    return entries;
  }

  public Optional<Entry> entry(String name) {
    return entries.stream().filter(e -> e.name().equals(name)).findFirst();
  }

  /** What the user may type: every entry name, and entry:variant for entries with named variants. */
  public List<String> knownIds() {
    Set<String> ids = new LinkedHashSet<>();
    for (Entry entry : entries) {
      ids.add(entry.name());
      for (EntryVariant variant : entry.variants()) {
        ids.add(variant.id());
      }
    }
    return List.copyOf(ids);
  }

  /**
   * Resolves ENTRY or ENTRY:VARIANT selectors, in the given order; an empty list selects every
   * entry. An entry whose manifest is broken is selected as such, so it is reported, not skipped.
   *
   * @throws UnknownEntryException naming the unknown selectors and the known ones
   */
  public List<Selection> select(List<String> selectors) throws UnknownEntryException {
    List<Selection> selected = new ArrayList<>();
    if (selectors == null || selectors.isEmpty()) {
      for (Entry entry : entries) {
        selected.addAll(Selection.all(entry));
      }
      return selected;
    }
    List<String> unknown = new ArrayList<>();
    for (String selector : selectors) {
      int colon = selector.indexOf(':');
      String name = colon < 0 ? selector : selector.substring(0, colon);
      Optional<Entry> entry = entry(name);
      if (entry.isEmpty()) {
        unknown.add(selector);
        continue;
      }
      if (colon < 0) {
        selected.addAll(Selection.all(entry.get()));
        continue;
      }
      String variantName = selector.substring(colon + 1);
      Optional<EntryVariant> variant =
          entry.get().variants().stream().filter(v -> v.variant().equals(variantName)).findFirst();
      if (variant.isEmpty()) {
        unknown.add(selector);
      } else {
        selected.add(Selection.of(variant.get()));
      }
    }
    if (!unknown.isEmpty()) {
      throw new UnknownEntryException(unknown, knownIds());
    }
    return selected.stream().distinct().toList();
  }

  /** One selected thing to run: a resolved variant, or an entry whose manifest is broken. */
  public record Selection(String id, Optional<EntryVariant> variant, Optional<String> manifestError) {
    static Selection of(EntryVariant variant) {
      return new Selection(variant.id(), Optional.of(variant), Optional.empty());
    }

    static List<Selection> all(Entry entry) {
      if (!entry.isValid()) {
        return List.of(new Selection(entry.name(), Optional.empty(), entry.manifestError()));
      }
      return entry.variants().stream().map(Selection::of).toList();
    }
  }
}
