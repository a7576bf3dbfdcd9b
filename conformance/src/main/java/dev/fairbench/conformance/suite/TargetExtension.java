package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.HttpTarget;
import java.net.URI;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each suite class the server under test. The URL comes from the launcher's configuration
 * parameter {@value #URL_PARAMETER}, never from a system property, so two runs in one JVM can judge
 * two servers. One {@link HttpTarget} per run, closed when the run ends.
 */
public final class TargetExtension implements ParameterResolver {
  public static final String URL_PARAMETER = "fairbench.url";
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TargetExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == HttpTarget.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    String url = context.getConfigurationParameter(URL_PARAMETER)
        .orElseThrow(() -> new ParameterResolutionException(
            "no server to test: the launcher must set the configuration parameter " + URL_PARAMETER));
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(HttpTarget.class, key -> new HttpTarget(URI.create(url)), HttpTarget.class);
  }
}
