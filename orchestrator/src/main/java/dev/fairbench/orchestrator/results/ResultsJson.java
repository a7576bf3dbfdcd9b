package dev.fairbench.orchestrator.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
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
      .addModule(noNaN())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private ResultsJson() {}

  /**
   * A figure there is none of (NaN: CPU per request of runs that made no request, Little's law of a
   * rate cell) is written as null, never as Jackson's "NaN" string in a number's place, which JSON
   * has no word for; null, and the "NaN" of files written before, are read back as NaN.
   */
  private static SimpleModule noNaN() {
    SimpleModule module = new SimpleModule("fairbench-no-nan");
    JsonSerializer<Double> writer = new StdSerializer<>(Double.class) {
      @Override
      public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
        if (value.isNaN()) {
          out.writeNull();
        } else {
          out.writeNumber(value);
        }
      }
    };
    module.addSerializer(Double.class, writer);
    module.addSerializer(Double.TYPE, writer);
    module.addDeserializer(Double.TYPE, new NumberDeserializers.DoubleDeserializer(Double.TYPE, Double.NaN));
    return module;
  }

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
