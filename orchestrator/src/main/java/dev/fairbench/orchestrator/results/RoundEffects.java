package dev.fairbench.orchestrator.results;

import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.stats.RoundBlocks;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Each round's multiplicative effect on req/s and on CPU-µs/request: Tukey's median polish of the
 * cells × rounds table of logs over every throughput cell's counted runs, the calibration server's
 * included ({@link RoundBlocks}). The rounds are blocks: every cell is visited once per round, so a
 * round the whole machine was slow in shows in every cell at once; dividing a run by its round's
 * factor takes that out. {@link #NONE} (every factor 1) with fewer than 2 rounds or 3 cells.
 *
 * @param rpsLog per round (index round − 1), its effect on log req/s (0 = a typical round)
 * @param cpuLog likewise on log CPU-µs/request
 * @param gauge  the load client's gauge of a constant-rate run ({@link ClientGauge}); {@link ClientGauge#NONE} in
 *               runs made without it
 */
public record RoundEffects(double[] rpsLog, double[] cpuLog, ClientGauge gauge) {
  public static final RoundEffects NONE = new RoundEffects(new double[0], new double[0]);

  public RoundEffects(double[] rpsLog, double[] cpuLog) {
    this(rpsLog, cpuLog, ClientGauge.NONE);
  }

  /**
   * A run's CPU-µs/request as the method counts it: a constant-rate cell's divided by its own client's gauge
   * when the run has one (which sees the round's slowness too, and the seconds of the visit itself), every
   * other by its round's effect.
   */
  public double cpuPerRequest(CellResult cell, RunRecord run) {
    if (gauge.active() && cell.kind().constantRate()) {
      return gauge.cpuPerRequest(cell, run);
    }
    return Statistics.cpuMicrosPerRequest(run.serverCpuSeconds(), run.requests()) / cpu(run.round());
  }

  /** The factor req/s of a run in {@code round} is divided by (1 for an unknown round). */
  public double rps(int round) {
    return factor(rpsLog, round);
  }

  /** The factor CPU-µs/request of a run in {@code round} is divided by. */
  public double cpu(int round) {
    return factor(cpuLog, round);
  }

  private static double factor(double[] effects, int round) {
    return round >= 1 && round <= effects.length && Double.isFinite(effects[round - 1]) ? Math.exp(effects[round - 1]) : 1;
  }

  public static RoundEffects of(ResultsDocument document) {
    int maxRound = document.entries().stream().flatMap(e -> e.cells().stream()).flatMap(c -> c.countedRuns().stream())
        .mapToInt(RunRecord::round).max().orElse(0);
    ClientGauge gauge = ClientGauge.of(document);
    if (maxRound < 2) {
      return new RoundEffects(new double[0], new double[0], gauge);
    }
    List<double[]> rps = new ArrayList<>();
    List<double[]> cpu = new ArrayList<>();
    for (EntryResult entry : document.entries()) {
      for (CellResult cell : entry.cells()) {
        if (cell.kind() != CellKind.THROUGHPUT) {
          continue;
        }
        double[] r = new double[maxRound];
        double[] c = new double[maxRound];
        Arrays.fill(r, Double.NaN);
        Arrays.fill(c, Double.NaN);
        for (RunRecord run : cell.countedRuns()) {
          if (run.round() >= 1 && run.round() <= maxRound && run.requestsPerSecond() > 0) {
            r[run.round() - 1] = Math.log(run.requestsPerSecond());
            double perRequest = Statistics.cpuMicrosPerRequest(run.serverCpuSeconds(), run.requests());
            if (perRequest > 0 && Double.isFinite(perRequest)) {
              c[run.round() - 1] = Math.log(perRequest);
            }
          }
        }
        rps.add(r);
        cpu.add(c);
      }
    }
    if (rps.size() < 3) {
      return new RoundEffects(new double[0], new double[0], gauge);
    }
    return new RoundEffects(RoundBlocks.medianPolish(rps.toArray(new double[0][])).roundEffects(),
        RoundBlocks.medianPolish(cpu.toArray(new double[0][])).roundEffects(), gauge);
  }
}
