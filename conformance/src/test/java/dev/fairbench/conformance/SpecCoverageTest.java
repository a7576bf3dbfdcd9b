package dev.fairbench.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.conformance.suite.Clause;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/** The suite and docs/SPEC.md agree: every clause is checked, every check names a real clause. */
class SpecCoverageTest {
  private static final Path SPEC = Path.of("../docs/SPEC.md");
  private static final Pattern ROW = Pattern.compile("^\\|\\s*(\\d+)\\.(\\d+)\\s*\\|.*\\|\\s*([A-Za-z]+)[^|]*\\|\\s*$");

  /** Clause id to severity, sections 1 to 12, in SPEC order. */
  private static Map<String, Severity> spec;
  private static TestPlan plan;

  @BeforeAll
  static void readSpecAndDiscoverSuite() throws IOException {
    spec = new LinkedHashMap<>();
    for (String line : Files.readAllLines(SPEC)) {
      Matcher row = ROW.matcher(line);
      if (row.matches() && Integer.parseInt(row.group(1)) >= 1 && Integer.parseInt(row.group(1)) <= 12) {
        spec.put(row.group(1) + "." + row.group(2), Severity.valueOf(row.group(3)));
      }
    }
    plan = ConformanceSuite.launcher().discover(ConformanceSuite.discoveryRequest(URI.create("http://127.0.0.1:1"), ConformanceSuite.TIME_LIMIT));
  }

  @Test
  void specHasTheClausesThisTestExpectsToParse() {
    assertThat(spec).containsKeys("1.1", "7.10", "12.2").hasSizeGreaterThan(50);
  }

  @Test
  void theClauseListMatchesSpecIdsOrderAndSeverities() {
    Map<String, Severity> listed = new LinkedHashMap<>();
    SpecClause.ALL.forEach(c -> listed.put(c.id(), c.severity()));
    assertThat(listed).containsExactlyEntriesOf(spec);
  }

  @Test
  void everySpecClauseHasAtLeastOneTest() {
    Set<String> tested = new TreeSet<>();
    clauseMethods().forEach(m -> tested.add(m.getAnnotation(Clause.class).value()));
    assertThat(tested).containsAll(spec.keySet());
  }

  @Test
  void everyTestNamesAClauseThatExistsWithItsSeverity() {
    List<Method> methods = suiteMethods();
    assertThat(methods).isNotEmpty();
    for (Method method : methods) {
      Clause clause = method.getAnnotation(Clause.class);
      assertThat(clause).as("%s has a @Clause", method).isNotNull();
      assertThat(spec).as("%s names clause %s", method, clause.value()).containsKey(clause.value());
      assertThat(clause.severity()).as("severity of %s in %s", clause.value(), method).isEqualTo(spec.get(clause.value()));
    }
  }

  @Test
  void classesRunInSpecOrderWithRobustnessLast() {
    List<String> classes = new ArrayList<>();
    for (TestIdentifier engine : plan.getRoots()) {
      for (TestIdentifier child : plan.getChildren(engine)) {
        child.getSource().filter(ClassSource.class::isInstance)
            .ifPresent(s -> classes.add(((ClassSource) s).getJavaClass().getSimpleName()));
      }
    }
    assertThat(classes).containsExactly(
        "PlaintextTest", "JsonTest", "UserTest", "ValidateMediaTypeAndSizeTest", "ValidateBodyTest",
        "ValidateNameTest", "ValidateAgeTest", "ValidateKeysTest", "ErrorsTest", "RoutingTest",
        "HttpBehaviourTest", "RobustnessTest");
  }

  private static List<Method> clauseMethods() {
    return suiteMethods().stream().filter(m -> m.isAnnotationPresent(Clause.class)).toList();
  }

  /** Every test method the runner discovers (a parameterized method once). */
  private static List<Method> suiteMethods() {
    List<Method> methods = new ArrayList<>();
    collect(plan.getRoots(), methods);
    return methods.stream().distinct().toList();
  }

  private static void collect(Set<TestIdentifier> identifiers, List<Method> into) {
    for (TestIdentifier id : identifiers) {
      id.getSource().filter(MethodSource.class::isInstance)
          .ifPresent(s -> into.add(((MethodSource) s).getJavaMethod()));
      collect(plan.getChildren(id), into);
    }
  }
}
