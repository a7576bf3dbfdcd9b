package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
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
// The number is read from its text (UseNumber), not through a float64, which
// would round a fraction too fine for it (30.000000000000001, 1e-400) to an
// integer (SPEC 7.8).
func integer(raw json.RawMessage) (*int, error) {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, fmt.Errorf("age must be an integer: %w", err)
	}
	switch value := value.(type) {
	case nil:
		return nil, nil
	case json.Number:
		n, ok := smallInteger(value.String())
		if !ok {
			return nil, errors.New("age must be an integer between 0 and 150")
		}
		return &n, nil
	default:
		return nil, fmt.Errorf("age must be an integer, got %T", value)
	}
}

// smallInteger reads the text of a JSON number (already checked against RFC
// 8259's grammar by the decoder) exactly: it reports the integer the number
// equals when it is one of magnitude below 10,000, and false for a fraction
// (30.5, 30.000000000000001, 1e-400) or anything larger (1e400). Only digits
// are counted, so 1e999999999 costs nothing.
func smallInteger(number string) (int, bool) {
	negative := strings.HasPrefix(number, "-")
	mantissa, exponent := strings.TrimPrefix(number, "-"), 0
	if i := strings.IndexAny(mantissa, "eE"); i >= 0 {
		e, err := strconv.Atoi(mantissa[i+1:])
		mantissa = mantissa[:i]
		// The body is at most 1 MiB, so beyond 2^21 the exponent alone
		// decides: the value is zero (0e99999999999), or else huge or a fraction.
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

// requireJSON answers 415 unless the request's media type is application/json
// (parameters allowed, case-insensitive: SPEC 4.1 to 4.5). It runs before the
// body limit, so a body with another media type is 415 whatever its size
// (SPEC 4: the media-type check comes first).
func requireJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !isJSON(c.Request()) {
			return echo.NewHTTPError(http.StatusUnsupportedMediaType, "the body must be application/json")
		}
		return next(c)
	}
}

func isJSON(r *http.Request) bool {
	// An empty parameter (application/json;;, valid in RFC 9110 §8.3.1) makes ParseMediaType
	// return the media type with ErrInvalidMediaParameter, as documented: the type still counts.
	mediaType, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return (err == nil || errors.Is(err, mime.ErrInvalidMediaParameter)) && mediaType == echo.MIMEApplicationJSON
}

// jsonBodyBinder binds a request body only when its media type is
// application/json (parameters allowed, case-insensitive: SPEC 4.1 to 4.5).
// Echo's DefaultBinder compares the media type case-sensitively.
type jsonBodyBinder struct{}

func (jsonBodyBinder) Bind(i any, c echo.Context) error {
	if !isJSON(c.Request()) {
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
