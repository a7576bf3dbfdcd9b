package dev.fairbench.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The request target as it reaches /user/:id, through a real server: raw bytes no client library sends. */
class RequestTargetTest {
  private static Vertx vertx;
  private static int port;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    vertx = Vertx.vertx();
    vertx.deployVerticle(new HttpVerticle("127.0.0.1", port)).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** One request with Connection: close; the whole answer as ISO-8859-1 text (one char per byte). */
  private static String exchange(byte[] target) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write("GET ".getBytes(StandardCharsets.US_ASCII));
      out.write(target);
      out.write(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      in.transferTo(answer);
      return answer.toString(StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void rawBytesAboveAsciiInTheTargetAnswer400NotLatin1() throws Exception {
    // /user/ then C3 A9, the UTF-8 of é, unencoded: Netty would hand the route "Ã©".
    byte[] target = {'/', 'u', 's', 'e', 'r', '/', (byte) 0xC3, (byte) 0xA9};
    String answer = exchange(target);
    assertThat(answer).startsWith("HTTP/1.1 400 ").contains("application/json").contains("\"error\"");
  }

  @Test
  void percentEncodedUtf8IsStillServed() throws Exception {
    String answer = exchange("/user/caf%C3%A9".getBytes(StandardCharsets.US_ASCII));
    assertThat(answer).startsWith("HTTP/1.1 200 ")
        .endsWith(new String("{\"id\":\"café\",\"name\":\"User café\"}".getBytes(StandardCharsets.UTF_8),
            StandardCharsets.ISO_8859_1));
  }
}
