package dev.fairbench.orchestrator.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
    name = "fairbench",
    mixinStandardHelpOptions = true,
    versionProvider = FairbenchCommand.Version.class,
    header = "Conformance and fair benchmarks of the same HTTP API in many frameworks.",
    description = {
      "Entries live under impls/<name>/, each with a fairbench.toml manifest",
      "(docs/MANIFEST.md). Typical use: `fairbench list`, then `fairbench run` to gate",
      "every available entry on conformance and benchmark it, then read the Markdown",
      "report the run points to."
    },
    subcommands = {
      ListCommand.class,
      NewCommand.class,
      ServeCommand.class,
      ConformanceCommand.class,
      TestEntriesCommand.class,
      RunCommand.class,
      RateCommand.class,
      PilotCommand.class,
      ReproduceCommand.class,
      ReportCommand.class,
      CompareCommand.class,
      CleanupCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:everything ran and nothing FAILed",
      "1:a conformance FAIL, or an entry that could not be built, started or measured",
      "2:usage error (bad option, unknown entry) or unreachable server"
    })
public final class FairbenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  public static void main(String[] args) {
    Thread.setDefaultUncaughtExceptionHandler(dev.fairbench.orchestrator.runtime.ServerRegistry::uncaught);
    System.exit(newCommandLine().execute(args));
  }

  /** The configured command line, also what tests execute. */
  public static CommandLine newCommandLine() {
    CommandLine cli = new CommandLine(new FairbenchCommand());
    cli.setExecutionExceptionHandler(new ErrorHandler());
    cli.setParameterExceptionHandler(FairbenchCommand::badArguments);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /**
   * A bad option value, a missing parameter or an unknown argument: the message and a pointer to
   * --help, as for every other usage error, instead of picocli's whole usage screen after it (180
   * lines for `run --seed abc`, the error scrolled out of sight).
   */
  static int badArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    cli.getErr().println("fairbench: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, cli.getErr());
    cli.getErr().println("Try `" + cli.getCommandSpec().qualifiedName() + " --help`.");
    return ExitCodes.USAGE;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = FairbenchCommand.class.getPackage().getImplementationVersion();
      return new String[] {"fairbench " + (version == null ? "(development build)" : version)};
    }
  }

  /** Turns an unexpected exception into one clear line instead of a stack trace. */
  static final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parseResult) {
      if (e instanceof UsageException) {
        cli.getErr().println("fairbench: " + e.getMessage());
        cli.getErr().println("Try `fairbench " + cli.getCommandName() + " --help`.");
        return ExitCodes.USAGE;
      }
      if (e instanceof InterruptedException) {
        cli.getErr().println("fairbench " + cli.getCommandName() + ": " + e.getMessage());
        return ExitCodes.INTERRUPTED;
      }
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      cli.getErr().println("fairbench " + cli.getCommandName() + ": failed: " + message);
      if (System.getenv("FAIRBENCH_DEBUG") != null) {
        e.printStackTrace(cli.getErr());
      } else {
        cli.getErr().println("(set FAIRBENCH_DEBUG=1 for the stack trace)");
      }
      return ExitCodes.FAILED;
    }
  }
}
