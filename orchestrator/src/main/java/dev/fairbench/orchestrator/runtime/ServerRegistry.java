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

  private ServerRegistry() {}

  public static void track(RunningServer server) {
    installHook();
    LIVE.add(server);
  }

  public static void track(Process process) {
    installHook();
    LIVE.add(process);
  }

  /** Anything else to close at the end (the load client's container). */
  public static void track(AutoCloseable handle) {
    installHook();
    LIVE.add(handle);
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

  private static synchronized void installHook() {
    if (hookInstalled) {
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(ServerRegistry::stopAll, "fairbench-cleanup"));
    hookInstalled = true;
  }

  static void stopAll() {
    stopping = true;
    List<Object> live;
    synchronized (LIVE) {
      live = new ArrayList<>(LIVE);
    }
    Collections.reverse(live);
    for (Object handle : live) {
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
}
