package dev.fairbench.orchestrator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.discovery.EntryVariant;
import dev.fairbench.orchestrator.discovery.ManifestReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class NewCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path impls;

  private int execute(String... args) {
    CommandLine cli = FairbenchCommand.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void aBadNameIsAUsageError() {
    for (String name : new String[] {"Go-Echo", "go_echo", "-go", "go--echo", "1go", "go/echo"}) {
      assertThat(execute("new", name, "--language", "go", "--impls", impls.toString())).as(name).isEqualTo(ExitCodes.USAGE);
    }
    assertThat(err.toString()).contains("NAME must be lower-case letters, digits and single dashes").contains("go_echo");
    assertThat(impls).isEmptyDirectory();
  }

  @Test
  void anExistingFolderIsAUsageError() throws Exception {
    Files.createDirectories(impls.resolve("go-echo"));

    assertThat(execute("new", "go-echo", "--language", "go", "--impls", impls.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("already exists");
    assertThat(impls.resolve("go-echo")).isEmptyDirectory();
  }

  @Test
  void anUnknownLanguageIsAUsageErrorListingTheKnownOnes() {
    assertThat(execute("new", "cobol-cics", "--language", "cobol", "--impls", impls.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("unknown language \"cobol\"").contains("go").contains("elixir");
    assertThat(execute("new", "x", "--impls", impls.toString())).as("--language is required").isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void everyLanguageScaffoldsAValidEntry() throws Exception {
    for (String language : NewCommand.LANGUAGES.keySet().stream().sorted().toList()) {
      String name = "x-" + language;
      assertThat(execute("new", name, "--language", language, "--impls", impls.toString()))
          .as(language + ": " + err).isEqualTo(ExitCodes.OK);
      Path dir = impls.resolve(name);
      assertThat(dir.resolve("fairbench.toml")).isRegularFile();
      assertThat(dir.resolve("Dockerfile")).isRegularFile();
      assertThat(dir.resolve(".gitignore")).isRegularFile();
      assertThat(dir.resolve(".dockerignore")).isRegularFile();
      assertThat(Files.readString(dir.resolve("README.md"))).contains("# " + name).contains("## Checklist")
          .contains("WORKERS").contains("Production mode").contains("Lockfile").contains("Departures from idiom");
      try (var files = Files.walk(dir)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          assertThat(file.toString()).doesNotContain("@@").doesNotEndWith(".tmpl");
          assertThat(Files.readString(file)).as(file.toString()).doesNotContain("@@");
        }
      }
      List<EntryVariant> variants = new ManifestReader().read(dir);
      assertThat(variants).hasSize(1);
      assertThat(variants.getFirst().entry()).isEqualTo(name);
    }
    assertThat(out.toString()).contains("Created").contains("./fairbench serve");
  }

  @Test
  void eachLanguageHasItsSkeleton() throws Exception {
    execute("new", "my-app", "--language", "elixir", "--impls", impls.toString());
    Path dir = impls.resolve("my-app");
    assertThat(Files.readString(dir.resolve("mix.exs"))).contains("defmodule MyApp.MixProject").contains("app: :my_app");
    assertThat(dir.resolve("lib/my_app/router.ex")).isRegularFile();
    assertThat(dir.resolve("bin/check-deps")).isExecutable();

    execute("new", "svc", "--language", "GO", "--impls", impls.toString());
    assertThat(Files.readString(impls.resolve("svc/main.go"))).contains("/plaintext").contains("WORKERS").contains("PORT");
    assertThat(Files.readString(impls.resolve("svc/go.mod"))).startsWith("module svc");
  }
}
