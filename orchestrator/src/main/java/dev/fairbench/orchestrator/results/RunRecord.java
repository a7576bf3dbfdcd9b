package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * One measured visit of one cell: one run in one round.
 *
 * @param round               the round it belongs to, from 1
 * @param visit               1, or 2 for the repeat of a disturbed visit later in the same round
 * @param counted             false for a disturbed visit that was repeated: kept for the record, left out of
 *                            the cell's statistics (its repeat is counted instead, whatever its disturbance)
 * @param bytes               what the load client read: wrk every byte of the answers, oha their bodies
 *                            (0 in rate runs made before it was recorded)
 * @param non2xx              responses with status 400 or more
 * @param latencyMicros       the load client's latency figures; null when it measured none (left out of the
 *                            file then): a pipelined wrk run, whose figures are not a request's latency
 *                            (docs/ORCHESTRATOR.md, "Pipelining and new connections"), or a rate run that got
 *                            no answer
 * @param serverCpuSeconds    CPU the server used during this run
 * @param serverPeakRssBytes  the server's peak resident memory (sum of its processes' VmHWM) after the run
 * @param serverMemoryPeakBytes the peak of its cgroup's memory use (page cache included), -1 when unknown
 * @param clientCpuUtilisation the load client's CPU time over wall time (1.0 = one core)
 * @param disturbance         what else happened on the server's CPUs during the run
 * @param rate                the constant-rate figures; null for a throughput run
 * @param rssSamples          a constant-rate run's server memory ({@code MemoryReading}) once a second from the
 *                            start of the measured run, as [seconds, bytes] pairs; empty for a throughput run
 *                            (left out of the file then)
 */
