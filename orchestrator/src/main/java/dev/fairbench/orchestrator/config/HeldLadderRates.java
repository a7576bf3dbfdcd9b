package dev.fairbench.orchestrator.config;

import dev.fairbench.orchestrator.core.Endpoint;
import java.util.Map;
import java.util.Optional;

/**
 * The rates an earlier run's ladders ran at, for a run that is to be compared with it: a request's CPU cost
 * depends on its rate, and a ladder's own rate follows its slowest rung's maximum, so a change that slows
 * the slowest rung would otherwise lower the rate of its whole ladder, and compare could not set its
 * ladder cells side by side. A held rate is used only where every rung of this run can hold it with room
 * ({@link #HOLDABLE_SHARE} of the slowest maximum); elsewhere the ladder takes its own rate, and says so.
 *
 * @param from  which run the rates come from, as the reports name it
 * @param rates req/s by ladder, keyed by {@link #key}
 */
public record HeldLadderRates(String from, Map<String, Double> rates) {
  /**
   * A held rate above this share of the slowest rung's maximum in this run is not used: the rule's own rate is
   * 30–50% of it, and near saturation a server batches, so its CPU per request is another measure.
   */
  public static final double HOLDABLE_SHARE = 0.7;

  public HeldLadderRates {
    rates = Map.copyOf(rates);
    rates.forEach((ladder, rate) -> {
      if (!(rate >= 1 && Double.isFinite(rate))) {
        throw new IllegalArgumentException("the held rate of the ladder " + ladder + " is not a rate: " + rate);
      }
    });
  }

  /** "py-asgi:uvicorn json": a ladder is its baseline and its endpoint. */
  public static String key(String baseline, Endpoint endpoint) {
    return baseline + " " + endpoint.wireName();
  }

  /** The rate to hold for this ladder, if there is one and {@code slowestMaximum} leaves room for it. */
  public Optional<Double> holdable(String baseline, Endpoint endpoint, double slowestMaximum) {
    Double rate = rates.get(key(baseline, endpoint));
    return rate != null && rate <= HOLDABLE_SHARE * slowestMaximum ? Optional.of(rate) : Optional.empty();
  }

  /** The rate held for this ladder, if the earlier run had it. */
  public Optional<Double> rate(String baseline, Endpoint endpoint) {
    return Optional.ofNullable(rates.get(key(baseline, endpoint)));
  }
}
