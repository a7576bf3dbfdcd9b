package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.file.Path;

/** Reads and writes the results file. Writes are atomic: a crash leaves the previous version. */
public final class ResultsJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private ResultsJson() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Writes to a temporary file beside {@code file}, then renames it over {@code file}. */
  public static void write(ResultsDocument document, Path file) throws IOException {
    AtomicWrite.replace(file, ".results-", ".json.tmp", temp -> MAPPER.writeValue(temp.toFile(), document));
  }

  public static ResultsDocument read(Path file) throws IOException {
    return MAPPER.readValue(file.toFile(), ResultsDocument.class);
  }
}
