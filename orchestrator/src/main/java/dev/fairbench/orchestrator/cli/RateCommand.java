package dev.fairbench.orchestrator.cli;

import picocli.CommandLine.Command;

/** `fairbench rate` is `fairbench run --mode rate`: the same pipeline, the same results document. */
@Command(
    name = "rate",
    mixinStandardHelpOptions = true,
    header = "Same as `run --mode rate`: a fixed request rate with oha, in shuffled rounds, in the same results and reports.",
    description = {
      "An alias kept for the constant-rate mode of seed 001. Every option of `run` applies; --rate is required "
          + "(1000, or shares of each cell's maximum: 50%%,90%%). oha sends each request at its scheduled time "
          + "whether or not earlier ones were answered and measures latency from that time, so a server that falls "
          + "behind shows its queueing (coordinated omission corrected). Success counts every scheduled request: "
          + "one the client could not send in time is a failure to serve, counted apart (seed 001's status 0)."
    })
public final class RateCommand extends RunCommand {
  @Override
  public Integer call() throws Exception {
    return execute("rate");
  }
}
