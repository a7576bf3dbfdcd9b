package dev.fairbench.orchestrator.discovery;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Reads and validates one {@code fairbench.toml} as docs/MANIFEST.md defines it. */
public final class ManifestReader {
  public static final String FILE_NAME = "fairbench.toml";

  private static final Pattern NAME = Pattern.compile("[a-z0-9-]+");
  private static final Set<String> VARIANT_KEYS =
      Set.of("name", "description", "requires", "versions", "availability", "build", "start", "workers", "docker",
          "test", "fairness", "ladder");
  private static final Set<String> RESERVED_ENV = Set.of("HOST", "PORT", "WORKERS");
  private static final int DEFAULT_BUILD_TIMEOUT_SECONDS = 900;
  private static final int DEFAULT_READY_TIMEOUT_SECONDS = 60;
  private static final int DEFAULT_TEST_TIMEOUT_SECONDS = 900;
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final TomlMapper toml = new TomlMapper();
  private final ObjectMapper binder =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  /** Reads the manifest of the entry folder {@code dir}; every variant comes back resolved. */
  public List<EntryVariant> read(Path dir) throws ManifestException {
    Path file = dir.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      throw new ManifestException(file, null, "missing: every entry folder needs a " + FILE_NAME + " (docs/MANIFEST.md)");
    }
    JsonNode tree;
    try {
      tree = toml.readTree(file.toFile());
    } catch (JacksonException e) {
      throw new ManifestException(file, null, "not valid TOML" + at(e.getLocation()) + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ManifestException(file, null, "cannot be read: " + e.getMessage());
    }
    if (!(tree instanceof ObjectNode root)) {
      throw new ManifestException(file, null, "is empty");
    }
    JsonNode variantsNode = root.remove("variants");
    String folder = dir.getFileName().toString();

    List<EntryVariant> variants = new ArrayList<>();
    if (variantsNode == null) {
      variants.add(resolve(file, dir, folder, EntryVariant.DEFAULT_VARIANT, root, ""));
      return variants;
    }
    if (!(variantsNode instanceof ArrayNode array) || array.isEmpty()) {
      throw new ManifestException(file, "variants", "must be a non-empty array of tables ([[variants]])");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      String prefix = "variants[" + i + "]";
      if (!(array.get(i) instanceof ObjectNode variant)) {
        throw new ManifestException(file, prefix, "must be a table");
      }
      for (Iterator<String> keys = variant.fieldNames(); keys.hasNext(); ) {
        String key = keys.next();
        if (!VARIANT_KEYS.contains(key)) {
          throw new ManifestException(file, prefix + "." + key,
              "unknown key; a variant may set only " + String.join(", ", sorted(VARIANT_KEYS)));
        }
      }
      JsonNode nameNode = variant.get("name");
      if (nameNode == null || !nameNode.isTextual() || !NAME.matcher(nameNode.asText()).matches()) {
        throw new ManifestException(file, prefix + ".name", "required, a string of [a-z0-9-]+");
      }
      String name = nameNode.asText();
      if (name.equals(EntryVariant.DEFAULT_VARIANT)) {
        throw new ManifestException(file, prefix + ".name", "\"default\" is reserved for entries without variants");
      }
      if (!seen.add(name)) {
        throw new ManifestException(file, prefix + ".name", "\"" + name + "\" names two variants");
      }
      ObjectNode merged = root.deepCopy();
      ObjectNode overrides = variant.deepCopy();
      overrides.remove("name");
      merge(merged, overrides);
      variants.add(resolve(file, dir, folder, name, merged, prefix));
    }
    return variants;
  }

