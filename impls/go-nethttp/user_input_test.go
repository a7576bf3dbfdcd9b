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
		{`{"name":"a","age":30.0}`, "a", 30},
		{`{"name":"a","age":3e1}`, "a", 30},
		{`{"name":"a","age":1.5e2}`, "a", 150},
		{`{"name":" ","age":1}`, " ", 1},
		{`{"name":"  padded  ","age":1}`, "  padded  ", 1},
		{`{"name":"😀","age":1}`, "😀", 1},
		{`{"name":"Zoë \"q\" \\ \n\t\u0000","age":1}`, "Zoë \"q\" \\ \n\t\x00", 1},
		{`{"name":"\ud800","age":1}`, "\ufffd", 1},
		{`{"Name":"x","name":"y","age":1}`, "y", 1},
		{`{"name":"y","Name":"x","age":1}`, "y", 1},
		{`{"name":"a","age":1,"extra":[1,{}]}`, "a", 1},
		{`{"name":"a","age":1,"name":"b","age":2}`, "b", 2},
		{`{"name":"a","age":-0}`, "a", 0},
		{`{"name":"a","age":1500e-1}`, "a", 150},
		{`{"name":"a","age":0.0e99999999999}`, "a", 0},
		{`{"name":"a","age":1,"x":-1e400}`, "a", 1},
		{`{"name":"a","age":1,"x":1` + strings.Repeat("0", 400) + `}`, "a", 1},
	}
	for _, tc := range cases {
		in, err := decodeUserInput([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: unexpected error %q", tc.body, err)
		} else if in != (userInput{tc.name, tc.age}) {
			t.Errorf("%s: got %+v, want %q %d", tc.body, in, tc.name, tc.age)
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
		{`{"name":"a","age":1,}`, "request body is not valid JSON"},
		{`{'name':"a","age":1}`, "request body is not valid JSON"},
		{`{"name":"a","age":NaN}`, "request body is not valid JSON"},
		{`{"name":"a","age":1,"x":-Infinity}`, "request body is not valid JSON"},
		{"{\"name\":\"a\x01\",\"age\":1}", "request body is not valid JSON"},
		{"{\"name\":\"\xff\",\"age\":1}", "request body is not valid UTF-8"},
		{strings.Repeat("[", 100000), "request body is not valid JSON"},
		{`{"name":"a","age":1,"x":` + strings.Repeat(`{"a":`, 100000), "request body is not valid JSON"},
		{`null`, "request body must be a JSON object, got null"},
		{`[]`, "request body must be a JSON object, got an array"},
		{`"a string"`, "request body must be a JSON object, got a string"},
		{`42`, "request body must be a JSON object, got a number"},
		{`true`, "request body must be a JSON object, got a boolean"},
		{`{"age":1}`, "name is required"},
		{`{"NAME":"a","AGE":1}`, "name is required"},
		{`{"name":null,"age":1}`, "name is required"},
		{`{"name":"","age":1}`, "name must be a non-empty string"},
		{`{"name":1,"age":1}`, "name must be a non-empty string, got a number"},
		{`{"name":["a"],"age":1}`, "name must be a non-empty string, got an array"},
		{`{"name":"a"}`, "age is required"},
		{`{"name":"a","AGE":1}`, "age is required"},
		{`{"name":"a","age":null}`, "age is required"},
		{`{"name":"a","age":-1}`, "age must be an integer from 0 to 150, got -1"},
		{`{"name":"a","age":151}`, "age must be an integer from 0 to 150, got 151"},
		{`{"name":"a","age":151.0}`, "age must be an integer from 0 to 150, got 151.0"},
		{`{"name":"a","age":"30"}`, "age must be an integer from 0 to 150, got a string"},
		{`{"name":"a","age":true}`, "age must be an integer from 0 to 150, got a boolean"},
		{`{"name":"a","age":[30]}`, "age must be an integer from 0 to 150, got an array"},
		{`{"name":"a","age":{"value":30}}`, "age must be an integer from 0 to 150, got an object"},
		{`{"name":"a","age":30.5}`, "age must be an integer from 0 to 150, got 30.5"},
		{`{"name":"a","age":0.1}`, "age must be an integer from 0 to 150, got 0.1"},
		{`{"name":"a","age":99999999999999999999}`, "age must be an integer from 0 to 150, got 99999999999999999999"},
		{`{"name":"a","age":1e400}`, "age must be an integer from 0 to 150, got 1e400"},
		{`{"name":"a","age":30.000000000000001}`, "age must be an integer from 0 to 150, got 30.000000000000001"},
		{`{"name":"a","age":150.0000000000000000001}`, "age must be an integer from 0 to 150, got 150.0000000000000000001"},
		{`{"name":"a","age":1e-400}`, "age must be an integer from 0 to 150, got 1e-400"},
		{`{"name":"a","age":-1e-400}`, "age must be an integer from 0 to 150, got -1e-400"},
		{`{"name":"a","age":1e999999999999}`, "age must be an integer from 0 to 150, got 1e999999999999"},
		{`{"name":"a","age":1e-999999999999}`, "age must be an integer from 0 to 150, got 1e-999999999999"},
		{`{"name":"a","age":1}]`, "request body is not valid JSON"},
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
