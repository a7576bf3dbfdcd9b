package dev.fairbench.orchestrator.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Short commands run where a container's server runs: in a throwaway container of its image
 * (docker run --rm, without a network), never in the server's own container, whose cgroup's CPU
 * and memory are the server's figures. For the [versions] of an entry under Docker, which must be
 * the image's tools, not this machine's.
 */
final class ContainerCommands {
  /** A step's image in a classic builder's log: " ---> 3d7467050240". */
  private static final Pattern STEP_IMAGE = Pattern.compile("^ ---> ([0-9a-f]{12,64})\\s*$");
  private static final Pattern FROM_STEP = Pattern.compile("^Step \\d+/\\d+ : FROM\\s.*", Pattern.CASE_INSENSITIVE);
  private static final int MAX_OUTPUT = 64 * 1024;

  private ContainerCommands() {}

  /** What a command did: its exit code (-1 when it did not run or did not end), its stdout and stderr, or why it did not run. */
  record Outcome(long exitCode, String output, String failure) {
    boolean succeeded() {
      return exitCode == 0 && EnvironmentProbe.firstLine(Optional.of(output)).isPresent();
    }

    /** The first output line, or why there is none. */
    String firstLineOrWhy() {
      if (succeeded()) {
        return EnvironmentProbe.firstLine(Optional.of(output)).orElseThrow();
      }
      if (!failure.isEmpty()) {
        return failure;
      }
      String line = EnvironmentProbe.firstLine(Optional.of(output)).orElse("no output");
      return "exit code " + exitCode + ": " + line;
    }
  }

  /**
   * {@code command} in a new container of {@code image} (its entrypoint replaced by the command,
   * {@code env} ("NAME=value") added to the image's, from the image's working directory, as its
   * user, no network), removed afterwards: what `docker run --rm --network none` does.
   */
  static Outcome runOnce(DockerClient client, String image, List<String> env, List<String> command, Duration timeout) {
    return runOnce(client, image, env, command, timeout,
        new HostConfig().withNetworkMode("none").withMemory(256L << 20).withMemorySwap(256L << 20), inspect -> {});
  }

  /** The same with {@code host} as the container's HostConfig; {@code inspected} sees the container's inspect once it ran. */
  static Outcome runOnce(DockerClient client, String image, List<String> env, List<String> command, Duration timeout,
      HostConfig host,
      java.util.function.Consumer<com.github.dockerjava.api.command.InspectContainerResponse> inspected) {
    String id;
    try {
      id = client.createContainerCmd(image)
          .withEnv(env)
          .withEntrypoint(command.toArray(String[]::new))
          .withCmd(List.of())
          .withLabels(Map.of(DockerRuntime.LABEL, "true", Watchdog.LABEL_OWNER, Watchdog.owner()))
          .withHostConfig(host)
          .exec().getId();
    } catch (DockerException | IllegalArgumentException e) {
      return new Outcome(-1, "", "cannot create a container of " + image + ": " + DockerRuntime.rootMessage(e));
    }
    try {
      client.startContainerCmd(id).exec();
      Integer code;
      try {
        code = client.waitContainerCmd(id).start().awaitStatusCode(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (DockerException | com.github.dockerjava.api.exception.DockerClientException e) {
        return new Outcome(-1, logs(client, id), "did not finish within " + timeout.toSeconds() + " s");
      }
      inspected.accept(client.inspectContainerCmd(id).exec());
      return new Outcome(code == null ? -1 : code, logs(client, id), "");
    } catch (DockerException | IllegalArgumentException e) {
      // e.g. "exec: \"go\": executable file not found in $PATH"
      return new Outcome(-1, "", DockerRuntime.rootMessage(e));
    } finally {
      try {
        client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
      } catch (RuntimeException e) {
        System.err.println("fairbench: removing the version probe container " + id + " failed: " + e.getMessage()
            + "; remove it with: docker rm -f " + id);
      }
    }
  }

  private static String logs(DockerClient client, String id) {
    Collected collected = new Collected();
    try {
      client.logContainerCmd(id).withStdOut(true).withStdErr(true).exec(collected).awaitCompletion(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // no log: the outcome says the exit code
    }
    return collected.text();
  }

  /**
   * The image each stage before the last one ended with, last stage first, from a classic
   * builder's log ("Step 3/18 : FROM ... AS build", then " ---> ID" after each step): the build
   * stages of a multi-stage Dockerfile, whose toolchain (a compiler) the final image may lack.
   */
  static List<String> buildStageImages(List<String> buildLog) {
    List<String> stages = new ArrayList<>();
    String lastImage = null;
    boolean inStage = false;
    for (String line : buildLog) {
      if (FROM_STEP.matcher(line).matches()) {
        if (inStage && lastImage != null) {
          stages.addFirst(lastImage);
        }
        inStage = true;
        continue;
      }
      Matcher image = STEP_IMAGE.matcher(line);
      if (image.matches()) {
        lastImage = image.group(1);
      }
    }
    return List.copyOf(stages);
  }

  /** stdout and stderr frames, in order, up to {@link #MAX_OUTPUT} bytes. */
  private static final class Collected extends ResultCallback.Adapter<Frame> {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void onNext(Frame frame) {
      byte[] payload = frame.getPayload();
      synchronized (bytes) {
        if (payload != null && bytes.size() < MAX_OUTPUT) {
          bytes.write(payload, 0, Math.min(payload.length, MAX_OUTPUT - bytes.size()));
        }
      }
    }

    String text() {
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
