package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.http.HttpTarget;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each suite class the server under test. The URL comes from the launcher's configuration
 * parameter {@value #URL_PARAMETER}, never from a system property, so two runs in one JVM can judge
 * two servers. One {@link HttpTarget} per run, closed when the run ends.
 *
 * <p>The run's time limit, {@value #TIME_LIMIT_PARAMETER} (an ISO-8601 duration, e.g. {@code PT10M}),
 * counts from the first check: once it has passed, no check begins (each is reported as not judged)
 * and a check under way sends no more requests. Without it there is no limit.
 */
public final class TargetExtension implements ParameterResolver, ExecutionCondition {
  public static final String URL_PARAMETER = "fairbench.url";
  public static final String TIME_LIMIT_PARAMETER = "fairbench.time-limit";
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TargetExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == HttpTarget.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return target(context);
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (target(context).pastTimeLimit()) {
      return ConditionEvaluationResult.disabled(HttpTarget.timeLimitFinding(timeLimit(context)));
    }
    return ConditionEvaluationResult.enabled("within the suite's time limit");
  }

  private static HttpTarget target(ExtensionContext context) {
    String url = context.getConfigurationParameter(URL_PARAMETER)
        .orElseThrow(() -> new ParameterResolutionException(
            "no server to test: the launcher must set the configuration parameter " + URL_PARAMETER));
    Duration timeLimit = timeLimit(context);
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(HttpTarget.class, key -> new HttpTarget(URI.create(url), timeLimit), HttpTarget.class);
  }

  private static Duration timeLimit(ExtensionContext context) {
    return context.getConfigurationParameter(TIME_LIMIT_PARAMETER).map(text -> {
      try {
        Duration limit = Duration.parse(text);
        if (limit.isNegative() || limit.isZero()) {
          throw new ExtensionConfigurationException(TIME_LIMIT_PARAMETER + " must be positive, got " + text);
        }
        return limit;
      } catch (DateTimeParseException e) {
        throw new ExtensionConfigurationException(TIME_LIMIT_PARAMETER + " must be an ISO-8601 duration such as "
            + "PT10M, got " + text, e);
      }
    }).orElse(null);
  }
}
