package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"
)

// userInput is the body of POST /validate; its binding tags are the rules of SPEC 6 and 7.
// Pointers make a missing field nil, so `required` no longer rejects the valid age 0.
type userInput struct {
	Name *string `json:"name" binding:"required,min=1"`
	Age  *int    `json:"age" binding:"required,min=0,max=150"`
}

// fields maps each struct field to its JSON key and to its rule, in the words of the error messages.
var fields = map[string]struct{ key, rule string }{
	"Name": {"name", "name must be a non-empty string"},
	"Age":  {"age", "age must be an integer from 0 to 150"},
}

// decodeUserInput decodes and validates a body with the contract's strictness.
//
// encoding/json (which Gin's JSON binding uses) matches object keys case-insensitively, so
// {"NAME": ...} would bind to Name. The body is therefore decoded into a map first, whose keys
// are exact, and each field from its exact key; Gin's validator then applies the binding tags.
// json.Unmarshal also rejects trailing data, NaN, and nesting over 10,000 levels; it would
// replace invalid UTF-8 with U+FFFD, hence the explicit check (SPEC 5.7).
func decodeUserInput(body []byte) (userInput, error) {
	var in userInput
	if !utf8.Valid(body) {
		return in, errors.New("request body is not valid UTF-8")
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(body, &object); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return in, fmt.Errorf("request body must be a JSON object, got %s", typeErr.Value)
		}
		return in, fmt.Errorf("request body is not valid JSON: %w", err)
	}
	if object == nil {
		return in, errors.New("request body must be a JSON object, got null")
	}
	if raw, ok := object["name"]; ok {
		if err := json.Unmarshal(raw, &in.Name); err != nil {
			return in, fieldError("Name", err)
		}
	}
	if raw, ok := object["age"]; ok {
		if err := json.Unmarshal(raw, &in.Age); err != nil {
			return in, fieldError("Age", err)
		}
	}
	if err := binding.Validator.ValidateStruct(&in); err != nil {
		var failures validator.ValidationErrors
		if errors.As(err, &failures) && len(failures) > 0 {
			field := fields[failures[0].StructField()]
			if failures[0].Tag() == "required" {
				return in, fmt.Errorf("%s is required", field.key)
			}
			return in, errors.New(field.rule)
		}
		return in, err
	}
	return in, nil
}

// fieldError explains a JSON value of the wrong type, e.g. "age must be ..., got number 30.5".
func fieldError(field string, err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("%s, got %s", fields[field].rule, typeErr.Value)
	}
	return errors.New(fields[field].rule)
}
