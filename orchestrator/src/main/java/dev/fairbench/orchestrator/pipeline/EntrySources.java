package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.runtime.Commands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What an entry's folder holds, as a digest of the paths and bytes of its source files: all of them, so
 * a resumed run can tell that an entry changed in any way since the run began; or all but its Markdown
 * docs ({@link #codeDigest}), so that a README's edit is not taken for a change of the server: compare
 * goes by that one to name the change under test, and a kept conformance verdict is reused only for the
 * code it judged ({@link VerdictStore}). In a git checkout the files are those git sees (tracked and
 * untracked, ignored build output left out); elsewhere every file but the usual build and dependency
 * folders.
 */
final class EntrySources {
  /** Build output and dependencies, left out where git cannot say what is ignored. */
  static final Set<String> BUILD_FOLDERS = Set.of(".git", ".venv", "venv", "node_modules", "target", "build",
      "__pycache__", "dist", ".gradle", ".zig-cache", "zig-out", "_build");

  private EntrySources() {}

  /** "sha256:HEX" over the folder's files, or "missing" when there is no such folder. */
  static String digest(Path dir) {
    return digest(dir, file -> true);
  }

  /** As {@link #digest}, leaving out the folder's docs: its Markdown files ({@code *.md}, in any folder). */
  static String codeDigest(Path dir) {
    return digest(dir, file -> !isDoc(file));
  }

  private static boolean isDoc(String file) {
    return file.toLowerCase(Locale.ROOT).endsWith(".md");
  }

  private static String digest(Path dir, Predicate<String> included) {
    if (!Files.isDirectory(dir)) {
      return "missing";
    }
    List<String> files = gitFiles(dir).orElseGet(() -> walked(dir)).stream().filter(included).toList();
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String file : files.stream().sorted().distinct().toList()) {
        Path path = dir.resolve(file);
        sha.update(file.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        if (Files.isRegularFile(path)) {
          sha.update(Files.readAllBytes(path));
        } else {
          sha.update("(deleted)".getBytes(StandardCharsets.UTF_8));
        }
        sha.update((byte) 0);
      }
      return "sha256:" + HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the files of " + dir, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The files git sees in {@code dir}, relative to it; empty outside a work tree or when git sees none. */
  private static Optional<List<String>> gitFiles(Path dir) {
    return Commands.output(List.of("git", "--no-optional-locks", "-C", dir.toString(), "ls-files", "-z", "--cached",
            "--others", "--exclude-standard", "--", "."), dir, Duration.ofSeconds(30))
        .map(out -> Stream.of(out.split("\0")).filter(s -> !s.isBlank()).toList())
        .filter(list -> !list.isEmpty());
  }

  private static List<String> walked(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths.filter(Files::isRegularFile)
          .map(dir::relativize)
          .filter(rel -> {
            for (Path part : rel) {
              if (BUILD_FOLDERS.contains(part.toString())) {
                return false;
              }
            }
            return true;
          })
          .map(Path::toString)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the files of " + dir, e);
    }
  }
}
