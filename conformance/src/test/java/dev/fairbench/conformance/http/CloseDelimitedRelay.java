package dev.fairbench.conformance.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A test fixture in front of a server: relays each request, then rewrites the response the way an
 * HTTP/1.0-era server would send it, without Content-Length or chunked framing, the body ending
 * when the connection closes. Clause 11.2 must catch it.
 */
public final class CloseDelimitedRelay implements AutoCloseable {
  private final ServerSocket listener;
  private final InetSocketAddress upstream;

  public CloseDelimitedRelay(URI upstream) throws IOException {
    this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
    this.listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("close-delimited-relay").start(this::acceptLoop);
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Thread.ofVirtual().start(() -> relay(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void relay(Socket client) {
    try (client; Socket server = new Socket()) {
      server.connect(upstream);
      InputStream fromClient = client.getInputStream();
      OutputStream toServer = server.getOutputStream();
      Thread.ofVirtual().start(() -> {
        try {
          fromClient.transferTo(toServer);
        } catch (IOException ignored) {
          // either side closed
        }
      });
      InputStream fromServer = new BufferedInputStream(server.getInputStream());
      OutputStream toClient = client.getOutputStream();
      RawResponse response = RawHttp.read(fromServer, true, false);
      while (response.status() / 100 == 1) {
        // An interim response (100 Continue) is relayed as it is: the client waits for it.
        toClient.write((response.statusLine() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        toClient.flush();
        response = RawHttp.read(fromServer, true, false);
      }
      StringBuilder head = new StringBuilder(response.statusLine()).append("\r\n");
      for (Map.Entry<String, List<String>> header : response.headers().entrySet()) {
        String name = header.getKey();
        if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
            || name.equalsIgnoreCase("Connection")) {
          continue;
        }
        header.getValue().forEach(v -> head.append(name).append(": ").append(v).append("\r\n"));
      }
      head.append("Connection: close\r\n\r\n");
      toClient.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      toClient.write(response.body());
      toClient.flush();
    } catch (IOException ignored) {
      // the client or the server went away: nothing to relay
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
