package dev.fairbench.orchestrator;

import dev.fairbench.orchestrator.cli.FairbenchCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** `fairbench ARGS...` run in this JVM, with what it printed on each stream. */
public record CliRun(int exitCode, String stdout, String stderr) {
  public static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
