package dev.fairbench.orchestrator.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrk script as wrk runs it. wrk takes its per-request ("dynamic") path, a Lua call and a copy
 * for every request, whenever a thread's Lua state holds a global {@code request} function once
 * {@code init} has run (src/wrk.c: {@code cfg.dynamic = !script_is_static(t->L)} after
 * {@code script_init}); that cost 10–15% more of the client's CPU per request here. A probe appended
 * to the script reports what wrk sees.
 */
class WrkScriptTest {
  private static final String PROBE = """

      local fairbench_init = init
      function init(args)
        fairbench_init(args)
        per_request = type(request) == "function"
      end
      local probed = {}
      function setup(thread)
        table.insert(probed, thread)
      end
      function done(summary, latency, requests)
        io.write("PER-REQUEST=" .. tostring(probed[1]:get("per_request")) .. " REQUESTS=" .. summary.requests .. "\\n")
      end
      """;

  @TempDir Path dir;
  private HttpServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      byte[] body = "Hello, World!".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private String wrk(String... scriptArgs) throws Exception {
    String script;
    try (InputStream in = WrkScriptTest.class.getResourceAsStream("/dev/fairbench/orchestrator/load/fairbench.lua")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8) + PROBE;
    }
    Path probe = Files.writeString(dir.resolve("probe.lua"), script);
    Path body = Files.writeString(dir.resolve("body.json"), "{\"name\":\"Alice\",\"age\":30}");
    List<String> command = new java.util.ArrayList<>(List.of("wrk", "-t1", "-c2", "-d1s", "-s", probe.toString(),
        "http://127.0.0.1:" + server.getAddress().getPort() + "/plaintext", "--"));
    for (String arg : scriptArgs) {
      command.add(arg.equals("BODY") ? body.toString() : arg);
    }
    Process wrk = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(wrk.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(wrk.exitValue()).as(output).isZero();
    return output;
  }

  @Test
  void withoutPipeliningWrkKeepsTheRequestItFormattedOnce() throws Exception {
    assertThat(wrk("GET", "-", "1", "0")).contains("PER-REQUEST=false").doesNotContain("REQUESTS=0\n");
    assertThat(wrk("POST", "BODY", "1", "0")).contains("PER-REQUEST=false");
    assertThat(wrk("GET", "-", "1", "1")).contains("PER-REQUEST=false");
  }

  @Test
  void pipeliningWritesItsBatchThroughTheScript() throws Exception {
    assertThat(wrk("GET", "-", "4", "0")).contains("PER-REQUEST=true").doesNotContain("REQUESTS=0\n");
  }

  @Test
  void aPipelinedRunHasNoLatencyFiguresSinceWrksAreNotARequestsLatency() throws Exception {
    WrkLoadGenerator generator = WrkLoadGenerator.create("0");
    java.net.URI base = java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    LoadResult plain = generator.run(new LoadSpec(base, dev.fairbench.orchestrator.core.Endpoint.PLAINTEXT,
        java.time.Duration.ofSeconds(1), 2, 1, java.time.Duration.ofSeconds(2), 1, true));
    LoadResult pipelined = generator.run(new LoadSpec(base, dev.fairbench.orchestrator.core.Endpoint.PLAINTEXT,
        java.time.Duration.ofSeconds(1), 2, 1, java.time.Duration.ofSeconds(2), 4, true));
    assertThat(plain.latency()).isNotNull();
    assertThat(plain.latency().p50()).isPositive();
    assertThat(pipelined.requests()).isPositive();
    assertThat(pipelined.latency()).isNull();
  }

  @Test
  void theLoadGeneratorNamesTheScriptSoThatRunsMadeWithAnotherOneDiffer() throws Exception {
    byte[] script;
    try (InputStream in = WrkScriptTest.class.getResourceAsStream("/dev/fairbench/orchestrator/load/fairbench.lua")) {
      script = in.readAllBytes();
    }
    assertThat(WrkLoadGenerator.create("0").version()).matches("wrk \\S+ \\(script [0-9a-f]{8}\\)")
        .endsWith("(script " + WrkLoadGenerator.scriptDigest(script) + ")");
    byte[] edited = java.util.Arrays.copyOf(script, script.length + 1);
    edited[script.length] = '\n';
    assertThat(WrkLoadGenerator.scriptDigest(edited)).isNotEqualTo(WrkLoadGenerator.scriptDigest(script));
  }
}
