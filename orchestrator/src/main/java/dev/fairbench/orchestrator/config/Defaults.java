package dev.fairbench.orchestrator.config;

import java.time.Duration;
import java.util.List;

/**
 * Every default in one place. On a 2-core machine the server gets CPU 1 and the client CPU 0
 * with one worker, and durations are short so a run over all entries takes minutes; from 4
 * cores on, the profile of seed 000 (server 2 CPUs and 2 workers, client 2 threads and 128
 * connections, 10 s runs).
 */
public final class Defaults {
  private Defaults() {}

  public static final long MEMORY_BYTES = 512L * 1024 * 1024;
  public static final List<String> ENDPOINTS = List.of("plaintext", "json", "user", "validate");
  /** Docker when an engine answers, native otherwise. */
  public static final String RUNTIME = "auto";
  /** Socket timeout of wrk; a request slower than this counts as a timeout error. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration STOP_GRACE = Duration.ofSeconds(5);
  /**
   * A visit is repeated (once, later in its round) when steal plus other tasks' time on the server's
   * CPUs reach this share of the run: docs/ORCHESTRATOR.md, "Disturbance".
   */
  public static final double DISTURBANCE_THRESHOLD = 0.05;
  /**
   * A visit is also repeated when a wake-up reading just before its thaw or just after its freeze is below
   * this share of the run's usual rate: the machine was in one of its slow spells. Over 343 one-second wrk
   * runs against nginx, 0.8 marked 90 of the 107 runs more than 9.4% below the median and 19 of the other
   * 235 (docs/ORCHESTRATOR.md, "Slow wake-ups").
   */
  public static final double SLOW_WAKEUPS = 0.8;
  /**
   * A visit whose wake-ups read slow just before its thaw first waits this long at most for them to read
   * usual again, polling twice a second: the machine's slow spells last 10–30 s, and a visit made in one is
   * repeated anyway (docs/ORCHESTRATOR.md, "Waiting out a spell").
   */
  public static final Duration SPELL_WAIT = Duration.ofSeconds(30);
  /**
   * The run's waits for slow spells take at most this share of its time since the first visit, so a short
   * run, or a machine in spells half the time, is not made mostly of waiting.
   */
  public static final double SPELL_WAIT_SHARE = 0.25;
  /** Ladder cells run at this share of the slowest rung's maximum. */
  public static final double LADDER_SHARE = 0.5;
  /**
   * The endpoints with ladder cells unless told otherwise: json, where a framework's routing and
   * serialisation show; all four would add 56 cells to a run over every entry (the time budget in
   * docs/ORCHESTRATOR.md).
   */
  public static final List<String> LADDER_ENDPOINTS = List.of("json");
  /** The calibration server measured in every round. */
  public static final String CALIBRATION = "nginx";
  /**
   * The open-file limit (RLIMIT_NOFILE, soft = hard) every server gets in both runtimes: `ulimit -n`
   * before the start command natively, `--ulimit nofile=N:N` in Docker. 16 times the 512 connections of
   * the suite's clause 11.4, and within the hard limit of common hosts (this VM's is
   * 20000; systemd's default is 524288), so no runtime's own default (often 1024 soft) decides it.
   */
  public static final int OPEN_FILES = 8192;

  /**
   * Extra rounds for the cells whose interval is still wider than ±5% after the rounds (a third of
   * the rounds' visits at most): in the 2026-12-01 reference run's spread, 6 more rounds for the
   * wide cells take the trustworthy share from about half to about three quarters
   * (docs/ORCHESTRATOR.md).
   */
  public static final int EXTRA_ROUNDS = 6;

  /**
   * No extra round is begun, and no disturbed visit repeated, that would take the run past this,
   * preparation included: a default run over every entry (about 18 servers) is to end within half an
   * hour. With a laddered baseline measured on its ladder endpoints only (RunConfig#baselineEndpoints) its
   * rounds end about 25 minutes after it begins (24.5 in the reference of 2026-12-06), leaving the rest for repeats and extra rounds
   * (docs/ORCHESTRATOR.md, "Time budget"); from 2026-12-05 04:00 to 2026-12-06 it was 40 minutes, with
   * every baseline on every endpoint.
   */
  public static final Duration EXTRA_TIME_LIMIT = Duration.ofMinutes(30);

  public static Profile forCores(int cores) {
    if (cores >= 4) {
      return new Profile("2-3", "0-1", 2, 128, 2, Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofMillis(500), 9, EXTRA_ROUNDS);
    }
    if (cores >= 2) {
      return new Profile("1", "0", 1, 64, 1, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofMillis(500), 9, EXTRA_ROUNDS);
    }
    throw new IllegalStateException(
        "fairbench needs at least 2 CPUs so the server and the load client get disjoint CPU sets; this machine has "
            + cores);
  }

  public static Profile forThisMachine() {
    return forCores(Runtime.getRuntime().availableProcessors());
  }

  /** The defaults of one machine size. */
  public record Profile(
      String serverCpus,
      String clientCpus,
      int workers,
      int connections,
      int threads,
      Duration duration,
      Duration warmup,
      Duration rewarm,
      int rounds,
      int extraRounds) {}
}
