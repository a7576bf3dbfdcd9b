package dev.fairbench.orchestrator.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Info;
import dev.fairbench.orchestrator.load.LoadClient;
import dev.fairbench.orchestrator.load.LoadException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load client as a long-lived container on a client host's Docker engine (`--client-host`,
 * docs/TWO-HOSTS.md): the load-client image (wrk, oha, perl; made by docker/make-base-images),
 * on that engine's host network, with the client CPU set as its cpuset. Each load run is a
 * {@code docker exec} into it; the files the tools read (the wrk script, request bodies) are
 * copied in once.
 *
 * <p>The client's CPU time of a run comes from the container's own cgroup, read inside the
 * container just before and just after the tool ran (cgroup v2 cpu.stat usage_usec, v1
 * cpuacct.usage), by the small shell wrapper that starts the tool; when the container shows no
 * cgroup file, from the wrapper shell's reaped children (/proc/$$/stat cutime + cstime). Wall time
 * is timed there too, so the utilisation is the client host's own figure.
 *
 * <p>The container carries the owner label, so the watchdog (its engine URL is noted) and the
 * next run's sweep remove it when the orchestrator dies, as for server containers.
 */
public final class ClientContainer implements LoadClient {
  /** The load client's image on the client host's engine. */
  public static final String IMAGE = System.getProperty("fairbench.client.image",
      Optional.ofNullable(System.getenv("FAIRBENCH_CLIENT_IMAGE")).orElse("fairbench/load-client:1"));
  /** Where staged files go in the container. */
  static final String FILES = "/fairbench";
  static final String RESULT_MARKER = "FAIRBENCH-CLIENT ";
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  /**
   * Runs "$@" in the background (so a run that outlives its limit can be killed by its pid file),
   * and reports on stderr's last line its exit code, the container's cgroup CPU nanoseconds before
   * and after, the start and end in nanoseconds, and the shell's reaped children's ticks.
   */
  static final String WRAPPER = String.join("\n",
      "cpu() {",
      "  if [ -r /sys/fs/cgroup/cpu.stat ]; then",
      "    while read -r key value; do [ \"$key\" = usage_usec ] && { echo \"${value}000\"; return; }; done < /sys/fs/cgroup/cpu.stat",
      "  fi",
      "  for f in /sys/fs/cgroup/cpuacct/cpuacct.usage /sys/fs/cgroup/cpu,cpuacct/cpuacct.usage /sys/fs/cgroup/cpuacct,cpu/cpuacct.usage; do",
      "    [ -r \"$f\" ] && { read -r value < \"$f\"; echo \"$value\"; return; }",
      "  done",
      "  echo -1",
      "}",
      "pidfile=$1; shift",
      "before=$(cpu); start=$(date +%s%N)",
      "\"$@\" & child=$!",
      "echo \"$child\" > \"$pidfile\"",
      "wait \"$child\"; rc=$?",
      "end=$(date +%s%N); after=$(cpu)",
      "rm -f \"$pidfile\"",
      "read -r stat < /proc/$$/stat; rest=${stat##*) }; set -f; set -- $rest",
      "shift 13; ticks=$(( $1 + $2 ))",
      "echo \"" + RESULT_MARKER + "rc=$rc cpu-before=$before cpu-after=$after start=$start end=$end children-ticks=$ticks"
          + " clk-tck=$(getconf CLK_TCK)\" >&2",
      "exit $rc",
      "");

  /**
   * The client side of the path measurement (docs/TWO-HOSTS.md): one-byte exchanges on one
   * TCP_NODELAY connection to the probe server, then one stream from it; prints "rtt NS NS ..."
   * and "stream BYTES".
   */
  static final String PATH_CLIENT = String.join("\n",
      "use strict; use IO::Socket::INET; use Socket qw(IPPROTO_TCP TCP_NODELAY SOL_SOCKET SO_RCVBUF);",
      "use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);",
      "my ($addr, $port, $warm, $n, $warmup, $timed) = @ARGV; my $b;",
      "sub conn { my $s = IO::Socket::INET->new(PeerAddr => $addr, PeerPort => $port, Proto => 'tcp', Timeout => 5)",
      "  or die \"cannot connect to $addr:$port: $!\\n\"; setsockopt($s, IPPROTO_TCP, TCP_NODELAY, 1); $s }",
      "my $s = conn(); syswrite($s, 'P'); (sysread($s, $b, 1) == 1 && $b eq 'P') or die \"the probe server did not echo\\n\";",
      "my @t;",
      "for my $i (1 .. $warm + $n) {",
      "  my $t0 = clock_gettime(CLOCK_MONOTONIC); syswrite($s, 'x');",
      "  sysread($s, $b, 1) == 1 or die \"the probe server closed the connection\\n\";",
      "  my $d = clock_gettime(CLOCK_MONOTONIC) - $t0; push @t, int($d * 1e9) if $i > $warm;",
      "}",
      "close $s; print \"rtt @t\\n\";",
      "$s = conn(); setsockopt($s, SOL_SOCKET, SO_RCVBUF, 4 << 20); syswrite($s, 'B');",
      "my $end = clock_gettime(CLOCK_MONOTONIC) + $warmup;",
      "while (clock_gettime(CLOCK_MONOTONIC) < $end) { sysread($s, $b, 1 << 20) or die \"the probe server closed the stream\\n\" }",
      "my $bytes = 0; $end = clock_gettime(CLOCK_MONOTONIC) + $timed;",
      "while (clock_gettime(CLOCK_MONOTONIC) < $end) { my $r = sysread($s, $b, 1 << 20); $r or die \"the probe server closed the stream\\n\"; $bytes += $r }",
      "close $s; print \"stream $bytes\\n\";",
      "");

