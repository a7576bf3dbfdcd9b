package dev.fairbench.orchestrator.runtime;

/** Whether a runtime can run a variant here; {@code reason} says why not. */
public record Availability(boolean available, String reason) {
  public static Availability ok() {
    return new Availability(true, "");
  }

  public static Availability unavailable(String reason) {
    return new Availability(false, reason);
  }

  @Override
  public String toString() {
    return available ? "available" : "unavailable: " + reason;
  }
}
