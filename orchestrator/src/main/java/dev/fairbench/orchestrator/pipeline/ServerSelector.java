package dev.fairbench.orchestrator.pipeline;

import dev.fairbench.orchestrator.core.RuntimeKind;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One server as named on the command line: {@code ENTRY[:VARIANT][@RUNTIME]}. Without a runtime it
 * runs in the run's default runtime (`--runtime`); with one, in that runtime, so that
 * `run --runtime native go-gin go-gin@docker` measures go-gin natively and in Docker in the same
 * rounds.
 *
 * @param entry   ENTRY or ENTRY:VARIANT, as {@code EntryCatalog.select} takes it
 * @param runtime the runtime named after the @; empty for the run's default
 */
public record ServerSelector(String entry, Optional<RuntimeKind> runtime) {
  static final char RUNTIME_MARK = '@';

  /**
   * @throws IllegalArgumentException with one line saying what is wrong: no entry before the @,
   *     no runtime after it, more than one @, or a runtime that is not native or docker
   */
  public static ServerSelector parse(String text) {
    int at = text.indexOf(RUNTIME_MARK);
    if (at < 0) {
      if (text.isBlank()) {
        throw new IllegalArgumentException("an empty entry name; write ENTRY[:VARIANT][@RUNTIME], e.g. go-gin@docker");
      }
      return new ServerSelector(text, Optional.empty());
    }
    String entry = text.substring(0, at);
    String runtime = text.substring(at + 1);
    if (entry.isBlank()) {
      throw new IllegalArgumentException("\"" + text + "\" names no entry before the @; write ENTRY[:VARIANT]@RUNTIME, "
          + "e.g. go-gin@" + runtime);
    }
    if (runtime.indexOf(RUNTIME_MARK) >= 0) {
      throw new IllegalArgumentException("\"" + text + "\" has more than one @; write ENTRY[:VARIANT]@RUNTIME");
    }
    if (runtime.isEmpty()) {
      throw new IllegalArgumentException("\"" + text + "\" names no runtime after the @; runtimes: " + known());
    }
    try {
      return new ServerSelector(entry, Optional.of(RuntimeKind.parse(runtime)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown runtime \"" + runtime + "\" in \"" + text + "\"; runtimes: " + known());
    }
  }

  /** Every selector, in order; the first wrong one throws. */
  public static List<ServerSelector> parseAll(List<String> texts) {
    return texts.stream().map(ServerSelector::parse).toList();
  }

  /** This selector's runtime, or {@code defaultRuntime} when it names none. */
  public RuntimeKind runtimeOr(RuntimeKind defaultRuntime) {
    return runtime.orElse(defaultRuntime);
  }

  /** As typed: ENTRY[:VARIANT][@RUNTIME]. */
  @Override
  public String toString() {
    return entry + runtime.map(r -> RUNTIME_MARK + r.wireName()).orElse("");
  }

  private static String known() {
    return Arrays.stream(RuntimeKind.values()).map(RuntimeKind::wireName).collect(Collectors.joining(", "));
  }
}
