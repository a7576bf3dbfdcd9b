package dev.fairbench.conformance;

import dev.fairbench.conformance.suite.TargetExtension;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.engine.JupiterTestEngine;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs the conformance suite against one running server and judges it clause by clause. */
public final class ConformanceSuite {
  /** The package holding the suite's test classes. */
  public static final String SUITE_PACKAGE = "dev.fairbench.conformance.suite";
  static final Duration REACHABILITY_TIMEOUT = Duration.ofSeconds(5);
  /**
   * How long a run may take: a healthy server is judged in 2 to 15 s here, one that hangs on an
   * endpoint in about 4 min; a server that answers everything slowly would otherwise hold the run
   * (and the benchmark's gate) for hours. What is left when it passes is reported as not judged (FAIL).
   */
  public static final Duration TIME_LIMIT = Duration.ofMinutes(10);
  /**
   * The deepest burst of pipelined requests clause 11.6 writes at once on one connection: a load
   * client's pipelining deeper than this is not proved to work on a conformant entry.
   */
  public static final int DEEPEST_PIPELINE = 256;

  // Held so the levels set below stick (java.util.logging keeps loggers weakly).
  private static final List<Logger> QUIET = List.of(Logger.getLogger("org.junit"), Logger.getLogger("okhttp3"));

  private ConformanceSuite() {}

  /**
   * Checks the server at {@code baseUrl} (e.g. {@code http://127.0.0.1:8080}) against every clause of
   * docs/SPEC.md sections 1 to 12, in SPEC order, robustness last.
   *
   * @throws UnreachableServerException when the server does not answer {@code GET /plaintext} with any
   *     HTTP response within 5 s
   * @throws IllegalArgumentException when the URL is not an absolute http URL with a host
   */
  public static SuiteReport run(URI baseUrl) throws UnreachableServerException {
    return run(baseUrl, TIME_LIMIT);
  }

  /**
   * {@link #run(URI)} with another time limit: once it has passed, no check begins and no request is
   * sent; every clause not yet judged FAILs with a finding that says so.
   */
  public static SuiteReport run(URI baseUrl, Duration timeLimit) throws UnreachableServerException {
    if (timeLimit == null || timeLimit.isNegative() || timeLimit.isZero()) {
      throw new IllegalArgumentException("the time limit must be positive, got " + timeLimit);
    }
    requireHttpUrl(baseUrl);
    checkReachable(baseUrl);

    LauncherDiscoveryRequest request = discoveryRequest(baseUrl, timeLimit);
    Launcher launcher = launcher();

    VerdictListener verdicts = new VerdictListener();
    Instant startedAt = Instant.now();
    long start = System.nanoTime();
    List<Level> previous = QUIET.stream().map(Logger::getLevel).toList();
    QUIET.forEach(logger -> logger.setLevel(Level.OFF));
    try {
      launcher.execute(request, verdicts);
    } finally {
      for (int i = 0; i < QUIET.size(); i++) {
        QUIET.get(i).setLevel(previous.get(i));
      }
    }
    return verdicts.report(baseUrl, startedAt, Duration.ofNanos(System.nanoTime() - start));
  }

  /** What to run: the suite package, in SPEC order, against this URL, ignoring system properties. */
  static LauncherDiscoveryRequest discoveryRequest(URI baseUrl, Duration timeLimit) {
    return LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectPackage(SUITE_PACKAGE))
        .filters(ClassNameFilter.includeClassNamePatterns(".*Test"))
        .enableImplicitConfigurationParameters(false)
        .configurationParameter(TargetExtension.URL_PARAMETER, baseUrl.toString())
        .configurationParameter(TargetExtension.TIME_LIMIT_PARAMETER, timeLimit.toString())
        .configurationParameter("junit.jupiter.testclass.order.default",
            "org.junit.jupiter.api.ClassOrderer$OrderAnnotation")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .build();
  }

  /** A launcher with only the Jupiter engine and none of the listeners found on the class path. */
  static Launcher launcher() {
    return LauncherFactory.create(LauncherConfig.builder()
        .enableTestEngineAutoRegistration(false)
        .addTestEngines(new JupiterTestEngine())
        .enableTestExecutionListenerAutoRegistration(false)
        .enableLauncherSessionListenerAutoRegistration(false)
        .enablePostDiscoveryFilterAutoRegistration(false)
        .enableLauncherDiscoveryListenerAutoRegistration(false)
        .build());
  }

  private static void requireHttpUrl(URI baseUrl) {
    if (baseUrl == null || !"http".equalsIgnoreCase(baseUrl.getScheme()) || baseUrl.getHost() == null
        || baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "the server URL must look like http://HOST:PORT (optionally with a path), got: " + baseUrl);
    }
  }

  private static void checkReachable(URI baseUrl) throws UnreachableServerException {
    OkHttpClient client = new OkHttpClient.Builder()
        .connectTimeout(REACHABILITY_TIMEOUT)
        .readTimeout(REACHABILITY_TIMEOUT)
        .callTimeout(REACHABILITY_TIMEOUT)
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .build();
    String base = baseUrl.toString().replaceAll("/+$", "");
    try (Response ignored = client.newCall(new Request.Builder().url(base + "/plaintext").build()).execute()) {
      // Any HTTP response will do: judging it is the suite's job.
    } catch (ConnectException e) {
      throw new UnreachableServerException(baseUrl, "connection refused (is the server running on that port?)", e);
    } catch (UnknownHostException e) {
      throw new UnreachableServerException(baseUrl, "unknown host " + baseUrl.getHost(), e);
    } catch (InterruptedIOException e) {
      throw new UnreachableServerException(baseUrl,
          "no HTTP answer to GET /plaintext within " + REACHABILITY_TIMEOUT.toSeconds() + " s", e);
    } catch (ProtocolException e) {
      throw new UnreachableServerException(baseUrl, "does not speak HTTP/1.1: " + e.getMessage(), e);
    } catch (IOException e) {
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new UnreachableServerException(baseUrl,
          "GET /plaintext got no HTTP answer: " + message.toLowerCase(Locale.ROOT), e);
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
  }
}
