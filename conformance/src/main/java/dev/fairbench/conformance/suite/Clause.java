package dev.fairbench.conformance.suite;

import dev.fairbench.conformance.Severity;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The clause of docs/SPEC.md a test checks. A clause's verdict is the worst of its tests. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Clause {
  /** The clause number, e.g. {@code "7.10"}. */
  String value();

  /**
   * The clause's severity as in SPEC.md. Only a WARN clause may end in {@link ImplementationDefined};
   * in a FAIL clause that would be a FAIL.
   */
  Severity severity() default Severity.FAIL;
}
