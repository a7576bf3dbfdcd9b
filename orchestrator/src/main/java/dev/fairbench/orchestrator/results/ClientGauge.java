package dev.fairbench.orchestrator.results;

import dev.fairbench.orchestrator.core.CpuGauge;
import dev.fairbench.orchestrator.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * The load client's own CPU time as the gauge of a constant-rate run. At a fixed rate oha does the same
 * work in every run of a cell, so when its CPU time per request rises, the machine ran slower during that
 * very run — and the server's CPU-µs/request rises with it (in the runs of 2026-12-01 to 2026-12-05 a
 * ladder run's server CPU per request followed its client's with slopes of 0.5–1.0, pooled over a run's
 * cells). A round's effect, estimated from other cells' visits minutes apart, cannot see a slow spell of
 * a few seconds; the client inside the visit does.
 *
 * <p>The slope is a control variate's: over every constant-rate cell with {@link #FEWEST_RUNS} runs or more,
 * each run's log server and log client CPU per request taken from their cell's medians, the least-squares
 * slope through the origin, kept within [0, 1] (the server's CPU time stretching more than the client's
 * own would be the server's doing, not the machine's). A run is then divided by (its client's CPU per
 * request ÷ the cell's median) to that power: a run at its cell's usual client speed is left as it is,
 * so each cell keeps its own level, and only how far a run's machine was from the cell's usual is taken
 * out. With fewer than {@link #FEWEST_CELLS} such cells the slope is 0.
 *
 * @param slope the share of the client's change (on the log scale) taken out of the server's; 0 for none
 * @param cells the constant-rate cells the slope was estimated from
 * @param runs  their runs
 */
public record ClientGauge(double slope, int cells, int runs) {
  public static final ClientGauge NONE = new ClientGauge(0, 0, 0);
  static final int FEWEST_RUNS = 6;
  static final int FEWEST_CELLS = 3;

  /** The gauge of a run whose method reads constant-rate cells against the client ({@link CpuGauge#CLIENT}). */
  public static ClientGauge of(ResultsDocument document) {
    if (document.method() == null || document.method().cpuGauge() != CpuGauge.CLIENT) {
      return NONE;
    }
    double xy = 0;
    double xx = 0;
    int cells = 0;
    int runs = 0;
    for (EntryResult entry : document.entries()) {
      for (CellResult cell : entry.cells()) {
        if (!cell.kind().constantRate()) {
          continue;
        }
        List<Double> client = new ArrayList<>();
        List<Double> server = new ArrayList<>();
        for (RunRecord run : cell.countedRuns()) {
          double c = clientLog(run);
          double s = run.requests() > 0 && run.serverCpuSeconds() > 0
              ? Math.log(run.serverCpuSeconds() / run.requests()) : Double.NaN;
          if (Double.isFinite(c) && Double.isFinite(s)) {
            client.add(c);
            server.add(s);
          }
        }
        if (client.size() < FEWEST_RUNS) {
          continue;
        }
        double clientMedian = Statistics.median(client);
        double serverMedian = Statistics.median(server);
        for (int i = 0; i < client.size(); i++) {
          double x = client.get(i) - clientMedian;
          xy += x * (server.get(i) - serverMedian);
          xx += x * x;
        }
        cells++;
        runs += client.size();
      }
    }
    if (cells < FEWEST_CELLS || !(xx > 0)) {
      return new ClientGauge(0, cells, runs);
    }
    return new ClientGauge(Math.max(0, Math.min(1, xy / xx)), cells, runs);
  }

  /** Whether this gauge changes any run: a slope above 0. */
  public boolean active() {
    return slope > 0;
  }

  /**
   * The factor a run's CPU-µs/request is divided by: (the run's client CPU per request ÷ its median over
   * the cell's counted runs) ^ slope; 1 for a throughput cell, a run without client CPU time, or no gauge.
   */
  public double factor(CellResult cell, RunRecord run) {
    if (!active() || !cell.kind().constantRate()) {
      return 1;
    }
    double x = clientLog(run);
    List<Double> all = cell.countedRuns().stream().map(ClientGauge::clientLog).filter(Double::isFinite).toList();
    if (!Double.isFinite(x) || all.isEmpty()) {
      return 1;
    }
    return Math.exp(slope * (x - Statistics.median(all)));
  }

  /** The run's CPU-µs/request divided by {@link #factor}: the raw figure itself without a gauge or in a throughput cell. */
  public double cpuPerRequest(CellResult cell, RunRecord run) {
    return Statistics.cpuMicrosPerRequest(run.serverCpuSeconds(), run.requests()) / factor(cell, run);
  }

  private static double clientLog(RunRecord run) {
    return run.requests() > 0 && run.clientCpuSeconds() > 0 ? Math.log(run.clientCpuSeconds() / run.requests())
        : Double.NaN;
  }
}
