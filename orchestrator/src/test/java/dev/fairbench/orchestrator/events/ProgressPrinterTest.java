package dev.fairbench.orchestrator.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fairbench.orchestrator.results.RunRecord;
import org.junit.jupiter.api.Test;

class ProgressPrinterTest {
  private static RunRecord.Disturbance share(double share) {
    return new RunRecord.Disturbance(share, 0, 0, 0, 0, share, share >= 0.05);
  }

  @Test
  void aVisitDisturbedByOtherWorkSaysHowMuchOfTheServersTimeWentElsewhere() {
    assertThat(ProgressPrinter.why(share(0.12))).isEqualTo("12% of the server CPUs' time went elsewhere");
  }

  @Test
  void aVisitDisturbedBySlowWakeupsSaysHowSlowTheLowerReadingWas() {
    RunRecord.Wakeups slow = RunRecord.Wakeups.judged(30_000, 21_000, 30_000, 0.8);
    assertThat(ProgressPrinter.why(share(0).withWakeups(slow))).isEqualTo("wake-ups at 70% of the run's usual rate");
    assertThat(ProgressPrinter.why(share(0.08).withWakeups(slow)))
        .isEqualTo("8% of the server CPUs' time went elsewhere; wake-ups at 70% of the run's usual rate");
    assertThat(ProgressPrinter.why(share(0).withWakeups(RunRecord.Wakeups.judged(-1, 21_000, 30_000, 0.8))))
        .as("a failed reading is not the lower one").isEqualTo("wake-ups at 70% of the run's usual rate");
  }
}
