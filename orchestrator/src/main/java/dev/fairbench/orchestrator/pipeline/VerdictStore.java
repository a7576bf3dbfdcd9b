package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.conformance.ConformanceReports;
import dev.fairbench.conformance.ConformanceSuite;
import dev.fairbench.conformance.SuiteReport;
import dev.fairbench.orchestrator.config.CpuSet;
import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.results.AtomicWrite;
import dev.fairbench.orchestrator.results.ConformanceSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Conformance verdicts kept by content hash, so a run may reuse an earlier check of a server whose entry,
 * suite, toolchain, runtime and limits are all unchanged instead of running the suite again; the run
 * records the verdict as reused and from which check.
 *
 * <p>The hash covers: the suite's own classes and the libraries beside them; the entry's files as a
 * resumed run sees them but its Markdown docs ({@link EntrySources#codeDigest}: in a git checkout those git
 * sees, ignored build output left out, since the build runs again every time); the entry and variant; the
 * runtime; the versions probed where the server runs (its toolchain); the number of server CPUs, the memory limit and
 * the workers; and the suite's time limit. A report the suite cut at its time limit is not kept: what it
 * left unjudged says more about the machine's hour than about the entry.
 */
public final class VerdictStore {
  /** How a run uses the store. */
  public enum Use {
    /** Neither reads nor keeps verdicts (the tests' runs, a foreign server). */
    NONE,
    /** Runs the suite every time and keeps what it finds (`conformance`, `run --fresh-conformance`). */
    RECORD,
    /** Reuses a kept verdict whose hash matches, runs the suite and keeps its verdict otherwise (`run`). */
    REUSE
  }

  /** The first line of what is hashed: a new way of hashing gets a new line, so old verdicts stop matching. */
  static final String KEY_FORMAT = "fairbench-verdict/2";

  public static final VerdictStore NONE = new VerdictStore(null, Use.NONE);

  private static final String ORCHESTRATOR = "dev/fairbench/orchestrator/";

  private static String suiteDigest;

  private final Path dir;
  private final Use use;

  private VerdictStore(Path dir, Use use) {
    this.dir = dir;
    this.use = use;
  }

  /** A store in {@code dir} (made when the first verdict is kept), used as {@code use} says; none for a null dir. */
  public static VerdictStore at(Path dir, Use use) {
    return use == Use.NONE || dir == null ? NONE : new VerdictStore(dir, use);
  }

  private boolean reuses() {
    return use == Use.REUSE;
  }

  /** Whether this store keeps verdicts (and so whether a server's content hash is worth computing). */
  public boolean records() {
    return use != Use.NONE;
  }

  /** A kept verdict and the hash it was kept under. */
  public record Kept(String contentHash, SuiteReport report) {
    public ConformanceSummary.Reused reused() {
      return new ConformanceSummary.Reused(contentHash, report.startedAt());
    }
  }

  /**
   * The hash of everything a verdict of this server depends on, as 64 hex digits.
   *
   * @param runtime  the runtime's name (native, docker)
   * @param versions the versions probed where the server runs
   */
  public static String contentHash(EntryVariant variant, String runtime, Map<String, String> versions, Limits limits,
      Duration suiteTimeLimit) {
    StringBuilder key = new StringBuilder(KEY_FORMAT).append('\n');
    key.append("suite ").append(suiteDigest()).append('\n');
    key.append("entry ").append(variant.entry()).append(':').append(variant.variant()).append('\n');
    key.append("code ").append(EntrySources.codeDigest(variant.dir())).append('\n');
    key.append("runtime ").append(runtime).append('\n');
    new TreeMap<>(versions == null ? Map.<String, String>of() : versions)
        .forEach((tool, version) -> key.append("version ").append(tool).append(' ').append(version).append('\n'));
    key.append("limits ").append(CpuSet.count(limits.serverCpus())).append(" cpus ").append(limits.memoryBytes())
        .append(" bytes ").append(limits.workers()).append(" workers\n");
    key.append("suite time limit ").append(suiteTimeLimit.toMillis()).append(" ms\n");
    return sha256(key.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The verdict kept under this hash, if this store reuses verdicts and a readable one is kept. */
  public Optional<Kept> find(String contentHash) {
    if (!reuses()) {
      return Optional.empty();
    }
    Path file = fileOf(contentHash);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Kept(contentHash, ConformanceReports.readJson(file)));
    } catch (IOException | RuntimeException e) {
      // A file cut short or from another version: the suite runs again and replaces it.
      return Optional.empty();
    }
  }

  /**
   * Keeps a verdict of the suite under its hash, when this store keeps verdicts and the suite finished
   * within {@code timeLimit}; says why not otherwise (a failure to write costs only the reuse).
   *
   * @return empty when kept or not meant to be; otherwise why it was not kept
   */
  public Optional<String> keep(String contentHash, SuiteReport report, Duration timeLimit) {
    if (!records()) {
      return Optional.empty();
    }
    if (report.took().compareTo(timeLimit) >= 0) {
      return Optional.of("the suite reached its time limit, so its verdict is not kept for reuse");
    }
    try {
      AtomicWrite.replace(fileOf(contentHash), ".verdict-", ".tmp", file -> ConformanceReports.writeJson(report, file));
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("its verdict could not be kept for reuse in " + dir + ": " + e.getMessage());
    }
  }

  Path fileOf(String contentHash) {
    if (!contentHash.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("not a content hash: " + contentHash);
    }
    return dir.resolve(contentHash + ".json");
  }

  /**
   * The suite's classes (those of its package and below) and the libraries beside them: from the jar the
   * launcher runs, every class but the orchestrator's own (so a change to the orchestrator keeps the
   * verdicts, a library's new version does not); from a class folder (tests, an IDE), the names of the
   * class path's jars, which carry their versions.
   */
  static synchronized String suiteDigest() {
    if (suiteDigest == null) {
      suiteDigest = digestOfSuite();
    }
    return suiteDigest;
  }

  private static String digestOfSuite() {
    Path source;
    try {
      source = Path.of(ConformanceSuite.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new IllegalStateException("cannot tell where the conformance suite's classes are", e);
    }
    String prefix = ConformanceSuite.class.getPackageName().replace('.', '/') + "/";
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      if (Files.isDirectory(source)) {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(source.resolve(prefix))) {
          files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
          update(sha, source.relativize(file).toString(), Files.readAllBytes(file));
        }
        List<String> jars = new ArrayList<>();
        for (String element : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
          if (element.endsWith(".jar")) {
            jars.add(Path.of(element).getFileName().toString());
          }
        }
        Collections.sort(jars);
        update(sha, "class path", String.join("\n", jars).getBytes(StandardCharsets.UTF_8));
      } else {
        try (JarFile jar = new JarFile(source.toFile())) {
          List<JarEntry> entries = jar.stream()
              .filter(e -> !e.isDirectory())
              .filter(e -> e.getName().startsWith(prefix)
                  || (e.getName().endsWith(".class") && !e.getName().startsWith(ORCHESTRATOR)))
              .sorted(java.util.Comparator.comparing(JarEntry::getName))
              .toList();
          for (JarEntry entry : entries) {
            try (InputStream in = jar.getInputStream(entry)) {
              update(sha, entry.getName(), in.readAllBytes());
            }
          }
        }
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the conformance suite's classes in " + source, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void update(MessageDigest sha, String name, byte[] bytes) {
    sha.update(name.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    sha.update(sha256(bytes).getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
