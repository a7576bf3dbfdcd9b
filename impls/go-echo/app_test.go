package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serve sends one request to the Echo instance, as Echo's testing guide does.
func serve(t *testing.T, method, target, contentType, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	newServer().ServeHTTP(rec, req)
	return rec
}

func decode(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", rec.Body.String(), err)
	}
	return body
}

func TestUserID(t *testing.T) {
	cases := map[string]string{
		"/user/42":           "42",
		"/user/caf%C3%A9":    "café",
		"/user/caf%c3%a9":    "café", // lower-case hex: net/http keeps a RawPath
		"/user/100%2541":     "100%41",
		"/user/John%20Doe":   "John Doe",
		"/user/a+b":          "a+b",
		"/user/42?x=1":       "42",
		"/user/%F0%9F%98%80": "😀",
	}
	for target, want := range cases {
		rec := serve(t, http.MethodGet, target, "", "")
		if rec.Code != http.StatusOK {
			t.Errorf("%s: status %d, want 200", target, rec.Code)
			continue
		}
		if got := decode(t, rec)["id"]; got != want {
			t.Errorf("%s: id %q, want %q", target, got, want)
		}
	}
}

func TestErrorsAreJSON(t *testing.T) {
	cases := []struct {
		method, target string
		status         int
	}{
		{http.MethodGet, "/user/", http.StatusNotFound},
		{http.MethodGet, "/user/a/b", http.StatusNotFound},
		{http.MethodPut, "/user/a/b", http.StatusNotFound},
		{http.MethodPost, "/user/a/b", http.StatusNotFound},
		{http.MethodDelete, "/user/42/", http.StatusNotFound},
		{http.MethodPatch, "/user/a/b/c", http.StatusNotFound},
		{http.MethodPut, "/user/42", http.StatusMethodNotAllowed},
		{http.MethodPut, "/nope/a", http.StatusNotFound},
		{http.MethodGet, "/nope", http.StatusNotFound},
		{http.MethodGet, "/PLAINTEXT", http.StatusNotFound},
		{http.MethodPost, "/plaintext", http.StatusMethodNotAllowed},
		{http.MethodGet, "/validate", http.StatusMethodNotAllowed},
	}
	for _, tc := range cases {
		rec := serve(t, tc.method, tc.target, "", "")
		if rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.target, rec.Code, tc.status)
			continue
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.target, ct)
		}
		if _, ok := decode(t, rec)["error"].(string); !ok {
			t.Errorf("%s %s: no string \"error\" in %s", tc.method, tc.target, rec.Body.String())
		}
	}
}

func TestValidateMediaType(t *testing.T) {
	valid := `{"name":"a","age":1}`
	for ct, status := range map[string]int{
		"application/json":                http.StatusOK,
		"application/json; charset=utf-8": http.StatusOK,
		"Application/JSON":                http.StatusOK,
		// RFC 9110 §8.3.1: parameters = *( OWS ";" OWS [ parameter ] ) (SPEC 4.2).
		"application/json;charset=utf-8":    http.StatusOK,
		"application/json ; charset=utf-8":  http.StatusOK,
		"application/json\t;charset=utf-8":  http.StatusOK,
		`application/json; charset="utf-8"`: http.StatusOK,
		"application/json; CHARSET=UTF-8":   http.StatusOK,
		"application/json; foo=bar":         http.StatusOK,
		"application/json;":                 http.StatusOK,
		"application/json;;":                http.StatusOK,
		"application/json; ;charset=utf-8":  http.StatusOK,
		"APPLICATION/JSON":                  http.StatusOK,
		"application/jsonx;;":               http.StatusUnsupportedMediaType,
		"application/jsonx":                 http.StatusUnsupportedMediaType,
		"text/json":                         http.StatusUnsupportedMediaType,
		"application/problem+json":          http.StatusUnsupportedMediaType,
		"":                                  http.StatusUnsupportedMediaType,
	} {
		if rec := serve(t, http.MethodPost, "/validate", ct, valid); rec.Code != status {
			t.Errorf("Content-Type %q: status %d, want %d", ct, rec.Code, status)
		}
	}
}

