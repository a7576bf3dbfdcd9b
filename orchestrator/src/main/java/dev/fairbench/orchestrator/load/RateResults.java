package dev.fairbench.orchestrator.load;

import dev.fairbench.orchestrator.results.ConformanceSummary;
import dev.fairbench.orchestrator.results.EntryStatus;
import dev.fairbench.orchestrator.results.Environment;
import dev.fairbench.orchestrator.results.ResultsJson;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/** The file `fairbench rate` writes (rate.json): Jackson records, rewritten atomically after every cell. */
public final class RateResults {
  public static final int SCHEMA_VERSION = 1;
  public static final String KIND = "constant-rate";

  private RateResults() {}

  /**
   * @param environment the same block as results.json; its load settings say runs 1, and threads
   *                    are oha's worker threads
   */
  public record Document(int schemaVersion, String kind, Environment environment, Settings settings,
      List<EntryRecord> entries) {
    public Document withEntries(List<EntryRecord> newEntries) {
      return new Document(schemaVersion, kind, environment, settings, List.copyOf(newEntries));
    }
  }

  /**
   * How every cell was driven, and the thresholds of its flags.
   *
   * @param saturationThreshold a cell whose achieved rate is below this share of the target is "saturated"
   * @param validSuccessRate    a cell whose success rate is below this is "invalid"
   */
  public record Settings(double targetRate, double durationSeconds, double warmupSeconds, int connections,
      double timeoutSeconds, boolean latencyCorrection, double saturationThreshold, double validSuccessRate) {}

  /** One entry variant: how far it got, and its cells. */
  public record EntryRecord(String id, String entry, String variant, String language, String framework,
      Map<String, String> versions, EntryStatus status, String reason, String logTail,
      ConformanceSummary conformance, List<Cell> cells) {}

  /**
   * One endpoint of one entry.
   *
   * @param status      "measured" or "failed"
   * @param measurement null when the cell failed before its measured run finished
   */
  public record Cell(String endpoint, String status, String reason, Measurement measurement, List<String> flags) {
    public static final String MEASURED = "measured";
    public static final String FAILED = "failed";
  }

  /**
   * The measured run of a cell.
   *
   * @param scheduled       target rate × duration: the requests the run should have sent
   * @param sent            requests oha started (completed + errors); fewer than scheduled when every
   *                        connection was busy until the deadline: the rest were never sent
   * @param completed       requests that got a response, whatever its status
   * @param successRate     200 responses over requests sent
   * @param statusCounts    responses by status code
   * @param errorCounts     requests without a response, by oha's error text
   * @param latencyMicros   corrected for coordinated omission; null when nothing was answered
   * @param clientCpuUtilisation oha's CPU seconds over the run's wall time (1.0 = one core)
   */
  public record Measurement(double targetRate, double achievedRate, double durationSeconds, long scheduled, long sent,
      long completed, long errors, double successRate, Map<String, Long> statusCounts,
      Map<String, Long> errorCounts, ConstantRateResult.Latency latencyMicros, double serverCpuSeconds,
      long serverPeakRssBytes, long serverMemoryPeakBytes, double clientCpuSeconds, double clientCpuUtilisation) {}

  /** Writes to a temporary file beside {@code file}, then renames it over {@code file}. */
  public static void write(Document document, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, ".rate-", ".json.tmp");
    try {
      ResultsJson.mapper().writeValue(temp.toFile(), document);
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  public static Document read(Path file) throws IOException {
    return ResultsJson.mapper().readValue(file.toFile(), Document.class);
  }
}
