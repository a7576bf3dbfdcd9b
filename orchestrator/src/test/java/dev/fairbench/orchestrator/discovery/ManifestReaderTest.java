package dev.fairbench.orchestrator.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestReaderTest {
  private static final String VALID = """
      name        = "go-gin"
      language    = "Go"
      framework   = "Gin"
      framework_version = "1.11.0"
      description = "Gin in release mode."
      requires = ["go"]

      [versions]
      runtime = ["go", "version"]

      [build]
      steps = [["go", "build", "-o", "build/server", "."]]

      [start]
      command = ["./build/server"]
      env = { GIN_MODE = "release" }

      [workers]
      model = "threads"

      [docker]
      dockerfile = "Dockerfile"

      [fairness]
      production = ["release mode"]
      departures = []
      """;

  @TempDir Path impls;

  private Path entry(String name, String manifest) throws IOException {
    Path dir = Files.createDirectories(impls.resolve(name));
    Files.writeString(dir.resolve("fairbench.toml"), manifest);
    return dir;
  }

  private ManifestException failure(String manifest) throws IOException {
    Path dir = entry("go-gin", manifest);
    try {
      new ManifestReader().read(dir);
    } catch (ManifestException e) {
      return e;
    }
    throw new AssertionError("the manifest was accepted:\n" + manifest);
  }

  @Test
  void readsEveryFieldOfAValidManifestWithDefaults() throws Exception {
    List<EntryVariant> variants = new ManifestReader().read(entry("go-gin", VALID));

    assertThat(variants).hasSize(1);
    EntryVariant v = variants.getFirst();
    assertThat(v.id()).isEqualTo("go-gin");
    assertThat(v.variant()).isEqualTo("default");
    assertThat(v.language()).isEqualTo("Go");
    assertThat(v.frameworkVersion()).isEqualTo("1.11.0");
    assertThat(v.requires()).containsExactly("go");
    assertThat(v.versionCommands()).containsEntry("runtime", List.of("go", "version"));
    assertThat(v.buildSteps()).containsExactly(List.of("go", "build", "-o", "build/server", "."));
    assertThat(v.buildTimeout()).isEqualTo(Duration.ofSeconds(900));
    assertThat(v.startCommand()).containsExactly("./build/server");
    assertThat(v.startEnv()).isEqualTo(Map.of("GIN_MODE", "release"));
    assertThat(v.readyTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(v.workersModel()).isEqualTo(WorkersModel.THREADS);
    assertThat(v.fairnessProduction()).containsExactly("release mode");
  }

  @Test
  void variantsMergeTheirTablesKeyByKeyOverTheEntry() throws Exception {
    String manifest = VALID.replace("name        = \"go-gin\"", "name        = \"py-blacksheep\"") + """

        [[variants]]
        name = "uvicorn"

        [[variants]]
        name = "granian-orjson"
        description = "Granian and orjson."
        [variants.start]
        command = [".venv/bin/granian", "app:app"]
        """;
    List<EntryVariant> variants = new ManifestReader().read(entry("py-blacksheep", manifest));

    assertThat(variants).extracting(EntryVariant::id)
        .containsExactly("py-blacksheep:uvicorn", "py-blacksheep:granian-orjson");
    EntryVariant granian = variants.get(1);
    assertThat(granian.startCommand()).containsExactly(".venv/bin/granian", "app:app");
    assertThat(granian.startEnv()).as("env is kept: only the variant's keys replace the entry's")
        .containsEntry("GIN_MODE", "release");
    assertThat(granian.description()).isEqualTo("Granian and orjson.");
    assertThat(variants.getFirst().startCommand()).containsExactly("./build/server");
  }

  @Test
  void anUnknownKeyNamesTheFileAndTheField() throws Exception {
    ManifestException e = failure(VALID.replace("command = [", "comand = ["));

    assertThat(e.file()).isEqualTo(impls.resolve("go-gin/fairbench.toml"));
    assertThat(e.field()).isEqualTo("start.comand");
    assertThat(e.getMessage()).contains("fairbench.toml").contains("start.comand").contains("unknown key")
        .contains("command");
  }

  @Test
  void anUnknownTopLevelKeyIsRejected() throws Exception {
    ManifestException e = failure("framwork = \"x\"\n" + VALID);

    assertThat(e.field()).isEqualTo("framwork");
  }

  @Test
  void aMissingStartCommandNamesTheField() throws Exception {
    ManifestException e = failure(VALID.replace("command = [\"./build/server\"]", ""));

    assertThat(e.field()).isEqualTo("start.command");
    assertThat(e.getMessage()).contains("required");
  }

  @Test
  void aWrongTypeNamesTheField() throws Exception {
    ManifestException e = failure(VALID.replace("requires = [\"go\"]", "requires = \"go\""));

    assertThat(e.field()).isEqualTo("requires");
    assertThat(e.getMessage()).contains("wrong type");
  }

  @Test
  void aWrongTypeSaysWhatTheKeyTakesAndWhatTheFileHasInTomlWords() throws Exception {
    ManifestException e = failure(VALID.replace("requires = [\"go\"]", "requires = \"go\""));
    assertThat(e.getMessage()).contains("field `requires`: wrong type: must be an array, got a string (\"go\")")
        .doesNotContain("java.util", "Creator");
  }

  @Test
  void theNameMustEqualTheFolder() throws Exception {
    Path dir = entry("gin", VALID);

    assertThatThrownBy(() -> new ManifestReader().read(dir))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("field `name`")
        .hasMessageContaining("\"gin\"");
  }

  @Test
  void theWorkersModelIsOneOfTwoWords() throws Exception {
    ManifestException e = failure(VALID.replace("model = \"threads\"", "model = \"fibers\""));

    assertThat(e.field()).isEqualTo("workers.model");
    assertThat(e.getMessage()).contains("\"processes\"").contains("\"threads\"").contains("fibers");
  }

  @Test
  void hostPortAndWorkersAreNotTheManifestsToSet() throws Exception {
    ManifestException e = failure(VALID.replace("GIN_MODE = \"release\"", "PORT = \"9000\""));

    assertThat(e.field()).isEqualTo("start.env.PORT");
  }

  @Test
  void aVariantMayOverrideOnlyTheDocumentedTables() throws Exception {
    ManifestException e = failure(VALID + "\n[[variants]]\nname = \"x\"\nlanguage = \"Rust\"\n");

    assertThat(e.field()).isEqualTo("variants[0].language");
  }

  @Test
  void variantNamesAreUnique() throws Exception {
    ManifestException e = failure(VALID + "\n[[variants]]\nname = \"a\"\n\n[[variants]]\nname = \"a\"\n");

    assertThat(e.field()).isEqualTo("variants[1].name");
  }

  @Test
  void invalidTomlSaysWhere() throws Exception {
    ManifestException e = failure("name = \"go-gin\nlanguage = 1\n");

    assertThat(e.getMessage()).contains("fairbench.toml").contains("not valid TOML").contains("line");
  }

  @Test
  void aFolderWithoutManifestIsReportedAsSuch() throws Exception {
    Path dir = Files.createDirectories(impls.resolve("empty"));

    assertThatThrownBy(() -> new ManifestReader().read(dir))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("fairbench.toml")
        .hasMessageContaining("missing");
  }

  @Test
  void buildEnvIsReadAndJoinsTheImageBuildArguments() throws Exception {
    String manifest = VALID.replace("steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]",
        "steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]\nenv = { CGO_ENABLED = \"0\" }")
        .replace("dockerfile = \"Dockerfile\"", "dockerfile = \"Dockerfile\"\nbuild_args = { GOAMD64 = \"v2\" }");
    EntryVariant v = new ManifestReader().read(entry("go-gin", manifest)).getFirst();

    assertThat(v.buildEnv()).isEqualTo(Map.of("CGO_ENABLED", "0"));
    assertThat(v.dockerBuildArgs()).isEqualTo(Map.of("GOAMD64", "v2"));
    assertThat(v.imageBuildArgs()).isEqualTo(Map.of("CGO_ENABLED", "0", "GOAMD64", "v2"));
  }

  @Test
  void aBuildArgumentAlsoInBuildEnvIsRefused() throws Exception {
    ManifestException e = failure(VALID.replace("steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]",
        "steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]\nenv = { CGO_ENABLED = \"0\" }")
        .replace("dockerfile = \"Dockerfile\"", "dockerfile = \"Dockerfile\"\nbuild_args = { CGO_ENABLED = \"1\" }"));

    assertThat(e.field()).isEqualTo("docker.build_args.CGO_ENABLED");
    assertThat(e.getMessage()).contains("[build].env");
  }

  @Test
  void aBuildEnvNameMustBeAVariableName() throws Exception {
    ManifestException e = failure(VALID.replace("steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]",
        "steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]\nenv = { \"CGO-ENABLED\" = \"0\" }"));

    assertThat(e.field()).isEqualTo("build.env.CGO-ENABLED");
  }

  @Test
  void placeholdersInTheStartCommandAreSubstituted() throws Exception {
    EntryVariant v = new ManifestReader().read(entry("go-gin", VALID.replace("command = [\"./build/server\"]",
        "command = [\"./build/server\", \"--listen={host}:{port}\", \"--workers\", \"{workers}\"]"))).getFirst();

    assertThat(v.startCommand()).containsExactly("./build/server", "--listen={host}:{port}", "--workers", "{workers}");
    assertThat(v.startCommand("127.0.0.1", 18123, 2))
        .containsExactly("./build/server", "--listen=127.0.0.1:18123", "--workers", "2");
  }

  @Test
  void anUnknownPlaceholderIsRefused() throws Exception {
    ManifestException e = failure(VALID.replace("command = [\"./build/server\"]",
        "command = [\"./build/server\", \"--port\", \"{prot}\"]"));

    assertThat(e.field()).isEqualTo("start.command[2]");
    assertThat(e.getMessage()).contains("{prot}").contains("{host}, {port} and {workers}");
  }

  @Test
  void placeholdersOutsideTheStartCommandAreRefused() throws Exception {
    ManifestException e = failure(VALID.replace("steps = [[\"go\", \"build\", \"-o\", \"build/server\", \".\"]]",
        "steps = [[\"go\", \"build\", \"-o\", \"build/server-{port}\", \".\"]]"));

    assertThat(e.field()).isEqualTo("build.steps[0][3]");
    assertThat(e.getMessage()).contains("only in start.command");
  }

  @Test
  void theDockerStartCommandIsOptIn() throws Exception {
    assertThat(new ManifestReader().read(entry("go-gin", VALID)).getFirst().dockerUsesStartCommand()).isFalse();
    EntryVariant v = new ManifestReader().read(entry("go-gin", VALID.replace("dockerfile = \"Dockerfile\"",
        "dockerfile = \"Dockerfile\"\nuse_start_command = true"))).getFirst();

    assertThat(v.dockerUsesStartCommand()).isTrue();
  }

  private static final String TEST_TABLE = """

      [test]
      setup = [["go", "mod", "download"]]
      command = ["go", "test", "./..."]
      requires = ["gofmt"]
      env = { GOFLAGS = "-count=1" }
      timeout_seconds = 120
      """;

  @Test
  void theTestTableIsRead() throws Exception {
    EntryVariant v = new ManifestReader().read(entry("go-gin", VALID + TEST_TABLE + """
        [test.availability]
        probe = ["sh", "-c", "exit 0"]
        """)).getFirst();

    assertThat(v.test()).isPresent();
    EntryVariant.TestSpec test = v.test().get();
    assertThat(test.command()).containsExactly("go", "test", "./...");
    assertThat(test.setup()).containsExactly(List.of("go", "mod", "download"));
    assertThat(test.requires()).containsExactly("gofmt");
    assertThat(test.env()).isEqualTo(Map.of("GOFLAGS", "-count=1"));
    assertThat(test.timeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(test.availabilityProbe()).containsExactly("sh", "-c", "exit 0");
    assertThat(new ManifestReader().read(entry("go-gin", VALID)).getFirst().test()).isEmpty();
  }

  @Test
  void anUnknownKeyInTheTestTableNamesTheFileAndTheKey() throws Exception {
    ManifestException e = failure(VALID + TEST_TABLE.replace("timeout_seconds", "timeout"));

    assertThat(e.file()).isEqualTo(impls.resolve("go-gin/fairbench.toml"));
    assertThat(e.field()).isEqualTo("test.timeout");
    assertThat(e.getMessage()).contains("unknown key").contains("timeout_seconds");
  }

  @Test
  void anUnknownKeyInTheTestAvailabilityIsRefused() throws Exception {
    ManifestException e = failure(VALID + TEST_TABLE + "[test.availability]\nprobes = [\"true\"]\n");

    assertThat(e.field()).isEqualTo("test.availability.probes");
  }

  @Test
  void theTestTableNeedsACommand() throws Exception {
    ManifestException e = failure(VALID + "\n[test]\ntimeout_seconds = 5\n");

    assertThat(e.field()).isEqualTo("test.command");
  }

  @Test
  void aVariantMayOverrideWorkersAvailabilityAndTest() throws Exception {
    String manifest = VALID + TEST_TABLE + """

        [[variants]]
        name = "plain"

        [[variants]]
        name = "prefork"
        [variants.workers]
        model = "processes"
        [variants.availability]
        probe = ["sh", "bin/check-prefork"]
        [variants.test]
        env = { PREFORK = "1" }
        """;
    List<EntryVariant> variants = new ManifestReader().read(entry("go-gin", manifest));

    EntryVariant plain = variants.get(0);
    EntryVariant prefork = variants.get(1);
    assertThat(plain.workersModel()).isEqualTo(WorkersModel.THREADS);
    assertThat(plain.availabilityProbe()).isEmpty();
    assertThat(prefork.workersModel()).isEqualTo(WorkersModel.PROCESSES);
    assertThat(prefork.availabilityProbe()).containsExactly("sh", "bin/check-prefork");
    assertThat(prefork.test().orElseThrow().env()).as("tables merge key by key, nested ones too")
        .isEqualTo(Map.of("GOFLAGS", "-count=1", "PREFORK", "1"));
    assertThat(prefork.test().orElseThrow().command()).containsExactly("go", "test", "./...");
  }

  @Test
  void aVariantsBadWorkersModelNamesTheVariant() throws Exception {
    ManifestException e = failure(VALID + "\n[[variants]]\nname = \"x\"\n[variants.workers]\nmodel = \"fibers\"\n");

    assertThat(e.field()).isEqualTo("variants[0].workers.model");
  }

  @Test
  void aVariantCannotChangeWhatTheEntryIs() throws Exception {
    for (String key : new String[] {"framework = \"Echo\"", "framework_version = \"2\"", "language = \"Rust\""}) {
      ManifestException e = failure(VALID + "\n[[variants]]\nname = \"x\"\n" + key + "\n");

      assertThat(e.field()).startsWith("variants[0].");
      assertThat(e.getMessage()).contains("a variant may set only").contains("workers").contains("test");
    }
  }
}
