package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fairbench.orchestrator.CliRun;
import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.TinyTmpfs;
import dev.fairbench.orchestrator.cli.ExitCodes;
import dev.fairbench.orchestrator.results.ResultsDocument;
import dev.fairbench.orchestrator.results.ResultsJson;
import dev.fairbench.orchestrator.runtime.Watchdog;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The output folder full or unwritable: before anything starts, and in the middle of the rounds. */
class DiskFullTest {
  @TempDir Path output;

  record Result(int exitCode, String stdout, String stderr) {}

  @Test
  void aFullDiskBeforeTheStartIsOneLineAndStartsNoServer() throws Exception {
    Path mountPoint = Files.createDirectories(output.resolve("tiny"));
    TinyTmpfs[] tmpfs = new TinyTmpfs[1];
    String cannot = TinyTmpfs.mount(mountPoint, "1m", tmpfs);
    assumeTrue(cannot == null, cannot);
    try (TinyTmpfs disk = tmpfs[0]) {
      Result result = run(disk.dir().resolve("run"));
      assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCodes.USAGE);
      assertThat(result.stderr()).contains("cannot write to the output folder " + disk.dir().resolve("run"))
          .contains("No space left on device").contains("nothing was started").doesNotContain("Exception");
      assertThat(Files.exists(disk.dir().resolve("run/results.json"))).isFalse();
      try (var left = Files.list(disk.dir().resolve("run"))) {
        assertThat(left).as("the probe file is deleted").isEmpty();
      }
    }
    noServerIsLeft();
  }

  @Test
  void anUnwritableOutputFolderBeforeTheStartIsOneLineAndStartsNoServer() {
    RunSession.probeWriter = (file, bytes) -> {
      throw new FileSystemException(file.toString(), null, "Read-only file system");
    };
    Result result;
    try {
      result = run(output.resolve("run"));
    } finally {
      RunSession.probeWriter = RunSession::writeProbe;
    }
    assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.stderr()).contains("cannot write to the output folder " + output.resolve("run")
        + ": Read-only file system (a 4 MiB probe file); nothing was started").doesNotContain("Exception");
    assertThat(result.stderr()).doesNotContain("[prepare");
    noServerIsLeft();
  }

  @Test
  void aFailedWriteMidRunKeepsTheLastResultsStopsEveryServerAndExitsNonZero() throws Exception {
    AtomicInteger writes = new AtomicInteger();
    int allowed = 5; // the start, the entry prepared, the warm-up, two visits of round 1
    Pipeline.resultsWriter = (document, file) -> {
      if (writes.incrementAndGet() > allowed) {
        throw new FileSystemException(file.toString(), null, "No space left on device");
      }
      ResultsJson.write(document, file);
    };
    Result result;
    try {
      result = run(output.resolve("run"));
    } finally {
      Pipeline.resultsWriter = ResultsJson::write;
    }
    Path file = output.resolve("run/results.json");
    assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCodes.FAILED);
    assertThat(result.stderr()).contains("cannot write the results to " + file + ": No space left on device; "
        + "measuring stopped and every server stopped; " + file + " holds the last complete results")
        .doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(result.stderr()).as("no visit after the failed write").doesNotContain("[round 2/");
    ResultsDocument kept = ResultsJson.read(file);
    assertThat(kept.entries().getFirst().cells().stream().mapToLong(c -> c.runs().size()).sum())
        .as("the two visits written before the failure").isEqualTo(2);
    assertThat(Files.exists(output.resolve("run/report.md"))).as("no report from a run that stopped").isFalse();
    noServerIsLeft();
  }

  private static void noServerIsLeft() {
    long watchdog = Watchdog.pid();
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> p.pid() != watchdog && p.parent().map(parent -> parent.pid() != watchdog).orElse(true)))
        .as("processes the run started").isEmpty();
  }

  private static Result run(Path dir) {
    CliRun run = CliRun.of(List.of("run", "--runtime", "native", "--impls", TestEntries.impls().toString(),
        "tiny-python:stdlib", "--endpoints", "plaintext,json,user", "--duration", "1s", "--warmup", "0", "--rewarm", "0",
        "--rounds", "2", "--startups", "1", "--no-calibration", "--seed", "5", "--output", dir.toString())
        .toArray(String[]::new));
    return new Result(run.exitCode(), run.stdout(), run.stderr());
  }
}
