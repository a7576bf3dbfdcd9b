package main

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// maxBody is the contract's limit (SPEC 4.6): a body over 1 MiB answers 413.
const maxBody = "1MiB"

// newServer builds the Echo instance with the contract's routes, the JSON
// error handler, the binder and the validator.
func newServer() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = jsonErrorHandler
	e.Binder = jsonBodyBinder{}
	e.JSONSerializer = strictJSONSerializer{}
	e.Validator = &structValidator{validator: validator.New(validator.WithRequiredStructEnabled())}

	e.GET("/plaintext", plaintext)
	e.GET("/json", jsonHello)
	e.GET("/user/:id", user)
	// A trailing :id takes the rest of the path, slashes included, so PUT /user/a/b would be
	// the route's 405; a path below an id is no route for any method (SPEC 3.7, 10.1).
	e.RouteNotFound("/user/:id/*", func(echo.Context) error { return echo.ErrNotFound })
	e.POST("/validate", validate, requireJSON, middleware.BodyLimit(maxBody))
	return e
}

func plaintext(c echo.Context) error {
	return c.String(http.StatusOK, "Hello, World!")
}

type message struct {
	Message string `json:"message"`
}

func jsonHello(c echo.Context) error {
	return c.JSON(http.StatusOK, message{Message: "Hello, World!"})
}

type userResponse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func user(c echo.Context) error {
	id := c.Param("id")
	// A path parameter that ends the route takes the rest of the path in Echo's
	// router, slashes included; the contract's id is one segment (SPEC 3.7).
	if strings.Contains(id, "/") {
		return echo.ErrNotFound
	}
	// Echo routes on URL.RawPath when net/http keeps one (an escape it would not
	// write itself, such as %2F or lower-case hex); the id is then still encoded.
	if c.Request().URL.RawPath != "" {
		decoded, err := url.PathUnescape(id)
		if err != nil {
			return echo.ErrNotFound
		}
		id = decoded
	}
	return c.JSON(http.StatusOK, userResponse{ID: id, Name: "User " + id})
}

func validate(c echo.Context) error {
	var req validateRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	if err := c.Validate(&req); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, validateResponse{Name: *req.Name, Age: *req.Age, Valid: true})
}

type validateResponse struct {
	Name  string `json:"name"`
	Age   int    `json:"age"`
	Valid bool   `json:"valid"`
}

// jsonErrorHandler answers every error as the contract's JSON error body
// (SPEC 9.1): {"error": "<message>"} with the error's status.
func jsonErrorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if !errors.As(err, &he) {
		c.Logger().Error(err)
		he = echo.ErrInternalServerError
	}
	msg := http.StatusText(he.Code)
	if m, ok := he.Message.(string); ok && m != "" {
		msg = m
	}
	if err := c.JSON(he.Code, map[string]string{"error": msg}); err != nil {
		c.Logger().Error(err)
	}
}

type structValidator struct {
	validator *validator.Validate
}

// Validate runs go-playground/validator's tags and turns a failure into a 400.
func (v *structValidator) Validate(i any) error {
	if err := v.validator.Struct(i); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error()).SetInternal(err)
	}
	return nil
}