  private final DockerEngine engine;
  private final DockerClient client;
  private final String id;
  private final String name;
  private final String image;
  private final String cpus;
  private final Map<String, String> staged = new HashMap<>();
  private boolean closed;

  private ClientContainer(DockerEngine engine, DockerClient client, String id, String name, String image, String cpus) {
    this.engine = engine;
    this.client = client;
    this.id = id;
    this.name = name;
    this.image = image;
    this.cpus = cpus;
  }

  /** How to make the image on the engine at {@code url}, for messages. */
  static String howToMakeImage(DockerEngine engine) {
    return "make it there with: " + (engine.onThisMachine() && engine.url().equals("unix:///var/run/docker.sock") ? ""
        : "DOCKER_HOST=" + engine.url() + " ") + "docker/make-base-images --only load-client (docs/TWO-HOSTS.md)";
  }

  /**
   * Starts the client container on {@code engine} with the client CPU set.
   *
   * @throws LoadException when the engine does not answer, the image is missing (saying how to make
   *                       it) or the container cannot start
   */
  public static ClientContainer start(DockerEngine engine, String cpus) throws LoadException {
    return start(engine, IMAGE, cpus);
  }

  /** The same with another image (a test's). */
  static ClientContainer start(DockerEngine engine, String image, String cpus) throws LoadException {
    if (!engine.answers()) {
      throw new LoadException("the client host's engine " + engine.url() + " does not answer (is dockerd running there, "
          + "and is the URL right?)");
    }
    DockerClient client = engine.client();
    try {
      client.inspectImageCmd(image).exec();
    } catch (NotFoundException e) {
      throw new LoadException("the load client image " + image + " is not on the client host's engine " + engine.url()
          + "; " + howToMakeImage(engine));
    } catch (RuntimeException e) {
      throw new LoadException("the client host's engine " + engine.url() + " does not answer: " + DockerRuntime.rootMessage(e));
    }
    try {
      // Load client containers that runs of this machine left there when they were killed.
      Leftovers.announce(DockerRuntime.removeContainersOfDeadRuns(client, false, Map.of(DockerRuntime.LABEL, "true",
          LABEL_ROLE, "load-client", DockerRuntime.LABEL_ORCHESTRATOR_HOST, DockerRuntime.orchestratorHost()))
          .stream().filter(l -> l.startsWith("removed ")).toList());
    } catch (RuntimeException e) {
      System.err.println("fairbench: could not remove the load client containers of killed runs: "
          + DockerRuntime.rootMessage(e));
    }
    String name = "fairbench-client-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    Watchdog.watchDocker(engine.url());
    String id;
    try {
      id = client.createContainerCmd(image)
          .withName(name)
          .withCmd("sleep", "infinity")
          .withLabels(Map.of(DockerRuntime.LABEL, "true", Watchdog.LABEL_OWNER, Watchdog.owner(),
              DockerRuntime.LABEL_ORCHESTRATOR_HOST, DockerRuntime.orchestratorHost(), LABEL_ROLE, "load-client"))
          .withHostConfig(new HostConfig().withNetworkMode("host").withCpusetCpus(cpus))
          .exec().getId();
    } catch (DockerException e) {
      throw new LoadException("the load client container (" + image + ") could not be created on " + engine.url() + ": "
          + DockerRuntime.rootMessage(e));
    }
    Watchdog.watchContainer(id);
    ClientContainer container = new ClientContainer(engine, client, id, name, image, cpus);
    ServerRegistry.track(container);
    try {
      client.startContainerCmd(id).exec();
    } catch (DockerException e) {
      container.close();
      throw new LoadException("the load client container (" + image + ") could not start on " + engine.url() + ": "
          + DockerRuntime.rootMessage(e));
    }
    return container;
  }