  private EntryVariant resolve(Path file, Path dir, String folder, String variant, ObjectNode tree, String where)
      throws ManifestException {
    Manifest m;
    try {
      m = binder.treeToValue(tree, Manifest.class);
    } catch (UnrecognizedPropertyException e) {
      throw new ManifestException(file, qualify(where, path(e)), "unknown key (known here: "
          + e.getKnownPropertyIds().stream().map(Object::toString).sorted().collect(Collectors.joining(", ")) + ")");
    } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
      throw new ManifestException(file, qualify(where, path(e)), "wrong type: " + mismatch(e, tree));
    } catch (JsonMappingException e) {
      throw new ManifestException(file, qualify(where, path(e)), "wrong type: " + e.getOriginalMessage());
    } catch (JacksonException e) {
      throw new ManifestException(file, null, e.getOriginalMessage());
    }

    String name = required(file, "name", m.name());
    if (!NAME.matcher(name).matches()) {
      throw new ManifestException(file, "name", "must match [a-z0-9-]+, got \"" + name + "\"");
    }
    if (!name.equals(folder)) {
      throw new ManifestException(file, "name", "must equal the folder name \"" + folder + "\", got \"" + name + "\"");
    }
    String language = required(file, "language", m.language());
    String framework = required(file, "framework", m.framework());
    String frameworkVersion = required(file, "framework_version", m.frameworkVersion());
    String description = required(file, qualify(where, "description"), m.description());

    List<String> requires = m.requires() == null ? List.of() : m.requires();
    for (int i = 0; i < requires.size(); i++) {
      required(file, qualify(where, "requires[" + i + "]"), requires.get(i));
    }
    Map<String, List<String>> versions = m.versions() == null ? Map.of() : m.versions();
    for (var version : versions.entrySet()) {
      command(file, qualify(where, "versions." + version.getKey()), version.getValue());
    }

    List<String> probe = List.of();
    if (m.availability() != null) {
      probe = command(file, qualify(where, "availability.probe"), m.availability().probe());
    }

    List<List<String>> steps = List.of();
    Map<String, String> buildEnv = Map.of();
    Duration buildTimeout = Duration.ofSeconds(DEFAULT_BUILD_TIMEOUT_SECONDS);
    if (m.build() != null) {
      if (m.build().steps() == null) {
        throw new ManifestException(file, qualify(where, "build.steps"), "required in [build]: a list of commands");
      }
      steps = steps(file, qualify(where, "build.steps"), m.build().steps());
      buildEnv = env(file, qualify(where, "build.env"), m.build().env());
      buildTimeout = seconds(file, qualify(where, "build.timeout_seconds"), m.build().timeoutSeconds(),
          DEFAULT_BUILD_TIMEOUT_SECONDS);
    }

    if (m.start() == null) {
      throw new ManifestException(file, qualify(where, "start"), "required: the [start] table with `command`");
    }
    List<String> command = command(file, qualify(where, "start.command"), m.start().command());
    for (int i = 0; i < command.size(); i++) {
      String unknown = Placeholders.unknownIn(command.get(i));
      if (unknown != null) {
        throw new ManifestException(file, qualify(where, "start.command[" + i + "]"),
            "unknown placeholder " + unknown + "; a start command may use {host}, {port} and {workers}");
      }
    }
    Map<String, String> env = env(file, qualify(where, "start.env"), m.start().env());
    for (String key : env.keySet()) {
      if (RESERVED_ENV.contains(key)) {
        throw new ManifestException(file, qualify(where, "start.env." + key),
            "HOST, PORT and WORKERS are set by fairbench and must not be in the manifest");
      }
    }
    Duration readyTimeout = seconds(file, qualify(where, "start.ready_timeout_seconds"),
        m.start().readyTimeoutSeconds(), DEFAULT_READY_TIMEOUT_SECONDS);

    if (m.workers() == null || m.workers().model() == null) {
      throw new ManifestException(file, qualify(where, "workers.model"), "required: \"processes\" or \"threads\"");
    }
    WorkersModel model;
    try {
      model = WorkersModel.parse(m.workers().model());
    } catch (IllegalArgumentException e) {
      throw new ManifestException(file, qualify(where, "workers.model"), e.getMessage());
    }

