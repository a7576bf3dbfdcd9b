package dev.fairbench.orchestrator.results;

import dev.fairbench.conformance.Verdict;

import java.util.List;

/**
 * The suite's verdict for one entry.
 *
 * @param verdict     PASS, WARN or FAIL (the worst clause)
 * @param failed      ids of FAILed clauses, each with its first finding
 * @param warned      ids of WARNed clauses, each with its first finding
 * @param report      the suite's full JSON report, relative to the results file
 */
public record ConformanceSummary(
    Verdict verdict, int pass, int warn, int fail, List<String> failed, List<String> warned, String report) {}