  /** The label that tells a load client container from a server's. */
  public static final String LABEL_ROLE = "dev.fairbench.role";

  public DockerEngine engine() {
    return engine;
  }

  @Override
  public String cpus() {
    return cpus;
  }

  @Override
  public String describe() {
    return "the load client container " + name + " (" + image + ") on " + engine.url();
  }

  @Override
  public boolean has(String tool) {
    try {
      return exec(List.of("sh", "-c", "command -v \"$1\" > /dev/null", "sh", tool), Duration.ofSeconds(30)).exitCode() == 0;
    } catch (LoadException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public Optional<String> output(List<String> command) {
    try {
      Execution run = exec(command, Duration.ofSeconds(30));
      return run.exitCode() == 0 ? Optional.of(run.stdout() + run.stderr()) : Optional.empty();
    } catch (LoadException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public synchronized String stage(String fileName, byte[] content) throws LoadException {
    if (fileName.contains("/")) {
      throw new IllegalArgumentException("a staged file has a plain name, got " + fileName);
    }
    String key = fileName + "#" + java.util.Arrays.hashCode(content);
    String known = staged.get(key);
    if (known != null) {
      return known;
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("fairbench-stage");
      Path file = dir.resolve(fileName);
      Files.write(file, content);
      // docker-java tars the file itself; it lands as FILES/fileName
      client.copyArchiveToContainerCmd(id).withHostResource(file.toString()).withRemotePath(FILES).exec();
      String path = FILES + "/" + fileName;
      staged.put(key, path);
      return path;
    } catch (IOException | RuntimeException e) {
      throw new LoadException("cannot copy " + fileName + " into " + describe() + ": " + DockerRuntime.rootMessage(e));
    } finally {
      if (dir != null) {
        try (var files = Files.list(dir)) {
          for (Path p : files.toList()) {
            Files.deleteIfExists(p);
          }
          Files.deleteIfExists(dir);
        } catch (IOException e) {
          // a temp folder; harmless
        }
      }
    }
  }

  @Override
  public Execution run(String tool, List<String> command, Duration limit) throws LoadException, InterruptedException {
    String pidFile = "/tmp/fairbench-load-" + SEQUENCE.incrementAndGet() + ".pid";
    List<String> argv = new ArrayList<>(List.of("sh", "-c", WRAPPER, "fairbench-load", pidFile));
    argv.addAll(command);
    Execution raw;
    try {
      raw = exec(argv, limit);
    } catch (TimedOut e) {
      try {
        exec(List.of("sh", "-c", "[ -f \"$1\" ] && kill -KILL $(cat \"$1\")", "sh", pidFile), Duration.ofSeconds(10));
      } catch (LoadException ignored) {
        // the container is removed at the end anyway
      }
      throw new LoadException(tool + " did not finish within " + limit.toSeconds() + " s in " + describe());
    }
    return measured(tool, raw);
  }

  /** The tool's own output and exit code, with the CPU and wall time the wrapper's last stderr line reports. */
  static Execution measured(String tool, Execution raw) throws LoadException {
    List<String> lines = new ArrayList<>(raw.stderr().lines().toList());
    int at = -1;
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith(RESULT_MARKER)) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      throw new LoadException("the load client's wrapper reported nothing for " + tool + " (exit " + raw.exitCode() + "): "
          + String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())));
    }
    Map<String, String> fields = new HashMap<>();
    for (String pair : lines.remove(at).substring(RESULT_MARKER.length()).trim().split("\\s+")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    try {
      long before = Long.parseLong(fields.get("cpu-before"));
      long after = Long.parseLong(fields.get("cpu-after"));
      double wall = (Long.parseLong(fields.get("end")) - Long.parseLong(fields.get("start"))) / 1e9;
      double cpu = before >= 0 && after >= before ? (after - before) / 1e9
          : Long.parseLong(fields.get("children-ticks")) / (double) Long.parseLong(fields.get("clk-tck"));
      String stderr = lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
      return new Execution(Integer.parseInt(fields.get("rc")), raw.stdout(), stderr, cpu, wall);
    } catch (RuntimeException e) {
      throw new LoadException("the load client's wrapper reported " + fields + " for " + tool + ", which is not readable");
    }
  }

  /** A command's exit code and output in the container (cpu and wall time left 0). */
  Execution exec(List<String> argv, Duration limit) throws LoadException, InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String execId;
    ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
      @Override
      public void onNext(Frame frame) {
        byte[] bytes = frame.getPayload();
        if (bytes == null) {
          return;
        }
        synchronized (this) {
          switch (frame.getStreamType()) {
            case STDERR -> err.write(bytes, 0, bytes.length);
            default -> out.write(bytes, 0, bytes.length);
          }
        }
      }
    };
    try {
      execId = client.execCreateCmd(id).withCmd(argv.toArray(String[]::new)).withAttachStdout(true).withAttachStderr(true)
          .exec().getId();
      client.execStartCmd(execId).exec(callback);
    } catch (DockerException | IllegalStateException e) {
      throw new LoadException("cannot run " + argv.getFirst() + " in " + describe() + ": " + DockerRuntime.rootMessage(e));
    }
    if (!callback.awaitCompletion(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      try {
        callback.close();
      } catch (IOException e) {
        // the stream is dropped either way
      }
      throw new TimedOut();
    }
    Long code = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    try {
      while (System.nanoTime() < deadline) {
        var inspect = client.inspectExecCmd(execId).exec();
        if (!Boolean.TRUE.equals(inspect.isRunning())) {
          code = inspect.getExitCodeLong();
          break;
        }
        Thread.sleep(5);
      }
    } catch (DockerException e) {
      throw new LoadException("cannot read how " + argv.getFirst() + " ended in " + describe() + ": "
          + DockerRuntime.rootMessage(e));
    }
    if (code == null) {
      throw new LoadException(argv.getFirst() + " in " + describe() + " closed its output but did not end");
    }
    String stdout;
    String stderr;
    synchronized (callback) {
      stdout = out.toString(StandardCharsets.UTF_8);
      stderr = err.toString(StandardCharsets.UTF_8);
    }
    return new Execution(code.intValue(), stdout, stderr, 0, 0);
  }

