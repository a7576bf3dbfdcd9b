package dev.fairbench.conformance;

import static dev.fairbench.conformance.Severity.FAIL;
import static dev.fairbench.conformance.Severity.WARN;

import java.util.List;
import java.util.Optional;

/**
 * One clause of docs/SPEC.md that the suite checks (sections 1 to 12; section 0 is the
 * orchestrator's), with its title in plain words. A test of this module keeps the list in step
 * with SPEC.md.
 */
public record SpecClause(String id, String title, Severity severity) {

  /** Every clause the suite checks, in SPEC order. */
  public static final List<SpecClause> ALL = List.of(
      new SpecClause("1.1", "GET /plaintext answers 200", FAIL),
      new SpecClause("1.2", "GET /plaintext Content-Type is text/plain, optionally ; charset=utf-8", FAIL),
      new SpecClause("1.3", "GET /plaintext body is exactly the 13 bytes Hello, World!", FAIL),
      new SpecClause("2.1", "GET /json answers 200", FAIL),
      new SpecClause("2.2", "GET /json Content-Type is application/json, a charset parameter allowed", FAIL),
      new SpecClause("2.3", "GET /json body is the JSON object {\"message\":\"Hello, World!\"}, no other key", FAIL),
      new SpecClause("3.1", "GET /user/42 answers 200 application/json {\"id\":\"42\",\"name\":\"User 42\"}", FAIL),
      new SpecClause("3.2", "GET /user/{id}: the id is always a JSON string (007, -1, 3.5, true, null)", FAIL),
      new SpecClause("3.3", "GET /user/{id}: the id is the path segment percent-decoded once, as UTF-8", FAIL),
      new SpecClause("3.4", "GET /user/{id}: %20 decodes to a space, + stays a literal plus", FAIL),
      new SpecClause("3.5", "GET /user/{id}: the query string is not part of the id", FAIL),
      new SpecClause("3.6", "GET /user/ answers an error response with status 404", FAIL),
      new SpecClause("3.7", "GET /user/a/b answers an error response with status 404", FAIL),
      new SpecClause("3.8", "GET /user/{id}: an id whose percent-decoded bytes are not UTF-8 answers 400, or 200 with U+FFFD for them; never a 5xx or the raw bytes", FAIL),
      new SpecClause("3.9", "GET /user/{id}: malformed percent-encoding (%zz, abc%4) answers 400, whatever its body; kept as written is tolerated (WARN)", WARN),
      new SpecClause("4.1", "POST /validate accepts Content-Type: application/json", FAIL),
      new SpecClause("4.2", "POST /validate accepts parameters in every RFC 9110 form: application/json; charset=utf-8, ;charset=utf-8, ' ; ', a quoted value, an empty parameter", FAIL),
      new SpecClause("4.3", "POST /validate media type is case-insensitive: Application/JSON", FAIL),
      new SpecClause("4.4", "POST /validate with any other media type answers an error response with status 415, whatever the body", FAIL),
      new SpecClause("4.5", "POST /validate without Content-Type answers an error response with status 415, whatever the body", FAIL),
      new SpecClause("4.6", "POST /validate body over 1 MiB in bytes (also chunked) answers an error response with status 413, never read as a request, the server stays up", FAIL),
      new SpecClause("4.7", "POST /validate valid body of exactly 1 MiB is accepted (also multi-byte, also chunked)", FAIL),
      new SpecClause("5.1", "POST /validate malformed JSON answers 400", FAIL),
      new SpecClause("5.2", "POST /validate trailing garbage after the value answers 400", FAIL),
      new SpecClause("5.3", "POST /validate NaN, Infinity and -Infinity anywhere in the body answer 400", FAIL),
      new SpecClause("5.4", "POST /validate empty body answers 400", FAIL),
      new SpecClause("5.5", "POST /validate top-level value that is not an object answers 400", FAIL),
      new SpecClause("5.6", "POST /validate deep nesting answers 400, never a crash", FAIL),
      new SpecClause("5.7", "POST /validate body that is not valid UTF-8 (encoded surrogates included) answers 400", FAIL),
      new SpecClause("5.8", "POST /validate unescaped control character in a string answers 400", FAIL),
      new SpecClause("5.9", "POST /validate a lone surrogate escape (\\ud800, \\udc00) answers 400 or is echoed as valid UTF-8, never 5xx", FAIL),
      new SpecClause("6.1", "name: missing answers 400", FAIL),
      new SpecClause("6.2", "name: not a string (number, boolean, null, array, object) answers 400", FAIL),
      new SpecClause("6.3", "name: the empty string answers 400", FAIL),
      new SpecClause("6.4", "name: one character is valid (\"a\", \"😀\")", FAIL),
      new SpecClause("6.5", "name: echoed exactly, never trimmed (\" \", \"  padded  \")", FAIL),
      new SpecClause("6.6", "name: Unicode, quotes, backslashes and escaped control characters echoed exactly", FAIL),
      new SpecClause("6.7", "name: 10,000 characters of ASCII and emoji, and one filling a 1 MiB body, echoed exactly", FAIL),
      new SpecClause("7.1", "age: missing answers 400", FAIL),
      new SpecClause("7.2", "age: the bounds 0 and 150 are valid", FAIL),
      new SpecClause("7.3", "age: -1 and 151 answer 400", FAIL),
      new SpecClause("7.4", "age: a string, even \"30\", answers 400", FAIL),
      new SpecClause("7.5", "age: a boolean answers 400", FAIL),
      new SpecClause("7.6", "age: null answers 400", FAIL),
      new SpecClause("7.7", "age: an array or an object answers 400", FAIL),
      new SpecClause("7.8", "age: a fraction (30.5, 0.1, 149.9) answers 400", FAIL),
      new SpecClause("7.9", "age: huge numbers answer 400, never 5xx", FAIL),
      new SpecClause("7.10", "age: an integral float (30.0, 3e1, 1.5e2) is accepted as the integer; 400 is tolerated (WARN)", WARN),
      new SpecClause("7.11", "age: an integral float out of bounds (151.0, -1.0) answers 400", FAIL),
      new SpecClause("7.12", "age: a fraction too fine for a 64-bit float (30.000000000000001, 1e-400) answers 400; "
          + "accepted as the integer it rounds to is tolerated (WARN)", WARN),
      new SpecClause("8.1", "success answers 200 application/json with exactly the keys name, age, valid", FAIL),
      new SpecClause("8.2", "success: age is a JSON integer and valid is true", FAIL),
      new SpecClause("8.3", "keys are case-sensitive", FAIL),
      new SpecClause("8.4", "unknown keys are ignored", FAIL),
      new SpecClause("8.5", "duplicate keys: the last one wins; 400 or the first winning is tolerated (WARN)", WARN),
      new SpecClause("8.6", "an unknown key holding 1e400 is ignored; 400 is tolerated (WARN)", WARN),
      new SpecClause("9.1", "every error response is application/json, a JSON object with a string \"error\"", FAIL),
      new SpecClause("9.2", "no error response leaks a stack trace", FAIL),
      new SpecClause("10.1", "an unknown path answers an error response with status 404", FAIL),
      new SpecClause("10.2", "a known path with another method answers 405; 404 is tolerated (WARN)", WARN),
      new SpecClause("10.3", "a path differing from a route only in letter case answers 404; served as the route is tolerated (WARN)", WARN),
      new SpecClause("11.1", "HTTP/1.1 keep-alive: one connection serves 200 sequential requests", FAIL),
      new SpecClause("11.2", "every response carries one Content-Length matching its body, or is chunked without one", FAIL),
      new SpecClause("11.3", "Expect: 100-continue gets 100 Continue then the response, or the response at once", FAIL),
      new SpecClause("11.4", "512 connections open at once are all served 200 Hello, World!", FAIL),
      new SpecClause("11.5", "a client sending its request head one byte per 100 ms does not hold up another client", FAIL),
      new SpecClause("11.6", "pipelining: 16 requests written at once, and a POST /validate pair, are answered in order as themselves", FAIL),
      new SpecClause("11.7", "32 requests sent at once on 32 connections are each answered as themselves", FAIL),
      new SpecClause("11.8", "Expect: 100-Continue (another letter case) is answered as 100-continue; silence or 417 WARN (runtime parser)", WARN),
      new SpecClause("11.9", "a request with Connection: close, or HTTP/1.0 without keep-alive, is answered (not chunked for HTTP/1.0), then the connection closed", FAIL),
      new SpecClause("11.10", "every answer's head is well-formed HTTP/1.1 (CRLF, status line, name: value fields) with an IMF-fixdate Date near the time, if any", FAIL),
      new SpecClause("12.1", "no request of any shape yields a 5xx", FAIL),
      new SpecClause("12.2", "the server still answers GET /plaintext after every robustness case and at the end", FAIL),
      new SpecClause("12.3", "a control byte in the request target answers 4xx or closes; 505, or the byte kept in the path, is tolerated (WARN)", WARN),
      new SpecClause("12.4", "ambiguous framing (Content-Length with chunked, two or invalid Content-Lengths) answers 400 or closes, never desynchronises", FAIL),
      new SpecClause("12.5", "a raw byte above 0x7F in the request target answers 4xx or closes; served as UTF-8 is tolerated (WARN)", WARN));

  public static Optional<SpecClause> byId(String id) {
    return ALL.stream().filter(c -> c.id().equals(id)).findFirst();
  }
}
