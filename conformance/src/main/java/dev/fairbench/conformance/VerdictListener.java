package dev.fairbench.conformance;

import dev.fairbench.conformance.suite.Clause;
import dev.fairbench.conformance.suite.ImplementationDefined;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Turns JUnit outcomes into clause verdicts: a successful test PASSes, a test aborted with
 * {@link ImplementationDefined} in a WARN clause WARNs, anything else FAILs. A clause's verdict is
 * the worst of its tests, and every non-PASS test leaves a finding.
 */
final class VerdictListener implements TestExecutionListener {
  private record Outcome(Verdict verdict, String finding) {}

  private final Map<String, List<Outcome>> outcomes = new LinkedHashMap<>();
  private final List<String> unattributed = new ArrayList<>();

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (test.isTest()) {
      Optional<Clause> clause = method(test.getSource().orElse(null)).map(m -> m.getAnnotation(Clause.class));
      if (clause.isEmpty()) {
        unattributed.add(test.getDisplayName() + " has no @Clause");
        return;
      }
      record(clause.get(), verdictOf(clause.get(), result), finding(test, result));
    } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
      // A class, a parameterized method or the engine could not run: every clause it would have checked fails.
      String finding = test.getDisplayName() + " could not run: " + message(result);
      List<Clause> clauses = clausesUnder(test.getSource().orElse(null));
      if (clauses.isEmpty()) {
        unattributed.add(finding);
      }
      clauses.forEach(c -> record(c, Verdict.FAIL, finding));
    }
  }

  @Override
  public void executionSkipped(TestIdentifier test, String reason) {
    String finding = test.getDisplayName() + " was skipped: " + reason;
    if (test.isTest()) {
      method(test.getSource().orElse(null)).map(m -> m.getAnnotation(Clause.class))
          .ifPresentOrElse(c -> record(c, Verdict.FAIL, finding), () -> unattributed.add(finding));
    } else {
      clausesUnder(test.getSource().orElse(null)).forEach(c -> record(c, Verdict.FAIL, finding));
    }
  }

  SuiteReport report(URI target, Instant startedAt, Duration took) {
    List<ClauseResult> results = new ArrayList<>();
    for (SpecClause clause : SpecClause.ALL) {
      List<Outcome> found = outcomes.getOrDefault(clause.id(), List.of());
      List<String> findings = new ArrayList<>();
      Verdict verdict = Verdict.PASS;
      if (found.isEmpty()) {
        verdict = Verdict.FAIL;
        findings.add("no check of this clause ran" + (unattributed.isEmpty() ? "" : ": " + String.join("; ", unattributed)));
      }
      for (Outcome outcome : found) {
        verdict = verdict.worst(outcome.verdict());
        if (outcome.verdict() != Verdict.PASS) {
          findings.add(outcome.finding());
        }
      }
      results.add(new ClauseResult(clause.id(), clause.title(), clause.severity(), verdict, findings));
    }
    return new SuiteReport(target, startedAt, took, results);
  }

  private void record(Clause clause, Verdict verdict, String finding) {
    outcomes.computeIfAbsent(clause.value(), k -> new ArrayList<>()).add(new Outcome(verdict, finding));
  }

  private static Verdict verdictOf(Clause clause, TestExecutionResult result) {
    return switch (result.getStatus()) {
      case SUCCESSFUL -> Verdict.PASS;
      case ABORTED -> clause.severity() == Severity.WARN
          && result.getThrowable().orElse(null) instanceof ImplementationDefined ? Verdict.WARN : Verdict.FAIL;
      case FAILED -> Verdict.FAIL;
    };
  }

  private static String finding(TestIdentifier test, TestExecutionResult result) {
    if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
      return null;
    }
    Throwable thrown = result.getThrowable().orElse(null);
    if (thrown instanceof AssertionError || thrown instanceof ImplementationDefined) {
      return oneLine(thrown.getMessage());
    }
    // Not a finding about the server but a broken check: say which and what happened.
    return test.getDisplayName() + ": " + message(result);
  }

  private static String message(TestExecutionResult result) {
    return result.getThrowable().map(t -> t.getClass().getSimpleName() + ": " + oneLine(t.getMessage())).orElse("no reason given");
  }

  /**
   * AssertJ writes "[description] \nexpected: ...": the description already says what was sent,
   * expected and got, so it alone is the finding.
   */
  static String oneLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    if (message.startsWith("[")) {
      int end = message.indexOf("] \n");
      if (end > 0) {
        return message.substring(1, end);
      }
    }
    return message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static Optional<Method> method(TestSource source) {
    if (source instanceof MethodSource method) {
      try {
        return Optional.of(method.getJavaMethod());
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** The clauses a container covers: its own (a parameterized method) or its methods' (a class). */
  private static List<Clause> clausesUnder(TestSource source) {
    Optional<Clause> own = method(source).map(m -> m.getAnnotation(Clause.class));
    if (own.isPresent()) {
      return List.of(own.get());
    }
    if (source instanceof ClassSource type) {
      return Arrays.stream(type.getJavaClass().getDeclaredMethods())
          .map(m -> m.getAnnotation(Clause.class))
          .filter(c -> c != null)
          .toList();
    }
    return List.of();
  }
}
