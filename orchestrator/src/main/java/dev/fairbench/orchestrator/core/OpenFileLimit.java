package dev.fairbench.orchestrator.core;

/**
 * The open-file limit (RLIMIT_NOFILE) a server runs with, as read back after its start.
 *
 * @param soft   the soft limit; -1 for unlimited
 * @param hard   the hard limit; -1 for unlimited
 * @param source where it was read, e.g. "/proc/1234/limits", "docker inspect HostConfig.Ulimits"
 */
public record OpenFileLimit(long soft, long hard, String source) {
  /** "8192:8192" (soft:hard). */
  public String describe() {
    return text(soft) + ":" + text(hard);
  }

  /** Whether both limits are {@code n}. */
  public boolean is(long n) {
    return soft == n && hard == n;
  }

  private static String text(long value) {
    return value < 0 ? "unlimited" : Long.toString(value);
  }
}
