package dev.fairbench.orchestrator.results;

import java.util.Map;

/**
 * What an entry's build leaves: in Docker the image; natively the build output in its folder.
 *
 * @param imageBytes           the whole image (uncompressed, as the engine counts it); -1 natively or unknown
 * @param baseImage            the shared base image it was built on, empty when none was found
 * @param layersAboveBase      the layers its Dockerfile added
 * @param bytesAboveBase       their size; -1 natively or unknown
 * @param buildOutputBytes     natively, the git-ignored paths of the entry folder (du -sb); -1 in Docker or unknown
 * @param buildOutputs         natively, each of those paths and its bytes, largest first
 * @param method               how it was measured
 * @param note                 why a figure is missing; empty otherwise
 */
public record SizeFigures(long imageBytes, String baseImage, int layersAboveBase, long bytesAboveBase,
    long buildOutputBytes, Map<String, Long> buildOutputs, String method, String note) {
  public SizeFigures {
    baseImage = baseImage == null ? "" : baseImage;
    buildOutputs = buildOutputs == null ? Map.of() : new java.util.LinkedHashMap<>(buildOutputs);
    method = method == null ? "" : method;
    note = note == null ? "" : note;
  }

  /** The figure a table shows: the image in Docker, the build output natively; -1 when neither. */
  public long shownBytes() {
    return imageBytes >= 0 ? imageBytes : buildOutputBytes;
  }
}
