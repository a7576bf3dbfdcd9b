package dev.fairbench.conformance.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.http.HttpTarget;
import dev.fairbench.conformance.http.RawResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Order(11)
@DisplayName("11. HTTP behaviour")
@ExtendWith(TargetExtension.class)
class HttpBehaviourTest {
  private static final int REQUESTS = 200;
  private static final MediaType JSON = MediaType.get("application/json");

  private final HttpTarget server;

  HttpBehaviourTest(HttpTarget server) {
    this.server = server;
  }

  @Test
  @Clause("11.1")
  @DisplayName("HTTP/1.1 keep-alive: one connection serves 200 sequential requests over all four endpoints")
  void oneConnectionServesManySequentialRequests() {
    server.requireResponsive("keep-alive");
    AtomicInteger connections = new AtomicInteger();
    AtomicInteger closeHeaders = new AtomicInteger();
    OkHttpClient client = server.newClientBuilder()
        .connectionPool(new ConnectionPool(1, 1, TimeUnit.MINUTES))
        // A connection the server dropped must show as a new connection, not be retried quietly.
        .retryOnConnectionFailure(false)
        .eventListener(new EventListener() {
          @Override
          public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
            connections.incrementAndGet();
          }
        })
        .build();
    try {
      for (int i = 0; i < REQUESTS; i++) {
        Request request = switch (i % 4) {
          case 0 -> new Request.Builder().url(server.url("/plaintext")).build();
          case 1 -> new Request.Builder().url(server.url("/json")).build();
          case 2 -> new Request.Builder().url(server.url("/user/" + i)).build();
          default -> new Request.Builder().url(server.url("/validate"))
              .post(RequestBody.create(("{\"name\":\"n" + i + "\",\"age\":" + (1 + i % 150) + "}")
                  .getBytes(StandardCharsets.UTF_8), JSON)).build();
        };
        String description = request.method() + " " + request.url().encodedPath();
        try (Response response = client.newCall(request).execute()) {
          response.body().bytes();
          // Whether the answer is right is other clauses' business; here it must be an answer.
          assertThat(response.code())
              .as("keep-alive, request %d of %d, %s: expected an answer, got status %d", i + 1, REQUESTS, description, response.code())
              .isLessThan(500);
          assertThat(response.protocol())
              .as("keep-alive: %s answered %s, expected HTTP/1.1", description, response.protocol())
              .isEqualTo(Protocol.HTTP_1_1);
          if ("close".equalsIgnoreCase(response.header("Connection"))) {
            closeHeaders.incrementAndGet();
          }
        } catch (IOException e) {
          throw server.noAnswer("keep-alive, request " + (i + 1) + " of " + REQUESTS + ", " + description, e);
        }
      }
    } finally {
      client.connectionPool().evictAll();
    }
    assertThat(connections.get())
        .as("%d sequential requests over /plaintext, /json, /user/{id}, /validate: expected one connection, needed %d%s",
            REQUESTS, connections.get(),
            closeHeaders.get() > 0 ? " (" + closeHeaders.get() + " responses carried Connection: close)" : "")
        .isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Probe.class)
  @Clause("11.2")
  @DisplayName("every response carries Content-Length or is chunked")
  void everyResponseHasContentLengthOrIsChunked(Probe probe) {
    server.requireResponsive(probe.describe());
    RawResponse response;
    try {
      // Keep-alive requests: a response meant to be followed by another must say where it ends.
      response = server.raw().exchangeHead(probe.bytes(server, false));
    } catch (IOException e) {
      throw server.noAnswer(probe.describe(), e);
    }
    assertThat(response.framing())
        .as("%s: the response (%s) has neither Content-Length nor Transfer-Encoding: chunked",
            probe.describe(), response.statusLine())
        .isIn(RawResponse.Framing.CONTENT_LENGTH, RawResponse.Framing.CHUNKED);
  }
}
