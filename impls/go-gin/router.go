package main

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
)

// maxBodyBytes is the contract's limit: over 1 MiB is 413, exactly 1 MiB is accepted (SPEC 4.6, 4.7).
const maxBodyBytes = 1 << 20

func errorJSON(c *gin.Context, status int, message string) {
	c.AbortWithStatusJSON(status, gin.H{"error": message})
}

// newRouter builds the four endpoints: gin.New() without the Logger middleware, a Recovery that
// answers JSON without a stack trace, and JSON bodies for 404 and 405 (SPEC 9.1, 10).
func newRouter() *gin.Engine {
	r := gin.New()
	r.Use(gin.CustomRecovery(func(c *gin.Context, _ any) {
		errorJSON(c, http.StatusInternalServerError, "internal server error")
	}))
	r.HandleMethodNotAllowed = true
	r.NoRoute(func(c *gin.Context) { errorJSON(c, http.StatusNotFound, "not found") })
	r.NoMethod(func(c *gin.Context) { errorJSON(c, http.StatusMethodNotAllowed, "method not allowed") })

	r.GET("/plaintext", func(c *gin.Context) {
		c.String(http.StatusOK, "Hello, World!")
	})
	r.GET("/json", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"message": "Hello, World!"})
	})
	// The router matches on the decoded path, so the id is already percent-decoded and '+' stays a plus.
	r.GET("/user/:id", func(c *gin.Context) {
		id := c.Param("id")
		c.JSON(http.StatusOK, gin.H{"id": id, "name": "User " + id})
	})
	r.POST("/validate", requireJSON, limitBody, validate)
	return r
}

// requireJSON answers 415 unless the media type is application/json (SPEC 4.1-4.5): Gin's
// JSON binding would decode any body whatever its Content-Type. The type is parsed with
// mime.ParseMediaType (lower-cased, parameters dropped), not c.ContentType(): Gin cuts the
// header at the first space or ';' only, so a tab before ';' (OWS in RFC 9110 §8.3.1) stayed in
// the type. An empty parameter (application/json;;) makes ParseMediaType return the type with
// ErrInvalidMediaParameter, as documented: the type still counts.
func requireJSON(c *gin.Context) {
	mediaType, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if (err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter)) || mediaType != binding.MIMEJSON {
		errorJSON(c, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		return
	}
	c.Next()
}

func limitBody(c *gin.Context) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes)
	c.Next()
}

func validate(c *gin.Context) {
	body, err := c.GetRawData()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			errorJSON(c, http.StatusRequestEntityTooLarge, "request body is larger than 1 MiB (1048576 bytes)")
			return
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			errorJSON(c, http.StatusBadRequest, "request body ended before its Content-Length")
			return
		}
		errorJSON(c, http.StatusBadRequest, "request body could not be read: "+err.Error())
		return
	}
	in, err := decodeUserInput(body)
	if err != nil {
		errorJSON(c, http.StatusBadRequest, err.Error())
		return
	}
	c.JSON(http.StatusOK, gin.H{"name": *in.Name, "age": *in.Age, "valid": true})
}
