package dev.fairbench.orchestrator.discovery;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/** How WORKERS shows in a running server (docs/MANIFEST.md, [workers].model). */
public enum WorkersModel {
  /** WORKERS processes, each holding (or accepting from) the listening socket. */
  PROCESSES("processes"),
  /** WORKERS threads in one process run the requests; seen as the threads that burn CPU under load. */
  THREADS("threads");

  private final String wireName;

  WorkersModel(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  public static WorkersModel parse(String value) {
    for (WorkersModel model : values()) {
      if (model.wireName.equals(value)) {
        return model;
      }
    }
    throw new IllegalArgumentException("must be one of "
        + Arrays.stream(values()).map(m -> "\"" + m.wireName + "\"").collect(Collectors.joining(", "))
        + ", got \"" + value + "\"");
  }
}
