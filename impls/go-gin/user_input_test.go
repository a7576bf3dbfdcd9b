package main

import (
	"strings"
	"testing"
)

func TestDecodeUserInputAccepts(t *testing.T) {
	cases := []struct {
		body string
		name string
		age  int
	}{
		{`{"name":"a","age":0}`, "a", 0},
		{`{"name":"a","age":150}`, "a", 150},
		{`{"name":" ","age":1}`, " ", 1},
		{`{"name":"  padded  ","age":1}`, "  padded  ", 1},
		{`{"name":"😀","age":1}`, "😀", 1},
		{`{"name":"Zoë \"q\" \\ \n\t\u0000","age":1}`, "Zoë \"q\" \\ \n\t\x00", 1},
		{`{"Name":"x","name":"y","age":1}`, "y", 1},
		{`{"name":"y","Name":"x","age":1}`, "y", 1},
		{`{"name":"a","age":1,"extra":[1,{}]}`, "a", 1},
		{`{"name":"a","age":1,"name":"b","age":2}`, "b", 2},
	}
	for _, tc := range cases {
		in, err := decodeUserInput([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: unexpected error %q", tc.body, err)
			continue
		}
		if *in.Name != tc.name || *in.Age != tc.age {
			t.Errorf("%s: got name %q age %d, want %q %d", tc.body, *in.Name, *in.Age, tc.name, tc.age)
		}
	}
}

func TestDecodeUserInputRejects(t *testing.T) {
	cases := []struct {
		body    string
		message string
	}{
		{``, "request body is not valid JSON"},
		{`{"name":"a","age":1} x`, "request body is not valid JSON"},
		{`{"name":"a","age":1}{}`, "request body is not valid JSON"},
		{`{"name":"a","age":NaN}`, "request body is not valid JSON"},
		{"{\"name\":\"a\x01\",\"age\":1}", "request body is not valid JSON"},
		{"{\"name\":\"\xff\",\"age\":1}", "request body is not valid UTF-8"},
		{strings.Repeat("[", 100000), "request body is not valid JSON"},
		{`null`, "request body must be a JSON object, got null"},
		{`[]`, "request body must be a JSON object, got array"},
		{`42`, "request body must be a JSON object, got number"},
		{`{"age":1}`, "name is required"},
		{`{"NAME":"a","AGE":1}`, "name is required"},
		{`{"name":null,"age":1}`, "name is required"},
		{`{"name":"","age":1}`, "name must be a non-empty string"},
		{`{"name":1,"age":1}`, "name must be a non-empty string, got number"},
		{`{"name":"a"}`, "age is required"},
		{`{"name":"a","age":null}`, "age is required"},
		{`{"name":"a","age":-1}`, "age must be an integer from 0 to 150"},
		{`{"name":"a","age":151}`, "age must be an integer from 0 to 150"},
		{`{"name":"a","age":"30"}`, "age must be an integer from 0 to 150, got string"},
		{`{"name":"a","age":true}`, "age must be an integer from 0 to 150, got bool"},
		{`{"name":"a","age":[30]}`, "age must be an integer from 0 to 150, got array"},
		{`{"name":"a","age":30.5}`, "age must be an integer from 0 to 150, got number 30.5"},
		{`{"name":"a","age":1e400}`, "age must be an integer from 0 to 150, got number 1e400"},
		{`{"name":"a","age":99999999999999999999}`, "age must be an integer from 0 to 150, got number 99999999999999999999"},
		{`{"name":"a","age":30.0}`, "age must be an integer from 0 to 150, got number 30.0"},
	}
	for _, tc := range cases {
		_, err := decodeUserInput([]byte(tc.body))
		if err == nil {
			t.Errorf("%.40s: accepted, want error %q", tc.body, tc.message)
		} else if !strings.HasPrefix(err.Error(), tc.message) {
			t.Errorf("%.40s: error %q, want it to start with %q", tc.body, err, tc.message)
		}
	}
}
