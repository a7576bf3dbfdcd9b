package dev.fairbench.orchestrator.runtime;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * SPEC 0.1: a server reads HOST and listens on HOST:PORT. One that binds every interface (0.0.0.0, ::)
 * answers on HOST too, so readiness and the suite cannot tell; the kernel's table of listening sockets can.
 * With the Docker engine's host network such a server is reachable from outside the machine.
 */
public final class ListenCheck {
  private ListenCheck() {}

  /** {@link #beyondHost(URI, List)} for a server of this machine, from the kernel's table of its port. */
  public static Optional<String> beyondHost(RunningServer server) {
    return beyondHost(server.baseUrl(), ProcFs.listeningAddresses(server.baseUrl().getPort()));
  }

  /**
   * Empty when every socket listening on the server's port is bound to its host's address (an IPv4-mapped
   * IPv6 address counts as the IPv4 one); else what it listens on besides.
   *
   * @param listening the local addresses listening on the port ({@link ProcFs#listeningAddresses})
   */
  public static Optional<String> beyondHost(URI baseUrl, List<InetAddress> listening) {
    InetAddress host;
    try {
      host = InetAddress.getByName(baseUrl.getHost());
    } catch (UnknownHostException e) {
      return Optional.empty(); // a name this machine cannot resolve is not one it listens on
    }
    List<String> others = listening.stream().filter(address -> !address.equals(host)).map(ListenCheck::describe)
        .distinct().toList();
    if (others.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("listens on " + String.join(" and ", others) + " port " + baseUrl.getPort() + ", not only on HOST="
        + host.getHostAddress() + " (SPEC 0.1: the server reads HOST and listens there; on every interface it can be "
        + "reached from outside this machine)");
  }

  private static String describe(InetAddress address) {
    return address.isAnyLocalAddress() ? "every interface (" + address.getHostAddress() + ")" : address.getHostAddress();
  }
}
