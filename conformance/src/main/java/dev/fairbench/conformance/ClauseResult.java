package dev.fairbench.conformance;

import java.util.List;

/**
 * The verdict of one clause of docs/SPEC.md.
 *
 * @param id       the clause number, e.g. "7.10"
 * @param title    the clause in words, as in SPEC.md
 * @param severity how the clause is judged
 * @param verdict  PASS, WARN or FAIL
 * @param findings one line per check that did not PASS: what was sent, what was expected, what came back
 */
public record ClauseResult(String id, String title, Severity severity, Verdict verdict, List<String> findings) {
  public ClauseResult {
    findings = List.copyOf(findings);
  }
}
