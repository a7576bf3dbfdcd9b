package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The freezer of a bare cgroup, v1 and v2, on a busy shell loop: this machine may offer only one
 * of them to {@link LimitsBackend#detect}, but a hybrid one mounts both.
 */
class CgroupFreezerTest {
  @Test
  void cgroupV1FreezerStopsABusyLoopUntilThawed() throws Exception {
    Path parent = Path.of("/sys/fs/cgroup/freezer");
    assumeTrue(Files.isRegularFile(parent.resolve("cgroup.procs")), "no cgroup v1 freezer hierarchy here");
    freezesABusyLoop(parent, false);
  }

  @Test
  void cgroupV2FreezeStopsABusyLoopUntilThawed() throws Exception {
    Path parent = Files.isRegularFile(Path.of("/sys/fs/cgroup/cgroup.controllers"))
        ? Path.of("/sys/fs/cgroup") : Path.of("/sys/fs/cgroup/unified");
    assumeTrue(Files.isRegularFile(parent.resolve("cgroup.procs")), "no cgroup v2 hierarchy here");
    freezesABusyLoop(parent, true);
  }

  @Test
  void aStateThatIsNotReachedInTimeFailsWithWhatWasSeen() {
    assertThatThrownBy(() -> Freezing.change("x:default", "cgroup-v1-freezer", true, Duration.ofMillis(50), () -> {},
        () -> Optional.of("freezer.state reads FREEZING")))
        .isInstanceOfSatisfying(FreezeException.class, e -> assertThat(e.server()).isEqualTo("x:default"))
        .hasMessage("x:default: not frozen 50 ms after the freeze request (cgroup-v1-freezer): freezer.state reads FREEZING");
  }

  private static void freezesABusyLoop(Path parent, boolean v2) throws Exception {
    Path group = Files.createDirectories(parent.resolve("fairbench-test-" + ProcessHandle.current().pid()));
    Process loop = new ProcessBuilder("sh", "-c", "echo $$ > " + group.resolve("cgroup.procs") + " && while :; do :; done")
        .redirectErrorStream(true).start();
    try {
      awaitMember(group, loop.pid());
      CgroupFreezer freezer = new CgroupFreezer(group, v2);
      FreezeTiming frozen = Freezing.cgroup("loop", freezer, true, Freezing.TIMEOUT);
      assertThat(frozen.mechanism()).isEqualTo(v2 ? "cgroup-v2-freeze" : "cgroup-v1-freezer");
      assertThat(freezer.state()).isEqualTo(v2 ? "frozen 1" : "FROZEN");
      long ticks = ProcFs.cpuTicks(Path.of("/proc/" + loop.pid() + "/stat")).orElseThrow();
      Thread.sleep(1000);
      assertThat(ProcFs.cpuTicks(Path.of("/proc/" + loop.pid() + "/stat")).orElseThrow()).as("no CPU while frozen").isEqualTo(ticks);

      FreezeTiming thawed = Freezing.cgroup("loop", freezer, false, Freezing.TIMEOUT);
      Thread.sleep(300);
      assertThat(ProcFs.cpuTicks(Path.of("/proc/" + loop.pid() + "/stat")).orElseThrow()).as("it runs again").isGreaterThan(ticks);
      System.out.printf(Locale.ROOT, "%s on a busy loop: freeze %.3f ms, thaw %.3f ms%n", frozen.mechanism(),
          frozen.took().toNanos() / 1e6, thawed.took().toNanos() / 1e6);

      Freezing.cgroup("loop", freezer, true, Freezing.TIMEOUT);
      List<String> swept = LimitsBackend.thawKillAndRemove(List.of(group));
      assertThat(swept).containsExactly("thawed cgroup " + group, "killed pid " + loop.pid() + " (sh -c echo $$ > "
          + group.resolve("cgroup.procs") + " && while :; do :; done)", "removed cgroup " + group);
      assertThat(loop.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).as("a frozen group's process is killed").isTrue();
    } finally {
      loop.destroyForcibly();
      if (Files.exists(group)) {
        new CgroupFreezer(group, v2).request(false);
        loop.waitFor();
        Files.deleteIfExists(group);
      }
    }
  }

  private static void awaitMember(Path group, long pid) throws InterruptedException {
    for (int i = 0; i < 100 && !ProcFs.readPids(group.resolve("cgroup.procs")).contains(pid); i++) {
      Thread.sleep(20);
    }
    assertThat(ProcFs.readPids(group.resolve("cgroup.procs"))).contains(pid);
  }
}
