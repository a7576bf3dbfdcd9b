package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
// keys are exact, and of duplicate keys the last one wins. json.Unmarshal already rejects trailing data, NaN and Infinity, control
// characters in strings and nesting over 10,000 levels; it would replace invalid UTF-8 with
// U+FFFD, hence the explicit check (SPEC 5.7).
func decodeUserInput(body []byte) (userInput, error) {
	var in userInput
	if !utf8.Valid(body) {
		return in, errors.New("request body is not valid UTF-8")
	}
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		// Decoding into an any fails on a type only for a number beyond float64 (1e400).
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return in, fmt.Errorf("request body holds a %s, out of range", typeErr.Value)
		}
		return in, fmt.Errorf("request body is not valid JSON: %w", err)
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

	// Numbers decode as float64, so an integral float (30.0, 3e1) is the integer it equals.
	switch age := object["age"].(type) {
	case nil:
		return in, errors.New("age is required")
	case float64:
		if age != math.Trunc(age) || age < 0 || age > 150 {
			return in, fmt.Errorf("age must be an integer from 0 to 150, got %v", age)
		}
		in.age = int(age)
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
	case float64:
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
