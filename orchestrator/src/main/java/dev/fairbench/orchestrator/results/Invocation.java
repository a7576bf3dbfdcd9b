package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fairbench.orchestrator.config.RunConfig;
import java.util.List;
import java.util.Map;

/**
 * The run as it was asked, recorded so that `run --resume` continues it with the same settings and
 * can tell whether the entries changed since.
 *
 * @param config        every setting of the run, as the run used it
 * @param selectors     the entries as named on the command line (empty: every entry)
 * @param baselines     false: --no-baselines
 * @param impls         the folder the entries were read from
 * @param runtime       where the servers ran: native, docker or docker-remote (auto already resolved)
 * @param serverHost    --server-host as given; empty for none
 * @param serverAddress --server-address as given; empty for none
 * @param clientHost    --client-host as given (the load client's engine); empty for the local client
 * @param sources       each selected entry's (and the calibration server's) folder content, by id:
 *                      "sha256:" over its files' paths and bytes (build output left out)
 * @param code          the same digest leaving out each folder's Markdown docs, by which compare names the
 *                      change under test; empty in files made before it was recorded
 */
public record Invocation(
    RunConfig config,
    List<String> selectors,
    boolean baselines,
    String impls,
    String runtime,
    String serverHost,
    String serverAddress,
    String clientHost,
    Map<String, String> sources,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> code) {
  public Invocation {
    selectors = selectors == null ? List.of() : List.copyOf(selectors);
    serverHost = serverHost == null ? "" : serverHost;
    serverAddress = serverAddress == null ? "" : serverAddress;
    clientHost = clientHost == null ? "" : clientHost;
    sources = sources == null ? Map.of() : Map.copyOf(sources);
    code = code == null ? Map.of() : Map.copyOf(code);
  }
}