    String dockerfile = "Dockerfile";
    Map<String, String> buildArgs = Map.of();
    boolean useStartCommand = false;
    if (m.docker() != null) {
      if (m.docker().dockerfile() != null) {
        dockerfile = required(file, qualify(where, "docker.dockerfile"), m.docker().dockerfile());
      }
      buildArgs = m.docker().buildArgs() == null ? Map.of() : m.docker().buildArgs();
      for (String key : buildArgs.keySet()) {
        if (buildEnv.containsKey(key)) {
          throw new ManifestException(file, qualify(where, "docker.build_args." + key),
              "also in [build].env, which is passed to the image build as build arguments already; keep it there only");
        }
      }
      useStartCommand = Boolean.TRUE.equals(m.docker().useStartCommand());
    }
    Optional<EntryVariant.TestSpec> test = m.test() == null ? Optional.empty() : Optional.of(test(file, where, m.test()));
    List<String> production = List.of();
    List<String> departures = List.of();
    if (m.fairness() != null) {
      production = m.fairness().production() == null ? List.of() : m.fairness().production();
      departures = m.fairness().departures() == null ? List.of() : m.fairness().departures();
    }

    boolean baseline;
    if (m.kind() == null || m.kind().equals("framework")) {
      baseline = false;
    } else if (m.kind().equals("baseline")) {
      baseline = true;
    } else {
      throw new ManifestException(file, "kind", "must be \"framework\" (the default) or \"baseline\", got \"" + m.kind() + "\"");
    }
    String standsOn = m.ladder() == null || m.ladder().baseline() == null ? "" : m.ladder().baseline();
    if (baseline && !standsOn.isEmpty()) {
      throw new ManifestException(file, qualify(where, "ladder.baseline"), "a baseline stands on nothing: it is the bottom rung");
    }
    if (m.ladder() != null && standsOn.isBlank()) {
      throw new ManifestException(file, qualify(where, "ladder.baseline"), "required in [ladder]: the baseline's ENTRY[:VARIANT]");
    }
    return new EntryVariant(name, variant, dir, file, language, framework, frameworkVersion, description,
        List.copyOf(requires), Map.copyOf(new LinkedHashMap<>(versions)), probe, List.copyOf(steps),
        Map.copyOf(buildEnv), buildTimeout, command, Map.copyOf(env), readyTimeout, model, dockerfile,
        Map.copyOf(buildArgs), useStartCommand, test, List.copyOf(production), List.copyOf(departures), baseline,
        standsOn);
  }

  private static EntryVariant.TestSpec test(Path file, String where, Manifest.Test t) throws ManifestException {
    List<String> command = command(file, qualify(where, "test.command"), t.command());
    noPlaceholders(file, qualify(where, "test.command"), command);
    List<List<String>> setup = t.setup() == null ? List.of() : steps(file, qualify(where, "test.setup"), t.setup());
    List<String> requires = t.requires() == null ? List.of() : t.requires();
    for (int i = 0; i < requires.size(); i++) {
      required(file, qualify(where, "test.requires[" + i + "]"), requires.get(i));
    }
    Map<String, String> env = env(file, qualify(where, "test.env"), t.env());
    Duration timeout = seconds(file, qualify(where, "test.timeout_seconds"), t.timeoutSeconds(),
        DEFAULT_TEST_TIMEOUT_SECONDS);
    List<String> probe = List.of();
    if (t.availability() != null) {
      probe = command(file, qualify(where, "test.availability.probe"), t.availability().probe());
    }
    return new EntryVariant.TestSpec(command, setup, List.copyOf(requires), env, timeout, probe);
  }

  private static List<List<String>> steps(Path file, String field, List<List<String>> steps) throws ManifestException {
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      List<String> step = command(file, field + "[" + i + "]", steps.get(i));
      noPlaceholders(file, field + "[" + i + "]", step);
      out.add(step);
    }
    return List.copyOf(out);
  }

  /** {host}, {port} and {workers} mean something only where a server starts. */
  private static void noPlaceholders(Path file, String field, List<String> argv) throws ManifestException {
    for (int i = 0; i < argv.size(); i++) {
      for (String name : Placeholders.NAMES) {
        if (argv.get(i).contains("{" + name + "}")) {
          throw new ManifestException(file, field + "[" + i + "]", "{" + name
              + "} is substituted only in start.command (no server runs here)");
        }
      }
    }
  }

  private static Map<String, String> env(Path file, String field, Map<String, String> env) throws ManifestException {
    if (env == null) {
      return Map.of();
    }
    for (var e : env.entrySet()) {
      if (!ENV_NAME.matcher(e.getKey()).matches()) {
        throw new ManifestException(file, field + "." + e.getKey(), "not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
      }
      if (e.getValue() == null) {
        throw new ManifestException(file, field + "." + e.getKey(), "must be a string");
      }
    }
    return Map.copyOf(env);
  }

  /** Tables merge key by key, recursively; anything else in the variant replaces the entry's value. */
  private static void merge(ObjectNode base, ObjectNode overrides) {
    for (var field : overrides.properties()) {
      JsonNode existing = base.get(field.getKey());
      if (existing instanceof ObjectNode existingTable && field.getValue() instanceof ObjectNode overrideTable) {
        merge(existingTable, overrideTable);
      } else {
        base.set(field.getKey(), field.getValue());
      }
    }
  }

  private static String required(Path file, String field, String value) throws ManifestException {
    if (value == null || value.isBlank()) {
      throw new ManifestException(file, field, "required, a non-empty string");
    }
    return value;
  }

  private static List<String> command(Path file, String field, List<String> argv) throws ManifestException {
    if (argv == null || argv.isEmpty()) {
      throw new ManifestException(file, field, "required, a non-empty argument vector such as [\"go\", \"version\"]");
    }
    for (int i = 0; i < argv.size(); i++) {
      if (argv.get(i) == null) {
        throw new ManifestException(file, field + "[" + i + "]", "must be a string");
      }
    }
    if (argv.getFirst().isBlank()) {
      throw new ManifestException(file, field + "[0]", "the program must not be empty");
    }
    return List.copyOf(argv);
  }

  private static Duration seconds(Path file, String field, Integer value, int fallback) throws ManifestException {
    if (value == null) {
      return Duration.ofSeconds(fallback);
    }
    if (value <= 0) {
      throw new ManifestException(file, field, "must be a positive number of seconds, got " + value);
    }
    return Duration.ofSeconds(value);
  }

  /** "must be a list, got a string ("go")": what the key takes, in TOML's words, and what the file has. */
  private static String mismatch(com.fasterxml.jackson.databind.exc.MismatchedInputException e,
      com.fasterxml.jackson.databind.JsonNode tree) {
    Class<?> type = e.getTargetType();
    String wanted = type == null ? null
        : java.util.Collection.class.isAssignableFrom(type) || type.isArray() ? "an array"
        : java.util.Map.class.isAssignableFrom(type) || type.isRecord() ? "a table"
        : type == String.class ? "a string"
        : type == boolean.class || type == Boolean.class ? "true or false"
        : type.isPrimitive() || Number.class.isAssignableFrom(type) ? "a number"
        : null;
    com.fasterxml.jackson.databind.JsonNode node = tree;
    for (JsonMappingException.Reference ref : e.getPath()) {
      node = node == null ? null : ref.getFieldName() != null ? node.get(ref.getFieldName()) : node.get(ref.getIndex());
    }
    String got = node == null ? null : switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "a table";
      case STRING -> "a string (\"" + node.asText() + "\")";
      case NUMBER -> "a number (" + node.asText() + ")";
      case BOOLEAN -> node.asText();
      default -> null;
    };
    if (wanted == null || got == null) {
      return e.getOriginalMessage();
    }
    return "must be " + wanted + ", got " + got;
  }

  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static String qualify(String where, String field) {
    return where.isEmpty() ? field : where + "." + field;
  }

  private static String at(JsonLocation location) {
    return location == null || location.getLineNr() < 0 ? "" : " at line " + location.getLineNr();
  }

  private static List<String> sorted(Set<String> keys) {
    return keys.stream().sorted().toList();
  }
}
