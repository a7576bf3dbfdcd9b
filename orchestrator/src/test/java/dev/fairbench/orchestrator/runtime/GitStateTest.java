package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run records of the checkout it was made from: the commit, and whether its code differs from it. */
class GitStateTest {
  @TempDir Path repo;

  @BeforeEach
  void aCommittedCheckoutWithCodeAndACommittedRun() throws Exception {
    git("init", "-q");
    Files.createDirectories(repo.resolve("impls/tiny"));
    Files.createDirectories(repo.resolve("results/reference"));
    Files.writeString(repo.resolve("impls/tiny/server.py"), "print('hello')\n");
    Files.writeString(repo.resolve("results/reference/results.json"), "{}\n");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first");
  }

  private void git(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor()).as(out).isZero();
  }

  @Test
  void aCleanCheckoutIsNotDirty() {
    assertThat(EnvironmentProbe.gitCommit(repo)).matches("[0-9a-f]{40}");
    assertThat(EnvironmentProbe.gitDirty(repo)).isFalse();
  }

  @Test
  void anEditedEntryMakesItDirty() throws Exception {
    Files.writeString(repo.resolve("impls/tiny/server.py"), "print('changed')\n");
    assertThat(EnvironmentProbe.gitDirty(repo)).isTrue();
  }

  @Test
  void aCommittedRunMovedOrEditedDoesNot() throws Exception {
    git("mv", "results/reference", "results/reference-old");
    Files.writeString(repo.resolve("results/reference-old/results.json"), "{\"rendered\": true}\n");
    assertThat(EnvironmentProbe.gitDirty(repo)).isFalse();
  }

  @Test
  void aNewUntrackedFileDoesNot() throws Exception {
    Files.writeString(repo.resolve("impls/tiny/notes.txt"), "scratch\n");
    assertThat(EnvironmentProbe.gitDirty(repo)).isFalse();
  }
}
