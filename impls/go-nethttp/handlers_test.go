package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func serve(method, target, contentType string, body io.Reader) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	newMux().ServeHTTP(rec, req)
	return rec
}

// personOfSize is a valid body padded with an unknown key to exactly size bytes.
func personOfSize(size int) string {
	prefix, suffix := `{"name":"a","age":1,"pad":"`, `"}`
	return prefix + strings.Repeat("x", size-len(prefix)-len(suffix)) + suffix
}

func TestRoutesAnswerTheContract(t *testing.T) {
	cases := []struct {
		target, contentType, body string
	}{
		{"/plaintext", "text/plain; charset=utf-8", "Hello, World!"},
		{"/json", "application/json", `{"message":"Hello, World!"}`},
		{"/user/42?x=1", "application/json", `{"id":"42","name":"User 42"}`},
		{"/user/caf%C3%A9+100%2541", "application/json", `{"id":"café+100%41","name":"User café+100%41"}`},
	}
	for _, tc := range cases {
		rec := serve("GET", tc.target, "", nil)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != tc.contentType || rec.Body.String() != tc.body {
			t.Errorf("GET %s: got %d %q %q", tc.target, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
		}
	}
}

func TestErrorsAreJSON(t *testing.T) {
	valid := `{"name":"a","age":1}`
	cases := []struct {
		method, target, contentType string
		body                        io.Reader
		status                      int
	}{
		{"GET", "/nope", "", nil, http.StatusNotFound},
		{"GET", "/plaintext/extra", "", nil, http.StatusNotFound},
		{"GET", "/PLAINTEXT", "", nil, http.StatusNotFound},
		{"GET", "/user/", "", nil, http.StatusNotFound},
		{"GET", "/user/a/b", "", nil, http.StatusNotFound},
		{"POST", "/nope", "application/json", strings.NewReader(valid), http.StatusNotFound},
		{"POST", "/plaintext", "", nil, http.StatusMethodNotAllowed},
		{"DELETE", "/json", "", nil, http.StatusMethodNotAllowed},
		{"PUT", "/user/42", "", nil, http.StatusMethodNotAllowed},
		{"GET", "/validate", "", nil, http.StatusMethodNotAllowed},
		{"POST", "/validate", "", strings.NewReader(valid), http.StatusUnsupportedMediaType},
		{"POST", "/validate", "text/plain", strings.NewReader(valid), http.StatusUnsupportedMediaType},
		{"POST", "/validate", "application/jsonx", strings.NewReader(valid), http.StatusUnsupportedMediaType},
		{"POST", "/validate", "application/problem+json", strings.NewReader("{"), http.StatusUnsupportedMediaType},
		{"POST", "/validate", "application/json", strings.NewReader(personOfSize(maxBodyBytes + 1)), http.StatusRequestEntityTooLarge},
		// A reader of unknown length is sent chunked: the limit counts what is read.
		{"POST", "/validate", "application/json", io.MultiReader(strings.NewReader(personOfSize(maxBodyBytes + 1))), http.StatusRequestEntityTooLarge},
		{"POST", "/validate", "application/json", strings.NewReader(`{"name":"a","age":"30"}`), http.StatusBadRequest},
		{"POST", "/validate", "application/json", strings.NewReader(strings.Repeat("[", 100000)), http.StatusBadRequest},
	}
	for _, tc := range cases {
		rec := serve(tc.method, tc.target, tc.contentType, tc.body)
		if rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.target, rec.Code, tc.status)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q, want application/json", tc.method, tc.target, ct)
		}
		var body struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error == nil || *body.Error == "" {
			t.Errorf("%s %s: body %q has no error message", tc.method, tc.target, rec.Body.String())
		}
	}
}

func TestMethodNotAllowedNamesTheAllowedMethods(t *testing.T) {
	if allow := serve("PUT", "/user/42", "", nil).Header().Get("Allow"); allow != "GET, HEAD" {
		t.Errorf("PUT /user/42: Allow %q, want GET, HEAD", allow)
	}
	if allow := serve("GET", "/validate", "", nil).Header().Get("Allow"); allow != "POST" {
		t.Errorf("GET /validate: Allow %q, want POST", allow)
	}
}

func TestValidateAcceptsExactlyOneMiB(t *testing.T) {
	for _, contentType := range []string{"application/json", "Application/JSON; charset=utf-8"} {
		rec := serve("POST", "/validate", contentType, strings.NewReader(personOfSize(maxBodyBytes)))
		if rec.Code != http.StatusOK || rec.Body.String() != `{"name":"a","age":1,"valid":true}` {
			t.Errorf("%s: status %d body %.80q, want 200 with the echo", contentType, rec.Code, rec.Body.String())
		}
	}
}

// RFC 9110 §8.3.1: parameters = *( OWS ";" OWS [ parameter ] ), so whitespace around ";" and
// empty parameters are valid (SPEC 4.2).
func TestValidateAcceptsEveryRFCParameterForm(t *testing.T) {
	for _, contentType := range []string{
		"application/json;charset=utf-8", "application/json ; charset=utf-8", "application/json\t;charset=utf-8",
		`application/json; charset="utf-8"`, "application/json; CHARSET=UTF-8", "application/json; foo=bar",
		"application/json;", "application/json;;", "application/json; ;charset=utf-8", "APPLICATION/JSON",
	} {
		rec := serve("POST", "/validate", contentType, strings.NewReader(`{"name":"a","age":1}`))
		if rec.Code != http.StatusOK {
			t.Errorf("Content-Type %q: status %d, want 200", contentType, rec.Code)
		}
	}
	for _, contentType := range []string{"application/jsonx;;", ";;", "text/plain;;"} {
		if rec := serve("POST", "/validate", contentType, strings.NewReader(`{"name":"a","age":1}`)); rec.Code != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q: status %d, want 415", contentType, rec.Code)
		}
	}
}

func TestSettingsFromEnv(t *testing.T) {
	env := map[string]string{"HOST": "127.0.0.1", "PORT": "18600", "WORKERS": "2"}
	s, err := settingsFromEnv(func(k string) string { return env[k] })
	if err != nil || s != (settings{"127.0.0.1", 18600, 2}) {
		t.Errorf("got %+v, %v", s, err)
	}
	s, err = settingsFromEnv(func(string) string { return "" })
	if err != nil || s != (settings{"0.0.0.0", 8080, 1}) {
		t.Errorf("defaults: got %+v, %v", s, err)
	}
	for _, bad := range []map[string]string{{"WORKERS": "0"}, {"WORKERS": "two"}, {"PORT": "70000"}} {
		if _, err := settingsFromEnv(func(k string) string { return bad[k] }); err == nil {
			t.Errorf("%v was accepted", bad)
		}
	}
}
