package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func serve(method, target, contentType, body string) *httptest.ResponseRecorder {
	gin.SetMode(gin.ReleaseMode)
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	newRouter().ServeHTTP(rec, req)
	return rec
}

func TestErrorsAreJSON(t *testing.T) {
	padded := `{"name":"a","age":1,"pad":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	cases := []struct {
		method, target, contentType, body string
		status                            int
	}{
		{"GET", "/nope", "", "", http.StatusNotFound},
		{"GET", "/user/", "", "", http.StatusNotFound},
		{"GET", "/user/a/b", "", "", http.StatusNotFound},
		{"POST", "/plaintext", "", "", http.StatusMethodNotAllowed},
		{"GET", "/validate", "", "", http.StatusMethodNotAllowed},
		{"POST", "/validate", "text/plain", `{"name":"a","age":1}`, http.StatusUnsupportedMediaType},
		{"POST", "/validate", "application/jsonx", `{"name":"a","age":1}`, http.StatusUnsupportedMediaType},
		{"POST", "/validate", "", `{"name":"a","age":1}`, http.StatusUnsupportedMediaType},
		{"POST", "/validate", "application/json", padded, http.StatusRequestEntityTooLarge},
		{"POST", "/validate", "application/json", `{"name":"a","age":"30"}`, http.StatusBadRequest},
	}
	for _, tc := range cases {
		rec := serve(tc.method, tc.target, tc.contentType, tc.body)
		if rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.target, rec.Code, tc.status)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q, want application/json", tc.method, tc.target, ct)
		}
		var body struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error == "" {
			t.Errorf("%s %s: body %q has no error message", tc.method, tc.target, rec.Body.String())
		}
	}
}

func TestValidateAcceptsExactlyOneMiB(t *testing.T) {
	prefix, suffix := `{"name":"a","age":1,"pad":"`, `"}`
	body := prefix + strings.Repeat("x", maxBodyBytes-len(prefix)-len(suffix)) + suffix
	rec := serve("POST", "/validate", "Application/JSON; charset=utf-8", body)
	if rec.Code != http.StatusOK || rec.Body.String() != `{"age":1,"name":"a","valid":true}` {
		t.Errorf("status %d body %q, want 200 with the echo", rec.Code, rec.Body.String())
	}
}

// RFC 9110 §8.3.1: parameters = *( OWS ";" OWS [ parameter ] ), OWS being spaces and tabs, and
// empty parameters are valid (SPEC 4.2).
func TestValidateAcceptsEveryRFCParameterForm(t *testing.T) {
	for _, contentType := range []string{
		"application/json;charset=utf-8", "application/json ; charset=utf-8", "application/json\t;charset=utf-8",
		`application/json; charset="utf-8"`, "application/json; CHARSET=UTF-8", "application/json; foo=bar",
		"application/json;", "application/json;;", "application/json; ;charset=utf-8", "APPLICATION/JSON",
	} {
		if rec := serve("POST", "/validate", contentType, `{"name":"a","age":1}`); rec.Code != http.StatusOK {
			t.Errorf("Content-Type %q: status %d, want 200", contentType, rec.Code)
		}
	}
	for _, contentType := range []string{"application/jsonx;;", ";;", "text/plain\t;charset=utf-8"} {
		if rec := serve("POST", "/validate", contentType, `{"name":"a","age":1}`); rec.Code != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q: status %d, want 415", contentType, rec.Code)
		}
	}
}

func TestUserIDIsTheDecodedSegment(t *testing.T) {
	rec := serve("GET", "/user/caf%C3%A9+1?x=1", "", "")
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got["id"] != "café+1" || got["name"] != "User café+1" {
		t.Errorf("got %d %q", rec.Code, rec.Body.String())
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
	if _, err := settingsFromEnv(func(k string) string { return map[string]string{"WORKERS": "0"}[k] }); err == nil {
		t.Error("WORKERS=0 was accepted")
	}
}
