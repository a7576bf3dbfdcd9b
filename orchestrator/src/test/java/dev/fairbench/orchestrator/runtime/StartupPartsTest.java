package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parsing behind memory() and the size figures. */
class StartupPartsTest {
  @TempDir Path dir;

  private static final String V1_STAT = """
      cache 10997760
      rss 6516736
      rss_huge 0
      shmem 9170944
      total_cache 6586097664
      total_rss 2584756224
      total_rss_huge 2097152
      """;

  @Test
  void cgroupV1CountsTheHierarchicalAnonymousMemoryNotThePageCache() throws Exception {
    Path stat = Files.writeString(dir.resolve("memory.stat"), V1_STAT);

    MemoryReading reading = MemoryReading.ofCgroup(stat, false);

    assertThat(reading.bytes()).isEqualTo(2584756224L);
    assertThat(reading.method()).isEqualTo("cgroup-v1 memory.stat total_rss");
    assertThat(MemoryReading.statValue(V1_STAT, "rss")).hasValue(6516736L);
    assertThat(MemoryReading.statValue(V1_STAT, "rss_huge")).as("a key is matched whole, not by prefix").hasValue(0L);
  }

  @Test
  void cgroupV2CountsAnon() throws Exception {
    Path stat = Files.writeString(dir.resolve("memory.stat"), "anon 1048576\nfile 999999999\nanon_thp 0\n");

    assertThat(MemoryReading.ofCgroup(stat, true)).isEqualTo(new MemoryReading(1048576, "cgroup-v2 memory.stat anon"));
  }

  @Test
  void aMissingOrIncompleteStatIsUnknownNotZero() throws Exception {
    assertThat(MemoryReading.ofCgroup(dir.resolve("absent"), false).known()).isFalse();
    Path stat = Files.writeString(dir.resolve("memory.stat"), "cache 12\n");
    assertThat(MemoryReading.ofCgroup(stat, false)).isEqualTo(MemoryReading.UNKNOWN);
    assertThat(MemoryReading.statValue("total_rss x\n", "total_rss")).isEqualTo(OptionalLong.empty());
  }

  @Test
  void smapsRollupGivesThePssOfAnonymousMemoryInBytes() {
    List<String> rollup = List.of(
        "55d0c0a5c000-7ffd5b7f5000 ---p 00000000 00:00 0                          [rollup]",
        "Rss:               10240 kB",
        "Pss:                6144 kB",
        "Pss_Dirty:          2048 kB",
        "Pss_Anon:           2000 kB",
        "Pss_File:           4144 kB");

    assertThat(MemoryReading.pssAnonBytes(rollup)).hasValue(2000L * 1024);
    assertThat(MemoryReading.pssAnonBytes(List.of("Rss: 1 kB"))).isEmpty();
  }

  @Test
  void thisJvmHasAPositivePssAnon() {
    MemoryReading reading = MemoryReading.ofProcesses(List.of(ProcessHandle.current().pid(), 999_999_999L));

    assertThat(reading.method()).isEqualTo("smaps_rollup Pss_Anon");
    assertThat(reading.bytes()).as("a process that does not exist counts nothing").isPositive();
  }

  @Test
  void theBaseIsTheLocalImageWithTheLongestLayerPrefix() {
    List<String> entry = List.of("l1", "l2", "l3", "l4");
    List<ImageSize.Candidate> candidates = List.of(
        new ImageSize.Candidate("debian:bookworm-slim", List.of("l1"), 75_000_000),
        new ImageSize.Candidate("python:3.11-slim-bookworm", List.of("l1", "l2"), 150_000_000),
        new ImageSize.Candidate("golang:1.26-bookworm", List.of("l1", "x2"), 590_000_000),
        new ImageSize.Candidate("itself-retagged", entry, 200_000_000));

    ImageSize size = ImageSize.of("fairbench/py:default", entry, 200_000_000, candidates);

    assertThat(size.baseImage()).isEqualTo("python:3.11-slim-bookworm");
    assertThat(size.layersAboveBase()).isEqualTo(2);
    assertThat(size.bytesAboveBase()).isEqualTo(50_000_000);
    assertThat(size.note()).isEmpty();
  }

  @Test
  void withoutASharedBaseEveryLayerIsTheEntrysOwn() {
    ImageSize size = ImageSize.of("fairbench/x:default", List.of("a", "b"), 1000,
        List.of(new ImageSize.Candidate("other", List.of("z"), 10)));

    assertThat(size.baseImage()).isEmpty();
    assertThat(size.layersAboveBase()).isEqualTo(2);
    assertThat(size.bytesAboveBase()).isEqualTo(1000);
    assertThat(size.note()).contains("no local base image");
  }

  @Test
  void gitsNulSeparatedListLosesItsTrailingSlashes() {
    assertThat(BuildOutput.parseGitList(".venv/\0build/\0server.log\0")).containsExactly(".venv", "build", "server.log");
    assertThat(BuildOutput.parseGitList("")).isEmpty();
  }

  @Test
  void buildOutputCountsLikeDuApparentSizeWithHardLinksOnce() throws Exception {
    Path target = Files.createDirectories(dir.resolve("target/release"));
    Files.write(target.resolve("server"), new byte[10_000]);
    Files.createLink(target.resolve("server-again"), target.resolve("server"));
    Path venv = Files.createDirectories(dir.resolve(".venv/lib"));
    Files.write(venv.resolve("module.py"), new byte[3_000]);
    Files.writeString(dir.resolve("main.go"), "package main\n");
    long dirBytes = Files.size(dir.resolve("target")) + Files.size(target) + Files.size(dir.resolve(".venv"))
        + Files.size(venv);

    BuildOutput output = BuildOutput.measure(dir);

    assertThat(output.method()).as("a temporary folder is outside any git work tree").startsWith("usual output folders");
    assertThat(output.paths()).containsOnlyKeys("target", ".venv");
    assertThat(output.bytes()).isEqualTo(13_000 + dirBytes);
    assertThat(BuildOutput.apparentBytes(dir.resolve("absent"), new HashSet<>())).isZero();
  }
}
