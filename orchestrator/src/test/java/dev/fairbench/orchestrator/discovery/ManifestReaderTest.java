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
}