  /** A command that outlived its limit. */
  static final class TimedOut extends LoadException {
    TimedOut() {
      super("timed out");
    }
  }

  /** The client host as its engine describes it, with the CPU model read in the container. */
  public EngineHost host() {
    String model = output(List.of("sh", "-c", "sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1"))
        .map(String::strip).filter(s -> !s.isEmpty()).orElse("unknown");
    try {
      Info info = engine.info();
      String cgroup = info.getCGroupVersion() == null || info.getCGroupVersion().isBlank() ? "unknown" : "v" + info.getCGroupVersion();
      return new EngineHost(String.valueOf(info.getName()), model, info.getNCPU() == null ? -1 : info.getNCPU(),
          String.valueOf(info.getKernelVersion()), "docker " + info.getServerVersion() + " at " + engine.url(), cgroup);
    } catch (RuntimeException e) {
      return new EngineHost("unknown (" + DockerRuntime.rootMessage(e) + ")", model, -1, "unknown", "docker at " + engine.url(),
          "unknown");
    }
  }

  /** A host described by its engine. */
  public record EngineHost(String name, String cpuModel, int cores, String kernel, String engine, String cgroupVersion) {}

  /**
   * The path measured from this container to the probe server at address:port: the RTT samples
   * in nanoseconds and the bytes one stream carried in {@code timed} after {@code warmup}.
   */
  PathSample measurePath(String address, int port, int warmup, int samples, Duration streamWarmup, Duration timed)
      throws IOException, InterruptedException {
    Execution run;
    try {
      run = exec(List.of("perl", "-e", PATH_CLIENT, address, Integer.toString(port), Integer.toString(warmup),
          Integer.toString(samples), Double.toString(streamWarmup.toNanos() / 1e9), Double.toString(timed.toNanos() / 1e9)),
          Duration.ofSeconds(60));
    } catch (LoadException e) {
      throw new IOException("the path client in " + describe() + ": " + e.getMessage());
    }
    if (run.exitCode() != 0) {
      throw new IOException("the path client in " + describe() + " exited with " + run.exitCode() + ": "
          + run.stderr().strip());
    }
    return PathSample.parse(run.stdout());
  }

  /** What the path client printed. */
  record PathSample(long[] rttNanos, long streamBytes) {
    static PathSample parse(String output) throws IOException {
      long[] rtt = null;
      long bytes = -1;
      for (String line : output.lines().toList()) {
        if (line.startsWith("rtt ")) {
          rtt = java.util.Arrays.stream(line.substring(4).trim().split("\\s+")).mapToLong(Long::parseLong).toArray();
        } else if (line.startsWith("stream ")) {
          bytes = Long.parseLong(line.substring(7).trim());
        }
      }
      if (rtt == null || bytes < 0) {
        throw new IOException("the path client printed no " + (rtt == null ? "round trips" : "stream figure"));
      }
      return new PathSample(rtt, bytes);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    ServerRegistry.untrack(this);
    try {
      client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
    } catch (NotFoundException e) {
      // already gone
    } catch (RuntimeException e) {
      System.err.println("fairbench: removing the load client container " + name + " failed: "
          + DockerRuntime.rootMessage(e) + "; remove it with: docker -H " + engine.url() + " rm -f " + name);
    }
  }

  @Override
  public String toString() {
    return describe();
  }
}
