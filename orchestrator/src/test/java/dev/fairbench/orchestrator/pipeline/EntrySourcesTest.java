package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.runtime.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An entry's sources are every file of its folder; its code is all of them but its Markdown docs. */
class EntrySourcesTest {
  @TempDir Path folder;

  void write(String file, String text) throws IOException {
    Path path = folder.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }

  void anEditOfTheDocsChangesTheSourcesButNotTheCode() throws IOException {
    String sources = EntrySources.digest(folder);
    String code = EntrySources.codeDigest(folder);

    write("README.md", "# entry\n\nNow says something else.\n");
    assertThat(EntrySources.digest(folder)).isNotEqualTo(sources);
    assertThat(EntrySources.codeDigest(folder)).isEqualTo(code);

    write("src/server.py", "print('changed')\n");
    assertThat(EntrySources.codeDigest(folder)).isNotEqualTo(code);
  }

  @Test
  void outsideAGitWorkTreeTheDocsAreLeftOutOfTheCode() throws IOException {
    write("README.md", "# entry\n");
    write("src/server.py", "print('serving')\n");
    anEditOfTheDocsChangesTheSourcesButNotTheCode();
  }

  @Test
  void inAGitWorkTreeTheDocsAreLeftOutOfTheCodeTrackedOrNot() throws IOException {
    write("README.md", "# entry\n");
    write("src/server.py", "print('serving')\n");
    write(".gitignore", "out/\n");
    assertThat(Commands.output(List.of("git", "init", "-q", folder.toString()), folder, Duration.ofSeconds(30)))
        .isPresent();
    assertThat(Commands.output(List.of("git", "-C", folder.toString(), "add", "README.md"), folder,
        Duration.ofSeconds(30))).isPresent();
    write("out/server", "ignored build output\n");
    String sources = EntrySources.digest(folder);
    Files.delete(folder.resolve("out/server"));
    assertThat(EntrySources.digest(folder)).as("ignored files are not sources").isEqualTo(sources);
    anEditOfTheDocsChangesTheSourcesButNotTheCode();
  }

  @Test
  void aFolderThatIsNotThereIsMissing() {
    assertThat(EntrySources.digest(folder.resolve("gone"))).isEqualTo("missing");
    assertThat(EntrySources.codeDigest(folder.resolve("gone"))).isEqualTo("missing");
  }
}
