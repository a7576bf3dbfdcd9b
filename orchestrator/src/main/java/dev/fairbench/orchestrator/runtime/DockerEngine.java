package dev.fairbench.orchestrator.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Info;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.transport.SSLConfig;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.dockerclient.TransportConfig;
import org.testcontainers.shaded.com.github.dockerjava.core.DefaultDockerClientConfig;

/**
 * The Docker engine the servers run on: the local one (found by Testcontainers, as before), or a
 * remote one named by {@code --server-host} or by a DOCKER_HOST that is not this machine, reached
 * the standard way: DOCKER_HOST's URL, with TLS when DOCKER_TLS_VERIFY=1 and the client
 * certificates in DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem). See docs/TWO-HOSTS.md.
 *
 * <p>A remote engine gets a client of its own, never Testcontainers' process-wide one:
 * Testcontainers reads DOCKER_HOST and TESTCONTAINERS_HOST_OVERRIDE from the environment only,
 * and the launcher sets the override to 127.0.0.1 for the local engine. The client is built the
 * way Testcontainers builds its own (docker-java's config from the URL and the TLS variables, the
 * zerodep transport), so TLS behaves the same.
 *
 * @param dockerHost    the engine's URL, e.g. tcp://10.0.0.2:2376; null for the local engine
 * @param tlsVerify     whether the connection is TLS with the certificates in certPath
 * @param certPath      DOCKER_CERT_PATH, or null
 * @param serverAddress the address the servers on that engine's host listen on and the load
 *                      client reaches: 127.0.0.1 for the local engine
 */
