"""The entry's own choices, through Flask's test client (docs/SPEC.md is checked in full, on the
real servers, by the conformance suite). Run from impls/py-flask:

    .venv/bin/python -m unittest discover -s tests
"""

import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import time
import unittest
from pathlib import Path

from werkzeug.test import EnvironBuilder

from app import MAX_BODY_SIZE, app

ENTRY = Path(__file__).resolve().parent.parent
OK = '{"name":"a","age":1}'


class AppTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = app.test_client()

    def post(self, body: str | bytes, content_type: str | None = "application/json"):
        headers = {} if content_type is None else {"Content-Type": content_type}
        return self.client.post("/validate", data=body, headers=headers)

    def post_chunked(self, body: bytes) -> tuple[int, dict]:
        """As bjoern passes a chunked body: read in full, no CONTENT_LENGTH, input terminated."""
        environ = EnvironBuilder(method="POST", path="/validate", content_type="application/json").get_environ()
        environ.pop("CONTENT_LENGTH", None)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["wsgi.input_terminated"] = True
        statuses = []
        answer = b"".join(app(environ, lambda status, headers: statuses.append(status)))
        return int(statuses[0].split()[0]), json.loads(answer)

    def assert_error(self, response, status: int) -> None:
        self.assertEqual(response.status_code, status, response.data)
        self.assertEqual(response.mimetype, "application/json")
        self.assertIsInstance(response.get_json()["error"], str)
        self.assertNotIn(b"Traceback", response.data)

    def test_plaintext_and_json(self) -> None:
        response = self.client.get("/plaintext")
        self.assertEqual((response.data, response.mimetype), (b"Hello, World!", "text/plain"))
        self.assertEqual(self.client.get("/json").get_json(), {"message": "Hello, World!"})

    def test_user_id_is_percent_decoded_once_as_utf8(self) -> None:
        for segment, user_id in (("42", "42"), ("caf%C3%A9", "café"), ("%F0%9F%98%80", "😀"),
                                 ("100%2541", "100%41"), ("John%20Doe", "John Doe"), ("a+b", "a+b")):
            with self.subTest(segment=segment):
                response = self.client.get(f"/user/{segment}?x=1")
                self.assertEqual(response.get_json(), {"id": user_id, "name": f"User {user_id}"})

    def test_routing_errors_are_json(self) -> None:
        for method, path, status in (("GET", "/nope", 404), ("GET", "/user/", 404), ("GET", "/user/a/b", 404),
                                     ("GET", "/PLAINTEXT", 404), ("POST", "/plaintext", 405),
                                     ("PUT", "/user/42", 405), ("GET", "/validate", 405)):
            with self.subTest(method=method, path=path):
                self.assert_error(self.client.open(path, method=method), status)
        self.assertIn("GET", self.client.delete("/json").headers["Allow"])

    def test_valid_body_is_echoed(self) -> None:
        response = self.post('{"name":"  Zoë 😀 \\"q\\" \\u0000","age":150,"extra":[1,{}],"Name":"x"}')
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.get_json(), {"name": '  Zoë 😀 "q" \x00', "age": 150, "valid": True})

    def test_invalid_fields_are_400(self) -> None:
        for body in ('{"age":1}', '{"name":1,"age":1}', '{"name":"","age":1}', '{"name":"a"}',
                     '{"name":"a","age":"30"}', '{"name":"a","age":true}', '{"name":"a","age":false}',
                     '{"name":"a","age":null}', '{"name":"a","age":[30]}', '{"name":"a","age":30.5}',
                     '{"name":"a","age":-1}', '{"name":"a","age":151}', '{"name":"a","age":151.0}',
                     '{"name":"a","age":1e400}', '{"name":"a","age":99999999999999999999}',
                     '{"name":"a","age":' + "9" * 5000 + "}", '{"NAME":"a","AGE":1}'):
            with self.subTest(body=body[:40]):
                self.assert_error(self.post(body), 400)

    def test_lone_surrogate_name_is_400(self) -> None:
        self.assert_error(self.post('{"name":"\\ud800","age":1}'), 400)
        self.assertEqual(self.post('{"name":"\\ud83d\\ude00","age":1}').get_json()["name"], "😀")

    def test_integral_floats_are_integers(self) -> None:
        for body, age in (('{"name":"a","age":30.0}', 30), ('{"name":"a","age":3e1}', 30),
                          ('{"name":"a","age":1.5e2}', 150)):
            with self.subTest(body=body):
                response = self.post(body)
                self.assertEqual(response.status_code, 200)
                self.assertIn(b'"age":%d,' % age, response.data)

    def test_fractions_too_fine_for_a_float_are_fractions(self) -> None:
        for literal in ("30.000000000000001", "150.0000000000000000001", "1e-400", "-1e-400",
                        "1e999999999", "1e-999999999"):
            with self.subTest(age=literal):
                self.assert_error(self.post('{"name":"a","age":%s}' % literal), 400)
        for literal, age in (("1500e-1", 150), ("-0.0", 0), ("0e999999999", 0)):
            with self.subTest(age=literal):
                response = self.post('{"name":"a","age":%s,"x":1.5e-400}' % literal)
                self.assertEqual(response.status_code, 200, response.data)
                self.assertIn(b'"age":%d,' % age, response.data)

    def test_exponents_beyond_a_decimal_never_500(self) -> None:
        # Beyond |exponent| 999999999999999999 Decimal raises InvalidOperation, an ArithmeticError
        # that get_json() does not turn into a 400 as it does a ValueError (a 500 before exact_number).
        for body in ['{"name":"a","age":%s}' % literal for literal in (
                "1e99999999999999999999", "-1e99999999999999999999", "3e18446744073709551617",
                "30e-18446744073709551615", "1E+1000000000000000000", "1e-1999999999999999998")] + [
                # within a Decimal's range: the checks of age must not raise either
                '{"name":"a","age":1e999999999999999999}', '{"name":"a","age":1e-1999999999999999997}',
                '{"name":"a","age":-9.9e999999999999999999}']:
            with self.subTest(body=body):
                self.assert_error(self.post(body), 400)
        # Zero times any power of ten is exactly 0: an integer age (SPEC 7.10). Under an unknown key
        # any number is ignored (SPEC 8.6).
        for body, age in [('{"name":"a","age":%s}' % literal, 0) for literal in (
                "0e99999999999999999999", "-0.0E-99999999999999999999", "0e999999999999999999",
                "0e-1999999999999999997")] + [(body, 1) for body in (
                '{"name":"a","age":1,"x":[0.0e-99999999999999999999]}', '{"name":"a","age":1,"x":1e99999999999999999999}',
                '{"x":-1e99999999999999999999,"name":"a","age":1}', '{"name":"a","age":1,"x":[3.5e-99999999999999999999]}')]:
            with self.subTest(body=body):
                response = self.post(body)
                self.assertEqual((response.status_code, response.get_json()),
                                 (200, {"name": "a", "age": age, "valid": True}))

    def test_strict_json(self) -> None:
        for body in ("", "null", "[]", '"a"', "42", "{", "{'name':'a','age':1}", '{"name":"a","age":1,}',
                     OK + " x", OK + OK, '{"name":"a","age":NaN}', '{"name":"a","age":1,"x":-Infinity}',
                     '{"name":Infinity,"age":1}', "[" * 100_000, '{"a":' * 100_000, '{"name":"a\x01","age":1}'):
            with self.subTest(body=body[:40]):
                self.assert_error(self.post(body), 400)
        self.assert_error(self.post(b'{"name":"\xff","age":1}'), 400)
        self.assert_error(self.post(OK.encode("utf-16")), 400)

    def test_duplicate_keys_last_wins(self) -> None:
        self.assertEqual(self.post('{"name":"a","name":"b","age":1}').get_json()["name"], "b")

    def test_media_type(self) -> None:
        for content_type in ("application/json; charset=utf-8", "Application/JSON"):
            with self.subTest(content_type=content_type):
                self.assertEqual(self.post(OK, content_type).status_code, 200)
        for content_type in ("text/plain", "application/x-www-form-urlencoded", "application/jsonx", "text/json",
                             "application/problem+json", "application/vnd.api+json", None):
            for body in (OK, "{", "[]"):
                with self.subTest(content_type=content_type, body=body):
                    self.assert_error(self.post(body, content_type), 415)

    def test_body_limit_in_bytes(self) -> None:
        padding = MAX_BODY_SIZE - len('{"name":"","age":1}')
        exact = '{"name":"' + "é" * (padding // 2) + "a" * (padding % 2) + '","age":1}'
        self.assertEqual(len(exact.encode()), MAX_BODY_SIZE)
        self.assertEqual(self.post(exact).status_code, 200)
        self.assert_error(self.post(exact.encode() + b" "), 413)
        self.assert_error(self.post(b"x" * (2 * MAX_BODY_SIZE), "text/plain"), 415)  # media type first

    def test_chunked_body_over_limit_is_413_not_truncated(self) -> None:
        # Cut at 1 MiB, this body would be valid JSON: Werkzeug alone would answer 200.
        over = OK.encode() + b" " * MAX_BODY_SIZE
        self.assertEqual(self.post_chunked(over)[0], 413)
        exact = OK.encode() + b" " * (MAX_BODY_SIZE - len(OK))
        self.assertEqual(self.post_chunked(exact), (200, {"name": "a", "age": 1, "valid": True}))

    def test_unexpected_error_is_json_without_traceback(self) -> None:
        with app.test_request_context("/validate", method="POST"), self.assertLogs(app.logger, "ERROR") as logs:
            try:
                raise RuntimeError("boom")
            except RuntimeError as error:
                response = app.handle_exception(error)
        self.assert_error(response, 500)
        self.assertNotIn(b"boom", response.data)
        self.assertIn("Traceback", logs.output[0])  # the traceback goes to the log only

    def test_production_mode(self) -> None:
        self.assertFalse(app.debug)
        self.assertFalse(app.testing)


class ServeTest(unittest.TestCase):
    def serve(self, *args: str, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "serve.py", *args], cwd=ENTRY, capture_output=True, text=True,
                              timeout=30, env={**os.environ, "HOST": "127.0.0.1", "PORT": "0", **env})

    def test_refuses_unknown_server_and_bad_workers(self) -> None:
        for args, env, message in ((["gunicorn"],  {}, "unknown server"),
                                   (["waitress"], {"WORKERS": "0"}, "at least 1"),
                                   (["waitress"], {"WORKERS": "two"}, "must be integers")):
            with self.subTest(args=args, env=env):
                result = self.serve(*args, **env)
                self.assertEqual(result.returncode, 2)
                self.assertIn(message, result.stderr)

    @contextlib.contextmanager
    def waitress(self):
        """serve.py waitress on a free port; yields a function that sends raw bytes on a new
        connection and returns everything the server answers until it closes (5 s at most)."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen([sys.executable, "serve.py", "waitress"], cwd=ENTRY, stderr=subprocess.PIPE,
                                  env={**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": "1"})

        def exchange(request: bytes) -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(4096):
                    answer += chunk
                return answer

        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=5).close()
                    break
                except ConnectionRefusedError:
                    self.assertLess(time.monotonic(), deadline, "waitress did not start")
                    time.sleep(0.1)
            yield exchange
        finally:
            server.terminate()
            server.wait(timeout=10)

    def assert_json_error(self, answer: bytes, status: int) -> None:
        head, _, body = answer.partition(b"\r\n\r\n")
        self.assertEqual(head.split(b" ", 2)[1], b"%d" % status, answer)  # HTTP/1.0 if the request line was not read
        self.assertIn(b"\r\nContent-Type: application/json\r\n", head + b"\r\n", answer)
        self.assertIsInstance(json.loads(body)["error"], str)

    def test_waitress_answers_a_bodiless_request_sent_with_expect_100_continue(self) -> None:
        # waitress 3.0.2 alone sends "100 Continue" and then waits for a body that never comes.
        with self.waitress() as exchange:
            answer = exchange(b"POST /validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                              b"Expect: 100-continue\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        final = answer.split(b"\r\n\r\n", 1)[1] if answer.startswith(b"HTTP/1.1 100") else answer
        self.assertTrue(final.startswith(b"HTTP/1.1 400"), answer)

    def test_waitress_answers_a_declared_body_over_the_limit_from_the_head(self) -> None:
        # waitress alone waits for the whole body (answering a Content-Length from 1 GiB up with its
        # own text/plain 413); here Flask answers from the head, and the body is never sent.
        head = b"POST /validate HTTP/1.1\r\nHost: t\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
        with self.waitress() as exchange:
            for length in (MAX_BODY_SIZE + 1, 128 * MAX_BODY_SIZE + 1, 1 << 30, 1 << 40, (1 << 63) - 1, (1 << 64) + 1):
                with self.subTest(length=length):
                    answer = exchange(head % (b"application/json", length) + b'{"name":')
                    self.assert_json_error(answer, 413)
                    self.assertIn(b"\r\nConnection: close\r\n", answer)
                    # the media type first, whatever the size (SPEC 4.4)
                    self.assert_json_error(exchange(head % (b"text/plain", length)), 415)
            # sent with Expect: 100-continue, the 413 comes at once, without a 100 (SPEC 11.3)
            answer = exchange(b"POST /validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                              b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY_SIZE + 1))
            self.assert_json_error(answer, 413)

    def test_waitress_own_errors_are_json(self) -> None:
        with self.waitress() as exchange:
            for request in (b"POST /validate HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n",
                            b"POST /validate HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                            b"GET /plaintext HTTP/1.1\r\nBad Header\r\n\r\n"):
                with self.subTest(request=request):
                    self.assert_json_error(exchange(request), 400)


if __name__ == "__main__":
    unittest.main()
