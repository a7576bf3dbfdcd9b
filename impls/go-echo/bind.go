package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// validateRequest is the body of POST /validate. Pointers tell a missing key
// from a zero value, so `required` rejects a missing name or age and keeps
// age 0 valid.
type validateRequest struct {
	Name *string `validate:"required,min=1"`
	Age  *int    `validate:"required,min=0,max=150"`
}

// UnmarshalJSON reads the object's members by their exact key. encoding/json
// matches struct fields case-insensitively, and the contract's keys are
// case-sensitive (SPEC 8.3); a map keeps the last of duplicate keys (8.5).
func (r *validateRequest) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	if members == nil {
		return errors.New("the body must be a JSON object")
	}
	if raw, ok := members["name"]; ok {
		if err := json.Unmarshal(raw, &r.Name); err != nil {
			return fmt.Errorf("name must be a string: %w", err)
		}
	}
	if raw, ok := members["age"]; ok {
		age, err := integer(raw)
		if err != nil {
			return err
		}
		r.Age = age
	}
	return nil
}

// integer reads a JSON number that is an integer, also when written as a
// float (30.0, 3e1: SPEC 7.10). null gives nil, for `required` to reject.
func integer(raw json.RawMessage) (*int, error) {
	var f *float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("age must be an integer: %w", err)
	}
	if f == nil {
		return nil, nil
	}
	if *f != math.Trunc(*f) || math.Abs(*f) > math.MaxInt32 {
		return nil, errors.New("age must be an integer between 0 and 150")
	}
	n := int(*f)
	return &n, nil
}

// jsonBodyBinder binds a request body only when its media type is
// application/json (parameters allowed, case-insensitive: SPEC 4.1 to 4.5).
// Echo's DefaultBinder compares the media type case-sensitively.
type jsonBodyBinder struct{}

func (jsonBodyBinder) Bind(i any, c echo.Context) error {
	mediaType, _, err := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err != nil || mediaType != echo.MIMEApplicationJSON {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "the body must be application/json")
	}
	if err := c.Echo().JSONSerializer.Deserialize(c, i); err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return he
		}
		return echo.NewHTTPError(http.StatusBadRequest, err.Error()).SetInternal(err)
	}
	return nil
}

// strictJSONSerializer is Echo's JSON serializer with the checks the contract
// needs that encoding/json's Decoder leaves out: the body is one value with
// nothing after it (SPEC 5.2), and valid UTF-8 (5.7; encoding/json would
// replace bad bytes with U+FFFD).
type strictJSONSerializer struct {
	echo.DefaultJSONSerializer
}

func (strictJSONSerializer) Deserialize(c echo.Context, i any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return he // the body limit's 413
		}
		return echo.NewHTTPError(http.StatusBadRequest, "cannot read the body").SetInternal(err)
	}
	if !utf8.Valid(body) {
		return echo.NewHTTPError(http.StatusBadRequest, "the body is not valid UTF-8")
	}
	if err := json.Unmarshal(body, i); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "invalid JSON: "+err.Error()).SetInternal(err)
	}
	return nil
}
