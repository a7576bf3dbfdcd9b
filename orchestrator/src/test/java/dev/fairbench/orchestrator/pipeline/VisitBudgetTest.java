package dev.fairbench.orchestrator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fairbench.orchestrator.config.Limits;
import dev.fairbench.orchestrator.config.RunConfig;
import dev.fairbench.orchestrator.core.CellKind;
import dev.fairbench.orchestrator.core.Endpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VisitBudgetTest {
  /** The reference run's defaults: 9 rounds of 1 s runs after a 500 ms re-warm, a 2 s warm-up, the ladder on json at 50%. */
  private static RunConfig defaults() {
    return new RunConfig(true, CellKind.THROUGHPUT, List.of(Endpoint.values()), Duration.ofSeconds(1),
        Duration.ofSeconds(2), Duration.ofMillis(500), 9, 0, Duration.ZERO, 42, List.of(), 64, 1, Duration.ofSeconds(2),
        new Limits("1", "0", 512L << 20, 1), true, 0.05, 1, true, List.of(), 0.5, List.of(Endpoint.JSON), 5, false);
  }

  /** The reference run's 17 measured entries and baselines, by role and ladder, and nginx. */
  private static List<VisitBudget.Server> referenceServers() {
    List<VisitBudget.Server> servers = new ArrayList<>();
    servers.add(new VisitBudget.Server("bun-serve", true, "", false));
    servers.add(new VisitBudget.Server("bun-elysia", false, "bun-serve", false));
    servers.add(new VisitBudget.Server("go-nethttp", true, "", false));
    servers.add(new VisitBudget.Server("go-gin", false, "go-nethttp", false));
    servers.add(new VisitBudget.Server("node-http", true, "", false));
    servers.add(new VisitBudget.Server("node-express:node", false, "node-http", false));
    servers.add(new VisitBudget.Server("node-express:bun", false, "node-http", false));
    servers.add(new VisitBudget.Server("py-asgi:uvicorn", true, "", false));
    servers.add(new VisitBudget.Server("py-blacksheep:uvicorn", false, "py-asgi:uvicorn", false));
    servers.add(new VisitBudget.Server("py-fastapi", false, "py-asgi:uvicorn", false));
    servers.add(new VisitBudget.Server("py-asgi:granian", true, "", false));
    servers.add(new VisitBudget.Server("py-blacksheep:granian-orjson", false, "py-asgi:granian", false));
    servers.add(new VisitBudget.Server("rust-hyper", true, "", false));
    servers.add(new VisitBudget.Server("rust-rocket", false, "rust-hyper", false));
    servers.add(new VisitBudget.Server("java-reference", false, "", false));
    servers.add(new VisitBudget.Server("py-flask:waitress", false, "", false));
    servers.add(new VisitBudget.Server("nginx", false, "", true));
    return servers;
  }

  @Test
  void theReferenceRunsCellsAndVisitsAreCountedAsThePipelineMadeThem() {
    VisitBudget budget = VisitBudget.of(referenceServers(), 0, true, defaults());

    // results/reference-2026-12-01/results.json: 64 throughput cells of entries and baselines, 3 of nginx, 14 ladder; 9 rounds.
    assertThat(budget.entryCells()).isEqualTo(64);
    assertThat(budget.calibrationCells()).isEqualTo(3);
    assertThat(budget.ladderCells()).isEqualTo(14);
    assertThat(budget.visits()).isEqualTo(729);
    assertThat(budget.describe()).startsWith("81 cells (64 of entries and baselines, 3 of the calibration, 14 ladder)"
        + " × 9 rounds = 729 visits, plus one repeat of each visit found disturbed");
  }

  @Test
  void theTimeMatchesTheReferenceRunsRealDurationWithTheWarmUpRunsCellsMakeNow() {
    // results/reference-2026-12-06-0017/ (2026-12-06 00:17 UTC): 20 selections prepared (17 measured, 2 unavailable, 1
    // conformance-failed) and nginx in 3.75 min, the warm-up in 1.8 min, 9 rounds of 68 cells in 18.9 min:
    // 24.5 min, with one warm-up run of 2 s a cell. Since 2026-12-06 14:00 a cell makes more: the
    // reference of 16:38 made 140 runs over its 53 throughput cells, 1.6 more a cell.
    List<VisitBudget.Server> servers = new ArrayList<>(referenceServers());
    servers.add(new VisitBudget.Server("go-echo", false, "go-nethttp", false));
    VisitBudget budget = VisitBudget.of(servers, 21, true, defaults().withBaselineEndpoints(List.of(Endpoint.JSON)));

    assertThat(budget.cells()).isEqualTo(68);
    int warmedUp = budget.entryCells() + budget.calibrationCells();
    assertThat(budget.totalSeconds() / 60).isCloseTo(24.5 + warmedUp * 1.6 * 2.0 / 60, within(24.5 * 0.05));
    assertThat(budget.roundsSeconds() / 60).isCloseTo(18.9, within(0.6));
  }

  @Test
  void eachFreshProcessCostsEveryServerAStartAndEachEndpointAWarmUpByTheSameRule() {
    List<VisitBudget.Server> servers = referenceServers();
    VisitBudget one = VisitBudget.of(servers, 0, true, defaults());
    VisitBudget three = VisitBudget.of(servers, 0, true, defaults().withForks(3));

    assertThat(one.restartSeconds()).isZero();
    assertThat(one.describe()).doesNotContain("fresh processes");
    // two fresh processes of 17 servers, each warmed up on its 64 + 3 endpoints as the first was
    assertThat(three.restartSeconds()).isCloseTo(2 * (17 * 1.0 + 67 * (2.6 * 2 + 0.3)), within(0.01));
    assertThat(three.totalSeconds() - one.totalSeconds()).isCloseTo(three.restartSeconds(), within(0.01));
    assertThat(three.describe()).contains(String.format(java.util.Locale.ROOT, "warm-up %.1f min, fresh processes %.1f min, "
        + "rounds", one.warmupSeconds() / 60, three.restartSeconds() / 60));
  }

  @Test
  void theBannerSaysTheMostTheExtraRoundsMayAdd() {
    RunConfig d = defaults();
    RunConfig withExtra = new RunConfig(true, d.kind(), d.endpoints(), d.duration(), d.warmup(), d.rewarm(), d.rounds(), 6,
        Duration.ofMinutes(30), d.seed(), d.rates(), d.connections(), d.threads(), d.requestTimeout(), d.limits(), d.calibration(),
        d.disturbanceThreshold(), d.pipeline(), d.keepAlive(), d.acceptFail(), d.ladderShare(), d.ladderEndpoints(),
        d.startups(), d.onlyStartup());

    VisitBudget budget = VisitBudget.of(referenceServers(), 0, true, withExtra);

    assertThat(budget.extraVisits()).isEqualTo(ExtraRounds.visitBudget(9, 81));
    assertThat(budget.describe()).endsWith(String.format(java.util.Locale.ROOT,
        ", and up to %d visits (%.1f min) of extra rounds for the cells still too wide, none begun that would end "
            + "the run past 30 min", budget.extraVisits(),
        budget.extraSeconds() / 60));
    assertThat(VisitBudget.of(referenceServers(), 0, true, d).describe()).doesNotContain("extra");
    RunConfig oneRound = new RunConfig(true, d.kind(), d.endpoints(), d.duration(), d.warmup(), d.rewarm(), 1, 6,
        Duration.ofMinutes(30), d.seed(), d.rates(), d.connections(), d.threads(), d.requestTimeout(), d.limits(),
        d.calibration(), d.disturbanceThreshold(), d.pipeline(), d.keepAlive(), d.acceptFail(), d.ladderShare(),
        d.ladderEndpoints(), d.startups(), d.onlyStartup());
    assertThat(VisitBudget.of(referenceServers(), 0, true, oneRound).describe()).as("one round: no interval to narrow")
        .doesNotContain("extra");
  }

  @Test
  void ladderRunsLastAsLongAsTheOthersUnlessALadderDurationIsGivenAndLongerOnesAddTheirSecondsToEachLadderVisit() {
    assertThat(defaults().runLength(CellKind.LADDER)).isEqualTo(Duration.ofSeconds(1));
    RunConfig longer = defaults().withLadderDuration(Duration.ofSeconds(3));
    assertThat(longer.runLength(CellKind.LADDER)).isEqualTo(Duration.ofSeconds(3));
    assertThat(longer.runLength(CellKind.THROUGHPUT)).isEqualTo(Duration.ofSeconds(1));

    VisitBudget usual = VisitBudget.of(referenceServers(), 0, true, defaults());
    VisitBudget withLonger = VisitBudget.of(referenceServers(), 0, true, longer);
    // 14 ladder cells × 9 rounds × 2 s more.
    assertThat(withLonger.roundsSeconds() - usual.roundsSeconds()).isCloseTo(14 * 9 * 2.0, within(0.01));
  }

  @Test
  void aBaselineWithItsFrameworksInTheRunCountsOnlyItsBaselineEndpointsUnlessThereIsNoLadder() {
    RunConfig narrowed = defaults().withBaselineEndpoints(List.of(Endpoint.JSON));
    // The six baselines of the reference run each with a framework on it: 3 endpoints fewer each.
    assertThat(VisitBudget.of(referenceServers(), 0, true, narrowed).entryCells()).isEqualTo(64 - 6 * 3);
    assertThat(VisitBudget.of(referenceServers(), 0, false, narrowed).entryCells()).as("no oha, no ladder").isEqualTo(64);
    List<VisitBudget.Server> alone = List.of(new VisitBudget.Server("go-nethttp", true, "", false));
    assertThat(VisitBudget.of(alone, 1, true, narrowed).entryCells()).as("no framework on it").isEqualTo(4);
  }

  @Test
  void aBaselineWithoutItsFrameworksInTheRunHasNoLadderCellsAndNoOhaMeansNone() {
    List<VisitBudget.Server> alone = List.of(new VisitBudget.Server("go-nethttp", true, "", false),
        new VisitBudget.Server("java-reference", false, "", false));
    assertThat(VisitBudget.of(alone, 2, true, defaults()).ladderCells()).isZero();

    List<VisitBudget.Server> pair = List.of(new VisitBudget.Server("go-nethttp", true, "", false),
        new VisitBudget.Server("go-gin", false, "go-nethttp", false));
    assertThat(VisitBudget.of(pair, 2, true, defaults()).ladderCells()).isEqualTo(2);
    assertThat(VisitBudget.of(pair, 2, false, defaults()).ladderCells()).as("no oha, no ladder").isZero();
  }
}
