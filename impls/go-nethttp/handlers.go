package main

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
)

// maxBodyBytes is the contract's limit: over 1 MiB is 413, exactly 1 MiB is accepted (SPEC 4.6, 4.7).
const maxBodyBytes = 1 << 20

type message struct {
	Message string `json:"message"`
}

type user struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type validUser struct {
	Name  string `json:"name"`
	Age   int    `json:"age"`
	Valid bool   `json:"valid"`
}

type apiError struct {
	Error string `json:"error"`
}

// newMux routes the four endpoints with Go 1.22 method and path patterns. ServeMux answers an
// unknown path (404) and a known path with another method (405) itself, but in plain text; the
// contract wants JSON bodies (SPEC 9.1), so each path also gets a method-less pattern answering
// 405, and "/" (the least specific pattern) answers 404.
func newMux() *http.ServeMux {
	routes := []struct {
		method, path, allow string
		handler             http.HandlerFunc
	}{
		// A GET pattern also serves HEAD.
		{"GET", "/plaintext", "GET, HEAD", plaintext},
		{"GET", "/json", "GET, HEAD", helloJSON},
		{"GET", "/user/{id}", "GET, HEAD", userByID},
		{"POST", "/validate", "POST", validate},
	}
	mux := http.NewServeMux()
	for _, route := range routes {
		mux.HandleFunc(route.method+" "+route.path, route.handler)
		mux.HandleFunc(route.path, methodNotAllowed(route.allow))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no route for "+r.Method+" "+r.URL.Path)
	})
	return mux
}

func plaintext(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("Hello, World!"))
}

func helloJSON(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, message{Message: "Hello, World!"})
}

// userByID answers the {id} segment, which ServeMux has percent-decoded once ('+' stays a plus).
// {id} matches exactly one non-empty segment, so /user/ and /user/a/b fall through to 404.
func userByID(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	writeJSON(w, http.StatusOK, user{ID: id, Name: "User " + id})
}

func validate(w http.ResponseWriter, r *http.Request) {
	// The media type comes first (SPEC 4): 415 whatever the body holds. ParseMediaType
	// lower-cases the type and drops parameters such as charset. An empty parameter
	// (`application/json;;`, valid in RFC 9110 §5.6.6) makes it return the media type with
	// ErrInvalidMediaParameter, as documented: the type is still the one sent.
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if (err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter)) || mediaType != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		return
	}
	// MaxBytesReader counts the bytes read, Content-Length or chunked alike, and fails at the
	// first byte over the limit.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body is larger than 1 MiB (1048576 bytes)")
			return
		}
		writeError(w, http.StatusBadRequest, "request body could not be read: "+err.Error())
		return
	}
	in, err := decodeUserInput(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, validUser{Name: in.name, Age: in.age, Valid: true})
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed, use "+allow)
	}
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, apiError{Error: message})
}

// writeJSON serializes v per request. json.Marshal cannot fail for these types (strings are
// written as valid UTF-8 whatever they hold), so its error is not checked.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}
