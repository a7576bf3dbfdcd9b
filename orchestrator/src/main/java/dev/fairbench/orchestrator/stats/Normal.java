package dev.fairbench.orchestrator.stats;

/** The standard normal distribution, for the large-sample approximations. */
final class Normal {
  private Normal() {}

  /**
   * P(Z &gt; z) for a standard normal Z, to about 1e-14 absolute (relative error below 1e-7 even at
   * z = 8, where the tail is 6e-16): Hart's (1968) rational approximation as given by G. West, "Better approximations to cumulative normal functions"
   * (2005), algorithm 5666 for |z| &lt; 7.07 and a continued fraction beyond.
   */
  static double upperTail(double z) {
    if (Double.isNaN(z)) {
      return Double.NaN;
    }
    double x = Math.abs(z);
    double tail;
    if (x > 37) {
      tail = 0;
    } else {
      double exponential = Math.exp(-x * x / 2);
      if (x < 7.07106781186547) {
        double numerator = 3.52624965998911e-02 * x + 0.700383064443688;
        numerator = numerator * x + 6.37396220353165;
        numerator = numerator * x + 33.912866078383;
        numerator = numerator * x + 112.079291497871;
        numerator = numerator * x + 221.213596169931;
        numerator = numerator * x + 220.206867912376;
        double denominator = 8.83883476483184e-02 * x + 1.75566716318264;
        denominator = denominator * x + 16.064177579207;
        denominator = denominator * x + 86.7807322029461;
        denominator = denominator * x + 296.564248779674;
        denominator = denominator * x + 637.333633378831;
        denominator = denominator * x + 793.826512519948;
        denominator = denominator * x + 440.413735824752;
        tail = exponential * numerator / denominator;
      } else {
        double fraction = x + 0.65;
        fraction = x + 4 / fraction;
        fraction = x + 3 / fraction;
        fraction = x + 2 / fraction;
        fraction = x + 1 / fraction;
        tail = exponential / fraction / 2.506628274631;
      }
    }
    return z >= 0 ? tail : 1 - tail;
  }

  /** P(Z &le; z). */
  static double cdf(double z) {
    return upperTail(-z);
  }
}
