package dev.fairbench.orchestrator.report;

import dev.fairbench.orchestrator.results.EntryResult;
import dev.fairbench.orchestrator.results.MemoryFigures;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.SizeFigures;
import dev.fairbench.orchestrator.results.StartupFigures;
import dev.fairbench.orchestrator.results.StartupFigures.StartTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The rows of the "Start, memory and size" section, shared by the Markdown and HTML reports and compare. */
public final class StartupTable {
  public static final String TITLE = "Start, memory and size";
  public static final List<String> HEADER = List.of("Entry", "cold start", "warm start p50 (min–max, n)",
      "warm p50 plaintext / json / user / validate", "idle memory", "after warm-up", "peak", "image / build size");

  private StartupTable() {}

  public static List<EntryResult> entries(ResultsDocument document) {
    return document.entries().stream().filter(e -> e.startup() != null).toList();
  }

  /** What the figures mean, one paragraph. */
  public static String explanation(ResultsDocument document) {
    List<EntryResult> with = entries(document);
    String memoryMethod = with.stream().map(EntryResult::startup).map(StartupFigures::memory)
        .filter(m -> m != null && !m.method().isBlank()).map(MemoryFigures::method).findFirst().orElse("");
    String peakDuring = with.stream().map(EntryResult::startup).map(StartupFigures::memory)
        .filter(m -> m != null && !m.peakDuring().isBlank()).map(MemoryFigures::peakDuring).findFirst().orElse("");
    long poll = with.stream().mapToLong(e -> e.startup().pollMillis()).max().orElse(0);
    return "Start time: from the launch of the start command (or the container's creation) to the first correct answer, "
        + "tried every " + poll + " ms (the resolution); \"start\" columns are the time until every endpoint answered "
        + "correctly. Warm starts follow the build (page cache warm), a fresh process each time; the cold start drops the "
        + "page cache first. Memory counts each page once across the server's processes"
        + (memoryMethod.isBlank() ? "" : " (" + memoryMethod + ")") + ": idle right after the start, after the warm-up, and "
        + "the peak of samples" + (peakDuring.isBlank() ? "" : " during " + peakDuring) + ". Size: the Docker image "
        + "(+ the layers above its shared base image), or natively the build output in the entry's folder "
        + "(git-ignored paths, du -sb). Lower is better.";
  }

  public static List<List<String>> rows(ResultsDocument document) {
    List<List<String>> rows = new ArrayList<>();
    for (EntryResult entry : entries(document)) {
      rows.add(row(entry));
    }
    return rows;
  }

  static List<String> row(EntryResult entry) {
    StartupFigures s = entry.startup();
    MemoryFigures m = s.memory();
    List<String> row = new ArrayList<>();
    row.add(entry.id() + (entry.calibration() ? " (calibration)" : ""));
    row.add(time(s.cold().get(StartupFigures.ALL)).orElse(s.coldNote().isBlank() ? "—" : s.coldNote()));
    row.add(Optional.ofNullable(s.warm().get(StartupFigures.ALL)).map(t -> millis(t.medianMillis())
        + String.format(Locale.ROOT, " (%s–%s, %d)", millis(t.minMillis()), millis(t.maxMillis()), t.n()))
        .orElse(s.note().isBlank() ? "—" : s.note()));
    List<String> perEndpoint = new ArrayList<>();
    for (String endpoint : List.of("plaintext", "json", "user", "validate")) {
      perEndpoint.add(time(s.warm().get(endpoint)).orElse("—"));
    }
    row.add(String.join(" / ", perEndpoint));
    row.add(m == null ? "—" : mebibytes(m.idleBytes()));
    row.add(m == null ? "—" : mebibytes(m.afterWarmupBytes()));
    row.add(m == null ? "—" : mebibytes(m.peakBytes()));
    row.add(size(s.size()));
    return row;
  }

  /** The median, "—" when absent. */
  public static Optional<String> time(StartTime t) {
    return t == null || t.n() == 0 ? Optional.empty() : Optional.of(millis(t.medianMillis()));
  }

  public static String millis(double value) {
    return value >= 100 ? String.format(Locale.ROOT, "%,.0f ms", value) : String.format(Locale.ROOT, "%.1f ms", value);
  }

  public static String mebibytes(long bytes) {
    if (bytes < 0) {
      return "—";
    }
    return bytes < 1048576 ? String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0)
        : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  public static String size(SizeFigures size) {
    if (size == null) {
      return "—";
    }
    if (size.imageBytes() >= 0) {
      return "image " + mebibytes(size.imageBytes()) + (size.baseImage().isBlank() ? ""
          : " (+" + mebibytes(size.bytesAboveBase()) + " in " + size.layersAboveBase() + " layers over " + size.baseImage() + ")");
    }
    if (size.buildOutputBytes() >= 0) {
      return "build " + mebibytes(size.buildOutputBytes())
          + (size.buildOutputs().isEmpty() ? "" : " (" + String.join(", ", size.buildOutputs().keySet()) + ")");
    }
    return size.note().isBlank() ? "—" : size.note();
  }
}