public record DockerEngine(URI dockerHost, boolean tlsVerify, Path certPath, String serverAddress) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public DockerEngine {
    Objects.requireNonNull(serverAddress);
  }

  /** The engine Testcontainers finds on this machine (DOCKER_HOST, the default socket). */
  public static DockerEngine local() {
    return new DockerEngine(null, false, null, "127.0.0.1");
  }

  /** Whether the servers run on another host than the orchestrator and the load client. */
  public boolean remote() {
    return dockerHost != null;
  }

  /**
   * The remote engine at {@code url}, or the one in DOCKER_HOST when {@code url} is null and
   * DOCKER_HOST names another machine; empty when the servers stay on this machine.
   *
   * @param address the server host's address when the URL does not say it (unix://, or a name
   *                the load client should not use); null to take the URL's host
   * @param env     the process environment: DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH
   * @throws IllegalArgumentException with what is wrong, for a usage error
   */
  public static Optional<DockerEngine> fromOptions(String url, String address, Map<String, String> env) {
    String chosen = url;
    if (chosen == null) {
      String fromEnv = env.get("DOCKER_HOST");
      if (fromEnv == null || fromEnv.isBlank() || !namesAnotherMachine(URI.create(fromEnv.trim()))) {
        if (address != null) {
          throw new IllegalArgumentException("--server-address needs --server-host (or a DOCKER_HOST naming another machine)");
        }
        return Optional.empty();
      }
      chosen = fromEnv.trim();
    }
    Endpoint parsed = parse("--server-host", chosen, env);
    URI uri = parsed.uri();
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    String host = address != null ? address : scheme.equals("unix") ? null : stripBrackets(uri.getHost());
    if (host == null) {
      throw new IllegalArgumentException("--server-host " + chosen
          + " does not say where the servers can be reached: give --server-address ADDRESS (the server host's address "
          + "as the load client reaches it)");
    }
    String resolved;
    try {
      resolved = InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("the server host " + host + " does not resolve: " + e.getMessage());
    }
    if (InetAddress.getLoopbackAddress().getHostAddress().equals(resolved) || resolved.startsWith("127.")) {
      throw new IllegalArgumentException("the server host's address " + host + " is loopback: the servers would be "
          + "reached on this machine; give the address the load client reaches the server host at (--server-address)");
    }
    return Optional.of(new DockerEngine(parsed.uri(), parsed.tls(), parsed.certs(), resolved));
  }

  /**
   * The engine of {@code --client-host}, where the load client runs as a container: any engine
   * URL, this machine's socket included (unix:///var/run/docker.sock). Its serverAddress is empty:
   * no server runs there.
   *
   * @throws IllegalArgumentException with what is wrong, for a usage error
   */
  public static DockerEngine clientHost(String url, Map<String, String> env) {
    Endpoint parsed = parse("--client-host", url, env);
    return new DockerEngine(parsed.uri(), parsed.tls(), parsed.certs(), "");
  }

  /** Whether this engine's containers run on the machine where the orchestrator runs (a unix socket, loopback). */
  public boolean onThisMachine() {
    return dockerHost == null || !namesAnotherMachine(dockerHost);
  }

  /** An engine URL as docker-java takes it, with its TLS settings. */
  private record Endpoint(URI uri, boolean tls, Path certs) {}

  /** Parses and checks an engine URL given to {@code option} (tcp://HOST:PORT, unix:///PATH; ssh:// says what to do). */
  private static Endpoint parse(String option, String chosen, Map<String, String> env) {
    if (chosen.trim().matches("(?i)unix:/*")) {
      throw new IllegalArgumentException(option + " " + chosen + ": give the socket's path, e.g. unix:///var/run/docker.sock");
    }
    URI uri;
    try {
      uri = URI.create(chosen.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " " + chosen + " is not a URL: " + e.getMessage());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    switch (scheme) {
      case "tcp", "http", "https", "unix" -> { }
      case "ssh" -> throw new IllegalArgumentException(option + " " + chosen + ": ssh:// engines are not reached "
          + "directly (the Docker client library has no ssh transport); forward the engine's socket, e.g. "
          + "`ssh -nNT -L /tmp/fairbench-engine.sock:/var/run/docker.sock " + uri.getAuthority()
          + "`, then give " + option + " unix:///tmp/fairbench-engine.sock"
          + (option.equals("--server-host") ? " --server-address " + (uri.getHost() == null ? "HOST" : uri.getHost()) : "")
          + " (docs/TWO-HOSTS.md)");
      default -> throw new IllegalArgumentException(option + " " + chosen
          + ": the URL must be tcp://HOST:PORT (TLS with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH), or unix:///PATH");
    }
    if (!scheme.equals("unix") && (uri.getHost() == null || uri.getPort() < 0)) {
      throw new IllegalArgumentException(option + " " + chosen + ": give the engine's host and port, e.g. tcp://10.0.0.2:2376");
    }
    if (scheme.equals("unix") && (uri.getPath() == null || uri.getPath().isEmpty())) {
      throw new IllegalArgumentException(option + " " + chosen + ": give the socket's path, e.g. unix:///var/run/docker.sock");
    }
    boolean tls = !scheme.equals("unix") && ("1".equals(env.get("DOCKER_TLS_VERIFY"))
        || "true".equalsIgnoreCase(env.get("DOCKER_TLS_VERIFY")) || scheme.equals("https"));
    Path certs = null;
    if (tls) {
      String certPath = env.get("DOCKER_CERT_PATH");
      certs = certPath == null || certPath.isBlank() ? Path.of(System.getProperty("user.home"), ".docker") : Path.of(certPath);
      for (String file : new String[] {"ca.pem", "cert.pem", "key.pem"}) {
        if (!Files.isReadable(certs.resolve(file))) {
          throw new IllegalArgumentException("DOCKER_TLS_VERIFY is set but " + certs.resolve(file)
              + " is not readable (DOCKER_CERT_PATH must hold ca.pem, cert.pem and key.pem)");
        }
      }
    }
    URI normalized = scheme.equals("http") || scheme.equals("https") ? URI.create("tcp://" + uri.getRawAuthority()) : uri;
    return new Endpoint(normalized, tls, certs);
  }

  /** A tcp/http/ssh URL whose host is not loopback; unix sockets are this machine's. */
  static boolean namesAnotherMachine(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("tcp") || scheme.equals("http") || scheme.equals("https") || scheme.equals("ssh"))
        || uri.getHost() == null) {
      return false;
    }
    String host = stripBrackets(uri.getHost());
    return !(host.equals("localhost") || host.startsWith("127.") || host.equals("::1"));
  }

  private static String stripBrackets(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** The URL the engine is reached at, for messages, results and the watchdog. */
  public String url() {
    return remote() ? dockerHost.toString() : DockerClientFactory.instance().getTransportConfig().getDockerHost().toString();
  }

  /** The SSL settings of docker-java for this engine (the same config Testcontainers uses for DOCKER_*). */
  private SSLConfig sslConfig() {
    var builder = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(dockerHost.toString())
        .withDockerTlsVerify(tlsVerify);
    if (certPath != null) {
      builder.withDockerCertPath(certPath.toString());
    }
    return builder.build().getSSLConfig();
  }

  /** A client of this engine; the local one is Testcontainers' shared client. */
  public DockerClient client() {
    if (!remote()) {
      return DockerClientFactory.instance().client();
    }
    synchronized (this) {
      return Clients.client(this);
    }
  }

  /** The engine's `docker info`. */
  public Info info() {
    return client().infoCmd().exec();
  }

  /** Whether the engine answers. */
  public boolean answers() {
    if (!remote()) {
      return DockerClientFactory.instance().isDockerAvailable();
    }
    try {
      client().pingCmd().exec();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * One reading of the container's stats (GET /containers/ID/stats?stream=false): CPU time, memory
   * and task count from the engine's view of the container's cgroup. The engine answers after its
   * next collection tick, so a reading takes about 1 s (up to 2 s); the figures are those of the
   * instant it answers.
   */
  public ContainerStats stats(String containerId) throws IOException {
    DockerHttpClient.Request request = DockerHttpClient.Request.builder()
        .method(DockerHttpClient.Request.Method.GET)
        .path("/containers/" + containerId + "/stats?stream=false")
        .build();
    DockerHttpClient http = Clients.http(this);
    try (DockerHttpClient.Response response = http.execute(request); InputStream body = response.getBody()) {
      if (response.getStatusCode() != 200) {
        throw new IOException("the engine answered " + response.getStatusCode() + " to the stats of " + containerId);
      }
      return ContainerStats.parse(JSON.readTree(body));
    } catch (RuntimeException e) {
      throw new IOException("cannot read the stats of " + containerId + ": " + DockerRuntime.rootMessage(e), e);
    }
  }

  /**
   * What the engine's stats API says of a container at one instant.
   *
   * @param cpuSeconds      cpu_stats.cpu_usage.total_usage: CPU time of the container's cgroup
   * @param memoryPeakBytes memory_stats.max_usage (cgroup v1; includes page cache), -1 when absent (v2)
   * @param rssBytes        memory_stats.stats.rss (v1) or .anon (v2): resident anonymous memory now
   * @param tasks           pids_stats.current: threads of all the container's processes
   */
  public record ContainerStats(double cpuSeconds, long memoryPeakBytes, long rssBytes, long tasks) {
    static ContainerStats parse(JsonNode stats) {
      JsonNode memory = stats.path("memory_stats");
      JsonNode detail = memory.path("stats");
      long rss = detail.has("rss") ? detail.path("rss").asLong() : detail.has("anon") ? detail.path("anon").asLong() : -1;
      return new ContainerStats(
          stats.path("cpu_stats").path("cpu_usage").path("total_usage").asLong(-1) / 1e9,
          memory.has("max_usage") ? memory.path("max_usage").asLong() : -1,
          rss,
          stats.path("pids_stats").path("current").asLong(-1));
    }
  }

  /** One client and one raw transport per remote engine, for the process's life. */
  private static final class Clients {
    private static final Map<DockerEngine, DockerClient> CLIENTS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<DockerEngine, DockerHttpClient> HTTP = new java.util.concurrent.ConcurrentHashMap<>();

    static DockerClient client(DockerEngine engine) {
      return CLIENTS.computeIfAbsent(engine, e -> DockerClientProviderStrategy.getClientForConfig(
          TransportConfig.builder().dockerHost(e.dockerHost()).sslConfig(e.sslConfig()).build()));
    }

    static DockerHttpClient http(DockerEngine engine) {
      return HTTP.computeIfAbsent(engine, e -> new ZerodepDockerHttpClient.Builder()
          .dockerHost(e.dockerHost())
          .sslConfig(e.sslConfig())
          .connectionTimeout(Duration.ofSeconds(10))
          .responseTimeout(Duration.ofSeconds(30))
          .build());
    }
  }
}
