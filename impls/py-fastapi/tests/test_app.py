"""The entry's departures from FastAPI's defaults; docs/SPEC.md is checked in full by the
conformance suite."""

import unittest

from fastapi.testclient import TestClient

from app import MAX_BODY_SIZE, app

JSON = {"Content-Type": "application/json"}


class ValidateTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = TestClient(app)

    def post(self, body: bytes | str, headers: dict[str, str] | None = None):
        return self.client.post("/validate", content=body, headers=JSON if headers is None else headers)

    def assert_error(self, response, status: int) -> None:
        self.assertEqual(response.status_code, status, response.text)
        self.assertEqual(response.headers["content-type"], "application/json")
        self.assertIsInstance(response.json()["error"], str)

    def test_valid_body_is_echoed(self) -> None:
        response = self.post('{"name":"  Zoë 😀 ","age":150,"extra":[1,{}]}')
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.json(), {"name": "  Zoë 😀 ", "age": 150, "valid": True})

    def test_validation_errors_are_400_not_422(self) -> None:
        for body in ('{"name":"a","age":"30"}', '{"name":"a","age":true}', '{"name":"a","age":30.5}',
                     '{"name":"a","age":151}', '{"name":"","age":1}', '{"NAME":"a","AGE":1}', "null", "[]", ""):
            with self.subTest(body=body):
                self.assert_error(self.post(body), 400)

    def test_integral_floats_are_integers(self) -> None:
        for body, age in (('{"name":"a","age":30.0}', 30), ('{"name":"a","age":1.5e2}', 150)):
            with self.subTest(body=body):
                response = self.post(body)
                self.assertEqual(response.status_code, 200, response.text)
                self.assertEqual(response.content.count(b'"age":%d,' % age), 1)
        self.assert_error(self.post('{"name":"a","age":151.0}'), 400)

    def test_fractions_too_fine_for_a_float_are_fractions(self) -> None:
        for body in ('{"name":"a","age":30.000000000000001}', '{"name":"a","age":150.0000000000000000001}',
                     '{"name":"a","age":1e-400}', '{"name":"a","age":-1e-400}', '{"name":"a","age":1e400}',
                     '{"name":"a","age":1e999999999}', '{"name":"a","age":1e-999999999}'):
            with self.subTest(body=body):
                self.assert_error(self.post(body), 400)
        response = self.post('{"name":"a","age":1500e-1,"x":1e400}')
        self.assertEqual(response.status_code, 200, response.text)
        self.assertEqual(response.json()["age"], 150)

    def test_exponents_beyond_a_decimal(self) -> None:
        for body in ('{"name":"a","age":1,"x":1e99999999999999999999}', '{"x":[0.5e-99999999999999999999],"name":"a","age":1}'):
            with self.subTest(body=body):
                response = self.post(body)
                self.assertEqual(response.status_code, 200, response.text)
        for age in ("1e99999999999999999999", "-1E+1000000000000000000", "30e-18446744073709551615"):
            with self.subTest(age=age):
                self.assert_error(self.post('{"name":"a","age":%s}' % age), 400)
        response = self.post('{"name":"a","age":0e99999999999999999999}')
        self.assertEqual(response.status_code, 200, response.text)
        self.assertEqual(response.json()["age"], 0)

    def test_strict_json(self) -> None:
        for body in ('{"name":"a","age":NaN}', '{"name":"a","age":1,"x":Infinity}', "[" * 100_000,
                     '{"name":"a","age":1} x'):
            with self.subTest(body=body[:40]):
                self.assert_error(self.post(body), 400)
        self.assert_error(self.post(b'{"name":"\xff","age":1}'), 400)
        utf16 = '{"name":"a","age":1}'.encode("utf-16")
        self.assert_error(self.post(utf16), 400)

    def test_media_type(self) -> None:
        ok = '{"name":"a","age":1}'
        self.assertEqual(self.post(ok, {"Content-Type": "Application/JSON; charset=utf-8"}).status_code, 200)
        for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/jsonx"}, {},
                        {"Content-Type": "text/json"}, {"Content-Type": "application/problem+json"}):
            for body in (ok, "{", "[]"):
                with self.subTest(headers=headers, body=body):
                    self.assert_error(self.post(body, headers), 415)

    def test_body_limit(self) -> None:
        padding = MAX_BODY_SIZE - len('{"name":"","age":1}')
        exact = '{"name":"' + "a" * padding + '","age":1}'
        self.assertEqual(len(exact), MAX_BODY_SIZE)
        self.assertEqual(self.post(exact).status_code, 200)
        self.assert_error(self.post(exact + " "), 413)

    def test_body_limit_without_content_length(self) -> None:
        def chunks():
            for _ in range(MAX_BODY_SIZE // 65536 + 1):
                yield b" " * 65536

        response = self.client.post("/validate", content=chunks(), headers=JSON)
        self.assert_error(response, 413)


class RoutingTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = TestClient(app)

    def test_errors_are_json(self) -> None:
        for method, path, status in (("GET", "/nope", 404), ("GET", "/user/", 404), ("GET", "/user/a/b", 404),
                                     ("POST", "/plaintext", 405), ("GET", "/validate", 405)):
            with self.subTest(method=method, path=path):
                response = self.client.request(method, path)
                self.assertEqual(response.status_code, status)
                self.assertEqual(response.headers["content-type"], "application/json")
                self.assertIsInstance(response.json()["error"], str)

    def test_user_id_is_percent_decoded(self) -> None:
        response = self.client.get("/user/caf%C3%A9+1")
        self.assertEqual(response.json(), {"id": "café+1", "name": "User café+1"})


if __name__ == "__main__":
    unittest.main()