func TestValidateBody(t *testing.T) {
	cases := map[string]int{
		`{"name":"Zoë","age":30}`:               http.StatusOK,
		`{"name":"a","age":0}`:                  http.StatusOK,
		`{"name":"a","age":150}`:                http.StatusOK,
		`{"name":"a","age":30.0}`:               http.StatusOK,
		`{"name":"a","age":1.5e2}`:              http.StatusOK,
		`{"Name":"x","name":"y","age":1}`:       http.StatusOK,
		`{"name":"a","age":1,"extra":[1,{}]}`:   http.StatusOK,
		`{"NAME":"a","AGE":1}`:                  http.StatusBadRequest,
		`{"name":"","age":1}`:                   http.StatusBadRequest,
		`{"name":null,"age":1}`:                 http.StatusBadRequest,
		`{"name":1,"age":1}`:                    http.StatusBadRequest,
		`{"name":"a"}`:                          http.StatusBadRequest,
		`{"name":"a","age":null}`:               http.StatusBadRequest,
		`{"name":"a","age":"30"}`:               http.StatusBadRequest,
		`{"name":"a","age":30.5}`:               http.StatusBadRequest,
		`{"name":"a","age":151.0}`:              http.StatusBadRequest,
		`{"name":"a","age":-1}`:                 http.StatusBadRequest,
		`{"name":"a","age":1e400}`:              http.StatusBadRequest,
		`{"name":"a","age":true}`:               http.StatusBadRequest,
		`{"name":"a","age":1} x`:                http.StatusBadRequest,
		`{"name":"a","age":1}{}`:                http.StatusBadRequest,
		"{\"name\":\"a\xff\",\"age\":1}":        http.StatusBadRequest,
		`null`:                                  http.StatusBadRequest,
		`[]`:                                    http.StatusBadRequest,
		``:                                      http.StatusBadRequest,
		`{"name":"a","age":30.000000000000001}`: http.StatusBadRequest,
		`{"name":"a","age":1e-400}`:             http.StatusBadRequest,
		`{"name":"a","age":1e999999999999}`:     http.StatusBadRequest,
	}
	for body, status := range cases {
		if rec := serve(t, http.MethodPost, "/validate", "application/json", body); rec.Code != status {
			t.Errorf("%q: status %d, want %d (%s)", body, rec.Code, status, rec.Body.String())
		}
	}
}

func TestValidateEchoesTheInteger(t *testing.T) {
	rec := serve(t, http.MethodPost, "/validate", "application/json", `{"Name":"x","name":"  y  ","age":3e1}`)
	if got, want := rec.Body.String(), `{"name":"  y  ","age":30,"valid":true}`+"\n"; got != want {
		t.Errorf("body %q, want %q", got, want)
	}
}

func TestBodyOverOneMebibyte(t *testing.T) {
	pad := strings.Repeat("é", 1<<19) // 2 bytes each: the name alone is 1 MiB
	body := `{"name":"` + pad + `","age":1}`
	if rec := serve(t, http.MethodPost, "/validate", "application/json", body); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", rec.Code)
	}
	if rec := serve(t, http.MethodPost, "/validate", "text/plain", body); rec.Code != http.StatusUnsupportedMediaType {
		t.Errorf("over 1 MiB as text/plain: status %d, want 415 (the media type comes first)", rec.Code)
	}
	exact := `{"name":"` + strings.Repeat("a", 1<<20-len(`{"name":"","age":1}`)) + `","age":1}`
	if rec := serve(t, http.MethodPost, "/validate", "application/json", exact); rec.Code != http.StatusOK {
		t.Errorf("exactly 1 MiB: status %d, want 200", rec.Code)
	}
}
