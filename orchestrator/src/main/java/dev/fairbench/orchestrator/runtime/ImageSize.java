package dev.fairbench.orchestrator.runtime;

import java.util.List;

/**
 * The size of an entry's image, and of its layers above the shared base image it was built on.
 * The base is the local image, not built by fairbench, whose layers are the longest proper prefix
 * of the entry image's layers (e.g. python:3.11-slim-bookworm rather than debian:bookworm-slim
 * under it): sizes are the engine's (docker image inspect .Size, uncompressed).
 *
 * @param image              e.g. fairbench/go-gin:default
 * @param bytes              the whole image, -1 when it cannot be inspected
 * @param layers             its layer count
 * @param baseImage          the base's first tag, empty when none was found
 * @param layersAboveBase    how many layers the entry's Dockerfile added
 * @param bytesAboveBase     their size: bytes minus the base's size
 * @param note               why a figure is missing; empty otherwise
 */
public record ImageSize(String image, long bytes, int layers, String baseImage, int layersAboveBase, long bytesAboveBase,
    String note) {

  /** A local image that may be the base. */
  public record Candidate(String name, List<String> layers, long bytes) {
    public Candidate {
      layers = List.copyOf(layers);
    }
  }

  public static ImageSize unknown(String image, String note) {
    return new ImageSize(image, -1, 0, "", 0, -1, note);
  }

  /** The figures of an image of {@code layers} and {@code bytes}, its base picked from {@code candidates}. */
  public static ImageSize of(String image, List<String> layers, long bytes, List<Candidate> candidates) {
    Candidate base = null;
    for (Candidate candidate : candidates) {
      int n = candidate.layers().size();
      if (n > 0 && n < layers.size() && layers.subList(0, n).equals(candidate.layers())
          && (base == null || n > base.layers().size())) {
        base = candidate;
      }
    }
    if (base == null) {
      return new ImageSize(image, bytes, layers.size(), "", layers.size(), bytes, "no local base image shares its first layers");
    }
    return new ImageSize(image, bytes, layers.size(), base.name(), layers.size() - base.layers().size(),
        Math.max(0, bytes - base.bytes()), "");
  }
}