public record RunRecord(
    int round,
    int visit,
    boolean counted,
    long requests,
    double durationSeconds,
    double requestsPerSecond,
    long bytes,
    long non2xx,
    SocketErrors socketErrors,
    @JsonInclude(JsonInclude.Include.NON_NULL) LatencyRecord latencyMicros,
    double serverCpuSeconds,
    long serverPeakRssBytes,
    long serverMemoryPeakBytes,
    double clientCpuSeconds,
    double clientCpuUtilisation,
    Disturbance disturbance,
    RateRecord rate,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RssSample> rssSamples) {

  public RunRecord {
    rssSamples = rssSamples == null ? List.of() : List.copyOf(rssSamples);
  }

  /** Without memory samples (a throughput run; a rate run gets them with {@link #withRssSamples}). */
  public RunRecord(int round, int visit, boolean counted, long requests, double durationSeconds,
      double requestsPerSecond, long bytes, long non2xx, SocketErrors socketErrors, LatencyRecord latencyMicros,
      double serverCpuSeconds, long serverPeakRssBytes, long serverMemoryPeakBytes, double clientCpuSeconds,
      double clientCpuUtilisation, Disturbance disturbance, RateRecord rate) {
    this(round, visit, counted, requests, durationSeconds, requestsPerSecond, bytes, non2xx, socketErrors, latencyMicros,
        serverCpuSeconds, serverPeakRssBytes, serverMemoryPeakBytes, clientCpuSeconds, clientCpuUtilisation,
        disturbance, rate, List.of());
  }

  /**
   * A disturbed first visit that counts: its repeat would have ended the run past its time limit
   * (`--time-limit`), so it was not made.
   */
  public boolean countedThoughDisturbed() {
    return counted && visit == 1 && disturbance != null && disturbance.disturbed();
  }

  public RunRecord withDisturbance(Disturbance newDisturbance) {
    return new RunRecord(round, visit, counted, requests, durationSeconds, requestsPerSecond, bytes, non2xx,
        socketErrors, latencyMicros, serverCpuSeconds, serverPeakRssBytes, serverMemoryPeakBytes, clientCpuSeconds,
        clientCpuUtilisation, newDisturbance, rate, rssSamples);
  }

  public RunRecord withRssSamples(List<RssSample> samples) {
    return new RunRecord(round, visit, counted, requests, durationSeconds, requestsPerSecond, bytes, non2xx,
        socketErrors, latencyMicros, serverCpuSeconds, serverPeakRssBytes, serverMemoryPeakBytes, clientCpuSeconds,
        clientCpuUtilisation, disturbance, rate, samples);
  }

  /** One reading of the server's memory: written as a pair, [seconds, bytes], to keep long runs' files small. */
  @JsonFormat(shape = JsonFormat.Shape.ARRAY)
  @JsonPropertyOrder({"seconds", "bytes"})
  public record RssSample(double seconds, long bytes) {}

  public record SocketErrors(long connect, long read, long write, long timeout) {
    public long total() {
      return connect + read + write + timeout;
    }
  }

  public record LatencyRecord(long p50, long p90, long p99, long p999, long max, double mean) {}

  /**
   * Evidence that something other than the server and its load took the server's CPUs.
   *
   * @param stealSeconds        steal time on the server's CPUs (/proc/stat): the hypervisor ran someone else
   * @param otherTasksSeconds   busy time of the server's CPUs not spent by the server's own processes
   * @param pressureSeconds     growth of /proc/pressure/cpu "some" total: time some task waited for a CPU
   * @param involuntarySwitches the server's involuntary context switches during the run
   * @param majorFaults         the server's major page faults during the run
   * @param share               (steal + other tasks) over the run's wall time × the server's CPUs
   * @param disturbed           share at or above the threshold of the run (results' method block), or slow
   *                            {@code wakeups}
   * @param speed               the machine's speed measured just before the thaw and just after the freeze;
   *                            null where it was not measured (a remote engine, or no probe on this machine)
   * @param client              what else ran on the load client's CPUs; null where the load client is not on
   *                            this machine, or in runs made before 2026-12-05
   * @param wakeups             how fast one CPU woke a task on the other around the run; null where it was not
   *                            measured (the load client elsewhere), or in runs made before 2026-12-05
   */
  public record Disturbance(
      double stealSeconds,
      double otherTasksSeconds,
      double pressureSeconds,
      long involuntarySwitches,
      long majorFaults,
      double share,
      boolean disturbed,
      @JsonInclude(JsonInclude.Include.NON_NULL) Speed speed,
      @JsonInclude(JsonInclude.Include.NON_NULL) ClientSide client,
      @JsonInclude(JsonInclude.Include.NON_NULL) Wakeups wakeups) {
    public static final Disturbance NONE = new Disturbance(0, 0, 0, 0, 0, 0, false);

    /** Without a speed reading, the client's side or wake-ups. */
    public Disturbance(double stealSeconds, double otherTasksSeconds, double pressureSeconds, long involuntarySwitches,
        long majorFaults, double share, boolean disturbed) {
      this(stealSeconds, otherTasksSeconds, pressureSeconds, involuntarySwitches, majorFaults, share, disturbed, null, null,
          null);
    }

    public Disturbance withSpeed(Speed newSpeed) {
      return new Disturbance(stealSeconds, otherTasksSeconds, pressureSeconds, involuntarySwitches, majorFaults, share,
          disturbed, newSpeed, client, wakeups);
    }

    public Disturbance withClient(ClientSide newClient) {
      return new Disturbance(stealSeconds, otherTasksSeconds, pressureSeconds, involuntarySwitches, majorFaults, share,
          disturbed, speed, newClient, wakeups);
    }

    /** With the wake-up readings; slow wake-ups disturb the run as other work on its CPUs does. */
    public Disturbance withWakeups(Wakeups newWakeups) {
      return new Disturbance(stealSeconds, otherTasksSeconds, pressureSeconds, involuntarySwitches, majorFaults, share,
          disturbed || newWakeups.slow(), speed, client, newWakeups);
    }
  }

  /**
   * Cross-CPU wake-ups per second, read just before the visit's thaw and just after its freeze (every
   * server frozen): round trips of one byte between the orchestrator on the load client's CPUs and an
   * echo process on the server's, through pipes. On this kind of VM the machine slows for tens of seconds
   * at a time in a way neither steal nor the hashing probe shows: these round trips and wrk's requests
   * slow together (docs/ORCHESTRATOR.md, "Slow wake-ups").
   *
   * @param before the reading before the thaw; -1 where it failed
   * @param after  the reading after the freeze; -1 where it failed
   * @param usual  the median of the run's readings up to this one, the rate a reading is judged against
   * @param slow   a reading below the run's wake-up threshold × usual: the visit is disturbed
   * @param waitedSeconds how long the visit waited before its thaw for slow wake-ups to pass (0: they read
   *               usual at once); null in runs made before 2026-12-05 07:00 UTC, which did not wait
   */
  public record Wakeups(double before, double after, double usual, boolean slow,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double waitedSeconds) {
    /** Without a wait. */
    public Wakeups(double before, double after, double usual, boolean slow) {
      this(before, after, usual, slow, null);
    }

    /**
     * @param threshold a reading below this share of the usual rate is slow (results' method block)
     */
    public static Wakeups judged(double before, double after, double usual, double threshold) {
      double lowest = lowest(before, after);
      return new Wakeups(before, after, usual, usual > 0 && lowest >= 0 && lowest < threshold * usual);
    }

    public Wakeups afterWaiting(double seconds) {
      return new Wakeups(before, after, usual, slow, seconds);
    }

    /** Whether the visit waited for a slow spell to pass before its thaw. */
    public boolean waited() {
      return waitedSeconds != null && waitedSeconds > 0;
    }

    /** The lower of the two readings that did not fail; -1 when both failed. */
    public double lowest() {
      return lowest(before, after);
    }

    private static double lowest(double before, double after) {
      return before < 0 ? after : after < 0 ? before : Math.min(before, after);
    }
  }

  /**
   * The load client's CPUs during the run: evidence only, never a reason to repeat a visit. The
   * orchestrator runs there too (it keeps off the server's CPUs), so its own time is given apart.
   *
   * <p>Not recorded: the time other tasks took there. The load client's own CPU time (its rusage) and the
   * CPUs' busy time in /proc/stat count differently (a tick in a softirq it raised is its system time, yet
   * /proc/stat's softirq time; with or without those columns the difference was often below the
   * orchestrator's own time), so their difference would not mean what its name says.
   *
   * @param stealSeconds           steal time on the client's CPUs (/proc/stat)
   * @param orchestratorCpuSeconds the orchestrator's own CPU time during the run, all of its threads, in
   *                               clock ticks (10 ms)
   */
  public record ClientSide(double stealSeconds, double orchestratorCpuSeconds) {}

  /**
   * How fast the machine ran a fixed amount of user-space work (the CPU probe's hashing, a short one) on
   * the server's CPUs and on the client's, in MB/s, while every server was frozen: once just before the
   * visit's thaw and once just after its freeze. Steal time does not show a virtual CPU that runs slower
   * because its physical core's other thread is busy, or at a lower clock; this does. -1 where one
   * reading failed.
   *
   * <p>At the same moments, the latency of memory beyond the caches on the client's CPUs, in nanoseconds
   * per dependent load (the orchestrator's chase through 64 MiB): a neighbour's use of the memory system
   * lengthens it without slowing the hashing. Null in runs made before 2026-12-07 10:12 UTC and where the
   * load client is not on this machine; -1 where one reading failed.
   */
  public record Speed(double serverBefore, double serverAfter, double clientBefore, double clientAfter,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double memoryBefore,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double memoryAfter) {
    /** Without the memory's latency. */
    public Speed(double serverBefore, double serverAfter, double clientBefore, double clientAfter) {
      this(serverBefore, serverAfter, clientBefore, clientAfter, null, null);
    }

    /** Whether the memory's latency was read around this visit. */
    public boolean readsMemory() {
      return memoryBefore != null && memoryAfter != null;
    }
  }

  /**
   * A constant-rate run as seed 001 tables it. Every scheduled request counts: one the client
   * could not send in time is a failure to serve (seed 001's "status code 0"), counted apart.
   *
   * @param targetRate     requests per second asked for
   * @param scheduled      target rate × duration
   * @param sent           requests the client started (answered or failed)
   * @param ok             200 responses
   * @param statuses       responses by status code
   * @param clientErrors   requests without a response, by the client's error text (refused, timeout, ...)
   * @param unsent         scheduled requests the client never started: it fell behind its schedule, or they
   *                       were due in the run's last moments ({@link #cutAtDeadline()})
   * @param clientLimited  the client's own limits (connections all busy, its CPU) explain the unsent ones
   * @param successRate    ok over scheduled less the deadline's cut
   * @param achievedRate   responses per second
   */
  public record RateRecord(
      double targetRate,
      long scheduled,
      long sent,
      long ok,
      Map<String, Long> statuses,
      Map<String, Long> clientErrors,
      long unsent,
      boolean clientLimited,
      double successRate,
      double achievedRate) {
    /** How much of the end of a run's schedule is the client's, not the server's: {@link #cutAtDeadline()}. */
    public static final double DEADLINE_ALLOWANCE_SECONDS = 0.010;

    public RateRecord {
      statuses = Map.copyOf(statuses);
      clientErrors = Map.copyOf(clientErrors);
    }

    /**
     * The unsent requests that were due in the run's last {@link #DEADLINE_ALLOWANCE_SECONDS}: oha stops
     * making slots at its deadline and its timer (tokio's, 1 ms resolution) wakes late on a busy client,
     * so a server that keeps up still loses the slots due in the last milliseconds — 0 to 5 ms of them in
     * 442 rate runs of healthy servers on this machine, where a saturated server left 150 ms and more.
     * They are the client's end of the run, not a failure to serve: success leaves them out, every other
     * unsent request counts against the server.
     */
    public long cutAtDeadline() {
      return cutAtDeadline(unsent, targetRate);
    }

    /** {@link #cutAtDeadline()} of a run with these unsent requests at this rate. */
    public static long cutAtDeadline(long unsent, double targetRate) {
      return Math.min(unsent, Math.round(targetRate * DEADLINE_ALLOWANCE_SECONDS));
    }
  }
}
