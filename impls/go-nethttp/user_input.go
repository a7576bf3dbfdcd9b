package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

type userInput struct {
	name string
	age  int
}

// decodeUserInput decodes and validates a /validate body with the contract's strictness (SPEC 5-8).
//
// The body is decoded into an any (objects become maps), not into a struct: encoding/json
// matches struct fields to keys case-insensitively ({"NAME": ...} would fill Name), while map
// keys are exact, and of duplicate keys the last one wins. The decoder already rejects NaN and
// Infinity, control characters in strings and nesting over 10,000 levels; it would replace
// invalid UTF-8 with U+FFFD, hence the explicit check (SPEC 5.7). UseNumber keeps each number as
// its text (json.Number): a number beyond float64 under an unknown key (1e400) is then ignored
// like the key (SPEC 8.4), and age is judged exactly (SPEC 7.8: 30.000000000000001 is a fraction).
func decodeUserInput(body []byte) (userInput, error) {
	var in userInput
	if !utf8.Valid(body) {
		return in, errors.New("request body is not valid UTF-8")
	}
	decoder := json.NewDecoder(bytes.NewReader(body))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		if errors.Is(err, io.EOF) {
			return in, errors.New("request body is not valid JSON: it is empty")
		}
		return in, fmt.Errorf("request body is not valid JSON: %w", err)
	}
	// Only whitespace may follow the value (SPEC 5.2): the next token must be the end.
	if _, err := decoder.Token(); !errors.Is(err, io.EOF) {
		return in, errors.New("request body is not valid JSON: data after the top-level value")
	}
	object, ok := value.(map[string]any)
	if !ok {
		return in, fmt.Errorf("request body must be a JSON object, got %s", kind(value))
	}

	switch name := object["name"].(type) {
	case nil:
		return in, errors.New("name is required")
	case string:
		if name == "" {
			return in, errors.New("name must be a non-empty string")
		}
		in.name = name
	default:
		return in, fmt.Errorf("name must be a non-empty string, got %s", kind(name))
	}

	// An integral float (30.0, 3e1) is the integer it equals (SPEC 7.10).
	switch age := object["age"].(type) {
	case nil:
		return in, errors.New("age is required")
	case json.Number:
		n, ok := smallInteger(age.String())
		if !ok || n < 0 || n > 150 {
			return in, fmt.Errorf("age must be an integer from 0 to 150, got %s", age)
		}
		in.age = n
	default:
		return in, fmt.Errorf("age must be an integer from 0 to 150, got %s", kind(age))
	}
	return in, nil
}

// kind names a decoded JSON value's type in JSON's words.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return "null"
	}
}

// smallInteger reads the text of a JSON number (already checked against RFC 8259's grammar by
// the decoder) exactly, without float64 rounding: it reports the integer the number equals when
// it is one of magnitude below 10,000, and false for a fraction (30.5, 30.000000000000001,
// 1e-400) or anything larger (1e400). Only digits are counted, so 1e999999999 costs nothing.
func smallInteger(number string) (int, bool) {
	negative := strings.HasPrefix(number, "-")
	mantissa, exponent := strings.TrimPrefix(number, "-"), 0
	if i := strings.IndexAny(mantissa, "eE"); i >= 0 {
		e, err := strconv.Atoi(mantissa[i+1:])
		mantissa = mantissa[:i]
		// The body is at most 1 MiB, so beyond 2^21 the exponent alone decides: the value is
		// zero (0e99999999999), or else huge or a fraction.
		if err != nil || e > 1<<21 || e < -(1<<21) {
			return 0, strings.Trim(mantissa, "0.") == ""
		}
		exponent = e
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+fraction, "0")
	exponent -= len(fraction)
	if digits == "" {
		return 0, true // 0, -0, 0.000, 0e5
	}
	significant := strings.TrimRight(digits, "0")
	exponent += len(digits) - len(significant)
	if exponent < 0 || len(significant)+exponent > 4 {
		return 0, false
	}
	n, _ := strconv.Atoi(significant + strings.Repeat("0", exponent))
	if negative {
		n = -n
	}
	return n, true
}
