package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.TestEntries;
import dev.fairbench.orchestrator.runtime.ProcFs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `serve` while an entry is written: it says what the gate will refuse (SPEC 0.1), and an interruption stops the server. */
class ServeListenTest {
  private static final String ID = "tiny-any-host:every-interface";

  @AfterEach
  void removeServeLogs() throws IOException {
    try (Stream<Path> made = Files.list(TestEntries.repositoryRoot().resolve("results"))) {
      for (Path dir : made.filter(p -> p.getFileName().toString().startsWith("serve-tiny-any-host_")).toList()) {
        TestEntries.deleteTree(dir);
      }
    }
  }

  @Test
  void aServerOnEveryInterfaceIsWarnedAboutAndStoppedWhenServeIsInterrupted() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    Path faults = TestEntries.impls().getParent().resolve("faults");
    AtomicInteger code = new AtomicInteger(-1);
    Thread serve = new Thread(() -> code.set(cli.execute("serve", "--runtime", "native", "--impls", faults.toString(),
        "--port", Integer.toString(port), ID)));
    serve.start();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!out.toString().contains("is serving at") && serve.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(out.toString()).as(err.toString()).contains(ID + " is serving at http://127.0.0.1:" + port);
    assertThat(err.toString()).contains("warning: " + ID + " listens on every interface (0.0.0.0) port " + port)
        .contains("conformance and run fail it before the suite");

    serve.interrupt();
    serve.join(30_000);
    assertThat(serve.isAlive()).isFalse();
    assertThat(code.get()).isEqualTo(ExitCodes.INTERRUPTED);
    assertThat(ProcFs.listeningAddresses(port)).as("nothing left listening").isEmpty();
  }
}
