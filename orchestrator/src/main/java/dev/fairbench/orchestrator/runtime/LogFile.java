package dev.fairbench.orchestrator.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/** A server's log (its stdout and stderr) as it grows: how far it has come, and the lines in a stretch of it. */
public final class LogFile {
  private LogFile() {}

  /** Its size now; -1 when it cannot be read. */
  public static long size(Path log) {
    try {
      return Files.size(log);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The line ends among its bytes from one offset to another; 0 when they cannot be read. */
  public static long linesBetween(Path log, long from, long to) {
    if (to <= from) {
      return 0;
    }
    long lines = 0;
    try (FileChannel channel = FileChannel.open(log)) {
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      long at = from;
      while (at < to) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), to - at));
        int read = channel.read(buffer, at);
        if (read <= 0) {
          break;
        }
        for (int i = 0; i < read; i++) {
          if (buffer.get(i) == '\n') {
            lines++;
          }
        }
        at += read;
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return lines;
  }
}
