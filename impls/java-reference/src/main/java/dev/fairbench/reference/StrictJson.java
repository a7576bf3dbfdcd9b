package dev.fairbench.reference;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a request body as RFC 8259 JSON (docs/SPEC.md section 5).
 *
 * <p>The body must be strict UTF-8. Jackson's defaults already reject NaN/Infinity, single quotes,
 * unquoted keys, trailing commas and unescaped control characters, and limit nesting to 1,000
 * levels. On top of them: trailing tokens are an error, and fractions are read as BigDecimal so
 * that {@code 30.0} and {@code 149.9} keep their exact value. Duplicate keys are left to
 * Jackson's tree, where the last one wins (SPEC 8.5).
 */
final class StrictJson {

  private static final ObjectReader READER =
      JsonMapper.builder(
              JsonFactory.builder()
                  // An unknown key of any length is ignored (SPEC 8.4): Jackson's default refuses a
                  // name over 50,000 characters; the body limit bounds it instead.
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNameLength((int) HttpVerticle.MAX_BODY_BYTES).build())
                  .build())
          .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .disable(JsonReadFeature.ALLOW_TRAILING_COMMA)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build()
          .readerFor(JsonNode.class);

  private StrictJson() {}

  static JsonNode readObject(byte[] body) throws InvalidInputException {
    if (body == null || body.length == 0) {
      throw new InvalidInputException("request body is empty, expected a JSON object");
    }
    // Jackson decodes overlong UTF-8 sequences (C0 AF as '/'); the JDK's decoder rejects them.
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidInputException("request body is not valid UTF-8");
    }
    JsonNode node;
    try {
      node = READER.readTree(text);
    } catch (JacksonException e) {
      throw new InvalidInputException("request body is not valid JSON: " + e.getOriginalMessage());
    } catch (NumberFormatException e) {
      // Jackson reports an exponent beyond BigDecimal's range (1e999999999999) this way.
      throw new InvalidInputException("request body holds a number out of range: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw new InvalidInputException(
          "request body must be a JSON object, got " + describe(node));
    }
    return node;
  }

  static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    return switch (node.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
