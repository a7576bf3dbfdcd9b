package dev.fairbench.orchestrator.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything the orchestrator started that must not outlive it: servers, build steps, load
 * clients. A JVM shutdown hook (Ctrl-C, SIGTERM, a failure that ends the JVM) stops them all.
 */
public final class ServerRegistry {
  private static final Set<Object> LIVE = Collections.synchronizedSet(new LinkedHashSet<>());
  private static volatile boolean hookInstalled;
  private static volatile boolean stopping;
  private static volatile String onStop;

  private ServerRegistry() {}

  public static void track(RunningServer server) {
    add(server);
  }

  public static void track(Process process) {
    add(process);
  }

  /** Anything else to close at the end (the load client's container). */
  public static void track(AutoCloseable handle) {
    add(handle);
  }

  /**
   * Tracks {@code handle}; once the hook has begun, stops it at once instead: the hook has taken its
   * list, and whatever the work still going on starts now would outlive the JVM.
   */
  private static void add(Object handle) {
    installHook();
    LIVE.add(handle);
    if (stopping) {
      stop(handle);
    }
  }

  /** A line the hook prints before it stops everything (what the interrupted work left, how to go on); null for none. */
  public static void sayOnStop(String line) {
    onStop = line;
  }

  public static void untrack(Object handle) {
    LIVE.remove(handle);
  }

  /**
   * Whether the JVM is shutting down (the hook has begun stopping everything). The work still going
   * on meanwhile sees its servers and load clients vanish: what it measures from then on is not a
   * measurement and must not be recorded.
   */
  public static boolean stopping() {
    return stopping;
  }

  /**
   * For {@link Thread#setDefaultUncaughtExceptionHandler}: an exception no thread caught, as one line
   * (the stack trace with FAIRBENCH_DEBUG set). Testcontainers' own shutdown hook removes the
   * containers of its session while this hook removes them too, and fails with "No such container"
   * on the ones already gone: during shutdown that is the outcome both wanted, so it says nothing.
   */
  public static void uncaught(Thread thread, Throwable e) {
    String line = uncaughtLine(thread, e, stopping);
    if (line != null) {
      System.err.println(line);
      if (System.getenv("FAIRBENCH_DEBUG") != null) {
        e.printStackTrace();
      }
    }
  }

  /** What {@link #uncaught} prints; null for nothing. */
  static String uncaughtLine(Thread thread, Throwable e, boolean shuttingDown) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (shuttingDown && t instanceof com.github.dockerjava.api.exception.NotFoundException) {
        return null;
      }
    }
    return "fairbench: unexpected error in thread " + thread.getName() + ": " + DockerRuntime.rootMessage(e)
        + (System.getenv("FAIRBENCH_DEBUG") != null ? "" : " (set FAIRBENCH_DEBUG=1 for the stack trace)");
  }

  private static synchronized void installHook() {
    if (hookInstalled) {
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(ServerRegistry::stopAll, "fairbench-cleanup"));
    hookInstalled = true;
  }

  static void stopAll() {
    stopping = true;
    String line = onStop;
    if (line != null) {
      System.err.println(line);
    }
    List<Object> live;
    synchronized (LIVE) {
      live = new ArrayList<>(LIVE);
    }
    Collections.reverse(live);
    live.forEach(ServerRegistry::stop);
  }

  private static void stop(Object handle) {
    try {
      if (handle instanceof RunningServer server) {
        server.close();
      } else if (handle instanceof Process process) {
        Commands.killTree(process.toHandle());
      } else if (handle instanceof AutoCloseable closeable) {
        closeable.close();
      }
    } catch (Exception e) {
      System.err.println("fairbench: cleanup of " + handle + " failed: " + e.getMessage());
    }
  }
}
