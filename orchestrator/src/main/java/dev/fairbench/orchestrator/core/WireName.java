package dev.fairbench.orchestrator.core;

import java.util.Arrays;
import java.util.stream.Collectors;

/** An enum constant with the name it has on the command line and in results files. */
public interface WireName {
  String wireName();

  /** The constant of {@code type} whose wire name is {@code value}; the error lists the known ones. */
  static <E extends Enum<E> & WireName> E parse(Class<E> type, String value, String what) {
    for (E constant : type.getEnumConstants()) {
      if (constant.wireName().equals(value)) {
        return constant;
      }
    }
    throw new IllegalArgumentException("unknown " + what + " \"" + value + "\"; known: "
        + Arrays.stream(type.getEnumConstants()).map(WireName::wireName).collect(Collectors.joining(", ")));
  }
}
