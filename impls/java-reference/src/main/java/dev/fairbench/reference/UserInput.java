package dev.fairbench.reference;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** The body of {@code POST /validate}, validated clause by clause (docs/SPEC.md sections 6-8). */
record UserInput(String name, int age) {

  static final int MIN_AGE = 0;
  static final int MAX_AGE = 150;

  private static final BigDecimal MIN_AGE_DECIMAL = BigDecimal.valueOf(MIN_AGE);
  private static final BigDecimal MAX_AGE_DECIMAL = BigDecimal.valueOf(MAX_AGE);

  /**
   * Validates a JSON object. Keys are matched exactly (SPEC 8.3) and unknown keys are ignored
   * (SPEC 8.4).
   */
  static UserInput from(JsonNode body) throws InvalidInputException {
    return new UserInput(name(body.get("name")), age(body.get("age")));
  }

  /** SPEC 6: a JSON string of at least one character, kept exactly as sent. */
  private static String name(JsonNode node) throws InvalidInputException {
    if (node == null) {
      throw new InvalidInputException("name is required");
    }
    if (!node.isTextual()) {
      throw new InvalidInputException("name must be a string, got " + StrictJson.describe(node));
    }
    String name = node.textValue();
    if (name.isEmpty()) {
      throw new InvalidInputException("name must not be empty");
    }
    return name;
  }

  /**
   * SPEC 7: a JSON number with an integer value from 0 to 150. An integral number written as a
   * float ({@code 30.0}, {@code 3e1}) is that integer (SPEC 7.10).
   */
  private static int age(JsonNode node) throws InvalidInputException {
    if (node == null) {
      throw new InvalidInputException("age is required");
    }
    if (!node.isNumber()) {
      throw new InvalidInputException("age must be a number, got " + StrictJson.describe(node));
    }
    // BigDecimal holds every JSON number exactly, so 1e400 or 20 nines are compared, not rounded.
    BigDecimal value = node.decimalValue();
    if (value.compareTo(MIN_AGE_DECIMAL) < 0 || value.compareTo(MAX_AGE_DECIMAL) > 0) {
      throw new InvalidInputException(
          "age must be from %d to %d, got %s".formatted(MIN_AGE, MAX_AGE, node.asText()));
    }
    if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
      throw new InvalidInputException("age must be an integer, got " + node.asText());
    }
    return value.intValueExact();
  }
}
