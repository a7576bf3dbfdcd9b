package dev.fairbench.orchestrator.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for the option formats of the CLI. */
final class Converters {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private Converters() {}

  /** A file-name-safe UTC timestamp such as 20261130-114500. */
  static String timestamp(Instant instant) {
    return STAMP.format(instant);
  }

  /** "5s", "500ms", "2m", or a plain number of seconds. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m)?");

    @Override
    public Duration convert(String value) {
      Matcher m = FORMAT.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new TypeConversionException("'" + value + "' is not a duration (use e.g. 5s, 500ms, 2m)");
      }
      long amount = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      return switch (unit) {
        case "ms" -> Duration.ofMillis(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofSeconds(amount);
      };
    }
  }

  /** "512m", "1g", "524288k", or a plain number of bytes. */
  static final class SizeConverter implements ITypeConverter<Long> {
    private static final Pattern FORMAT = Pattern.compile("(\\d+)([kmg]?)(i?b)?");

    @Override
    public Long convert(String value) {
      Matcher m = FORMAT.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new TypeConversionException("'" + value + "' is not a size (use e.g. 512m, 1g)");
      }
      long amount = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "k" -> amount * 1024;
        case "m" -> amount * 1024 * 1024;
        case "g" -> amount * 1024 * 1024 * 1024;
        default -> amount;
      };
    }
  }
}
