package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a native build left in an entry's folder: the paths git ignores there (build/, target/,
 * .venv/, node_modules/, _build/, ...; `git ls-files --others --ignored --exclude-standard
 * --directory`), or, outside a git work tree, those of {@link #USUAL_OUTPUTS} that exist. Their
 * size is the apparent size of every file, folder and symbolic link (not followed), a file with
 * several hard links counted once: what `du -sb` says. A Rust target/ or a Gradle build/ holds
 * the compiler's caches as well as the program.
 *
 * @param bytes  the total, -1 when nothing could be measured
 * @param paths  each path (relative to the entry folder) and its bytes, largest first
 * @param method how the paths were found
 */
public record BuildOutput(long bytes, Map<String, Long> paths, String method) {
  /** The usual build output folders, when git cannot say what is ignored. */
  public static final List<String> USUAL_OUTPUTS =
      List.of("build", "target", ".venv", "venv", "node_modules", "_build", "deps", "dist", "zig-out", "tools/node_modules",
          "__pycache__");

  public BuildOutput {
    paths = Map.copyOf(paths);
  }

  public static BuildOutput measure(Path entryDir) {
    List<String> ignored = gitIgnored(entryDir);
    String method;
    List<String> candidates;
    if (ignored != null) {
      candidates = ignored;
      method = "git-ignored paths, du -sb";
    } else {
      candidates = USUAL_OUTPUTS.stream().filter(p -> Files.exists(entryDir.resolve(p), LinkOption.NOFOLLOW_LINKS)).toList();
      method = "usual output folders, du -sb";
    }
    Set<Object> seen = new HashSet<>();
    List<Map.Entry<String, Long>> sized = new ArrayList<>();
    long total = 0;
    for (String path : candidates) {
      long bytes = apparentBytes(entryDir.resolve(path), seen);
      sized.add(Map.entry(path, bytes));
      total += bytes;
    }
    sized.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    Map<String, Long> ordered = new LinkedHashMap<>();
    sized.forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return new BuildOutput(total, ordered, method);
  }

  /** The ignored paths under {@code dir}, relative to it, without a trailing slash; null outside a git work tree. */
  static List<String> gitIgnored(Path dir) {
    try {
      Process git = new ProcessBuilder("git", "-C", dir.toString(), "ls-files", "--others", "--ignored",
          "--exclude-standard", "--directory", "-z", ".")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out;
      try (InputStream in = git.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!git.waitFor(20, TimeUnit.SECONDS)) {
        git.destroyForcibly();
        return null;
      }
      return git.exitValue() == 0 ? parseGitList(out) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** NUL-separated paths, trailing slashes dropped. */
  static List<String> parseGitList(String nulSeparated) {
    List<String> paths = new ArrayList<>();
    for (String path : nulSeparated.split("\0")) {
      String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
      if (!trimmed.isEmpty()) {
        paths.add(trimmed);
      }
    }
    return paths;
  }

  /** Apparent bytes under {@code path} as `du -sb` counts them; a file whose key is in {@code seen} counts 0. */
  static long apparentBytes(Path path, Set<Object> seen) {
    long[] total = {0};
    try {
      Files.walkFileTree(path, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          total[0] += attrs.size();
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          Object key = attrs.fileKey();
          if (key == null || seen.add(key)) {
            total[0] += attrs.size();
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // unreadable: what was counted stays
    }
    return total[0];
  }
}
