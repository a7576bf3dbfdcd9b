package dev.fairbench.orchestrator.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The pages the memory probe's buffer lies on. On 4 KiB pages every load of its chase through 64 MiB also walks
 * the page tables, and where a buffer and its page tables landed moves the reading: six buffers of one process
 * read 6–16% apart on this project's AMD machine, against 0.6–4% on 2 MiB pages (docs/ORCHESTRATOR.md, "Speed
 * around each visit"). Readings on the two are not one probe's.
 */
public enum ProbePages implements WireName {
  /** 4 KiB pages: the JVM's heap where the kernel gives no huge pages, or gives them on request and the JVM did not ask. */
  SMALL("4 KiB"),
  /** 2 MiB transparent huge pages (the launcher asks for them where the kernel gives them by madvise). */
  HUGE("2 MiB");

  private final String wireName;

  ProbePages(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  @Override
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static ProbePages parse(String value) {
    return WireName.parse(ProbePages.class, value, "probe pages");
  }
}
