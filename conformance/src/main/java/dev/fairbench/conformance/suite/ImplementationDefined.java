package dev.fairbench.conformance.suite;

import java.io.Serial;
import org.opentest4j.TestAbortedException;

/**
 * Thrown by a test of an implementation-defined clause when the server made the tolerated, not the
 * preferred, choice: the test's verdict is WARN, and the reason becomes its finding.
 */
public final class ImplementationDefined extends TestAbortedException {
  @Serial
  private static final long serialVersionUID = 1L;

  public ImplementationDefined(String reason) {
    super(reason);
  }
}
