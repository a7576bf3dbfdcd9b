package dev.fairbench.orchestrator.cli;

import dev.fairbench.orchestrator.config.FairbenchPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "new",
    mixinStandardHelpOptions = true,
    header = "Scaffold a new entry: impls/NAME/ with a manifest, Dockerfile, README checklist and a server skeleton.",
    description = {
      "Writes impls/NAME/ (or DIR/NAME/ with --impls DIR) from the template of LANGUAGE: fairbench.toml, "
          + "Dockerfile, README.md with the checklist an entry must meet, .gitignore, .dockerignore, a lockfile "
          + "where the language has one, and a minimal server on the standard library (or the leanest library) "
          + "that reads HOST, PORT and WORKERS and answers GET /plaintext. It builds and starts, and fails "
          + "conformance: replace it with the framework's code (docs/ADDING_AN_ENTRY.md).",
      "",
      "Exit 0 when written, 2 for a usage error (NAME taken or not [a-z][a-z0-9-]*, unknown language)."
    })
public final class NewCommand implements Callable<Integer> {
  static final String TEMPLATES = "/dev/fairbench/orchestrator/templates/";

  /** Template folder by --language value. */
  static final Map<String, String> LANGUAGES = languages();

  /** An entry name as the manifest allows it, starting with a letter so every language can name its module after it. */
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "NAME", description = "The entry's folder name, e.g. go-echo: lower-case letters, digits and dashes.")
  String name;

  @Option(names = {"-l", "--language"}, paramLabel = "LANGUAGE", required = true,
      description = "One of: go, python, typescript (Bun), javascript (Node), rust, java, elixir.")
  String language;

  @Option(names = "--impls", paramLabel = "DIR", description = "Folder to create the entry in (default: impls/ of the fairbench checkout).")
  Path impls;

  private static Map<String, String> languages() {
    Map<String, String> map = new LinkedHashMap<>();
    for (String lang : List.of("go", "python", "typescript", "javascript", "rust", "java", "elixir")) {
      map.put(lang, lang);
    }
    map.put("ts", "typescript");
    map.put("bun", "typescript");
    map.put("js", "javascript");
    map.put("node", "javascript");
    return Map.copyOf(map);
  }

  @Override
  public Integer call() {
    if (!NAME.matcher(name).matches()) {
      throw new UsageException("NAME must be lower-case letters, digits and single dashes, starting with a letter"
          + " (e.g. go-echo), got \"" + name + "\"");
    }
    String template = LANGUAGES.get(language.toLowerCase(Locale.ROOT));
    if (template == null) {
      throw new UsageException("unknown language \"" + language + "\"; known: go, python, typescript (or ts, bun),"
          + " javascript (or js, node), rust, java, elixir");
    }
    Path implsDir = impls != null ? impls.toAbsolutePath().normalize() : FairbenchPaths.detect().impls();
    if (!Files.isDirectory(implsDir)) {
      throw new UsageException("the entries folder " + implsDir + (Files.exists(implsDir) ? " is not a folder" : " does not exist"));
    }
    Path dir = implsDir.resolve(name);
    if (Files.exists(dir)) {
      throw new UsageException(dir + " already exists; pick another NAME or remove it");
    }

    Map<String, String> tokens = Map.of(
        "@@NAME@@", name,
        "@@LANG@@", template,
        "@@APP@@", name.replace('-', '_'),
        "@@MODULE@@", Arrays.stream(name.split("-"))
            .map(part -> Character.toUpperCase(part.charAt(0)) + part.substring(1)).collect(Collectors.joining()));
    List<Path> written = new ArrayList<>();
    try {
      for (String resource : index(template)) {
        String target = substitute(resource.replaceFirst("\\.tmpl$", "").replaceFirst("(^|/)dot-", "$1."), tokens);
        Path file = dir.resolve(target);
        Files.createDirectories(file.getParent());
        Files.writeString(file, substitute(read(template + "/" + resource), tokens), StandardCharsets.UTF_8);
        if (target.startsWith("bin/")) {
          file.toFile().setExecutable(true);
        }
        written.add(dir.relativize(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
    }

    PrintWriter out = spec.commandLine().getOut();
    out.println("Created " + dir + " (" + template + "):");
    written.stream().sorted().forEach(file -> out.println("  " + file));
    String impl = impls != null ? " --impls " + implsDir : "";
    out.println();
    out.println("Next:");
    out.println("  ./fairbench list" + impl + "    (the entry, available or why not)");
    out.println("  ./fairbench serve" + impl + " " + name + "    (build and start it, print its URL)");
    out.println("  ./fairbench conformance" + impl + " --runtime native " + name + "    (what is left to do)");
    out.println("Then follow the checklist in " + dir.resolve("README.md") + " and docs/ADDING_AN_ENTRY.md.");
    out.flush();
    return ExitCodes.OK;
  }

  static List<String> index(String template) throws IOException {
    return read(template + "/FILES").lines().map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = NewCommand.class.getResourceAsStream(TEMPLATES + resource)) {
      if (in == null) {
        throw new IOException("the template resource " + TEMPLATES + resource + " is missing from the build");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String substitute(String text, Map<String, String> tokens) {
    for (var token : tokens.entrySet()) {
      text = text.replace(token.getKey(), token.getValue());
    }
    return text;
  }
}
