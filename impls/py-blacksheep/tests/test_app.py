"""The entry's departures from BlackSheep's defaults, in both JSON configurations, through the
ASGI interface with BlackSheep's testing helpers; docs/SPEC.md is checked in full by the
conformance suite."""

import json
import unittest

import orjson
from blacksheep.settings.json import default_json_dumps, json_settings
from blacksheep.testing.helpers import get_example_scope
from blacksheep.testing.messages import MockReceive, MockSend

from app import MAX_BODY_SIZE, app, strict_loads
from app_orjson import orjson_dumps

JSON = [(b"content-type", b"application/json")]


class StdlibJsonTest(unittest.IsolatedAsyncioTestCase):
    loads = staticmethod(strict_loads)
    dumps = staticmethod(default_json_dumps)
    surrogates_refused_anywhere = False

    async def asyncSetUp(self) -> None:
        json_settings.use(loads=self.loads, dumps=self.dumps)
        if not app.started:
            await app.start()

    async def call(self, method: str, path: str, chunks=(b"",), headers=()) -> tuple[int, dict, bytes]:
        send = MockSend()
        await app(get_example_scope(method, path, list(headers)), MockReceive(list(chunks)), send)
        start, *body = send.messages
        headers = {name.lower(): value for name, value in start["headers"]}
        return start["status"], headers, b"".join(m.get("body", b"") for m in body)

    async def post(self, body: bytes | str, headers=JSON) -> tuple[int, dict, bytes]:
        body = body.encode() if isinstance(body, str) else body
        length = [(b"content-length", str(len(body)).encode())]
        return await self.call("POST", "/validate", [body], list(headers) + length)

    def assert_error(self, answer: tuple[int, dict, bytes], status: int) -> None:
        self.assertEqual(answer[0], status, answer[2])
        self.assertEqual(answer[1][b"content-type"], b"application/json")
        self.assertIsInstance(json.loads(answer[2])["error"], str)

    async def test_valid_body_is_echoed(self) -> None:
        status, _, body = await self.post('{"name":"  Zoë 😀 ","age":150,"extra":[1,{}]}')
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), {"name": "  Zoë 😀 ", "age": 150, "valid": True})

    async def test_invalid_fields_are_400(self) -> None:
        for body in ('{"name":"a","age":"30"}', '{"name":"a","age":true}', '{"name":"a","age":false}',
                     '{"name":"a","age":30.5}', '{"name":"a","age":151}', '{"name":"a","age":1e400}',
                     '{"name":"a","age":99999999999999999999}', '{"name":"","age":1}', '{"NAME":"a","AGE":1}',
                     "null", "[]", "42", ""):
            with self.subTest(body=body):
                self.assert_error(await self.post(body), 400)

    async def test_integral_floats_are_integers(self) -> None:
        for body, age in (('{"name":"a","age":30.0}', 30), ('{"name":"a","age":1.5e2}', 150)):
            with self.subTest(body=body):
                status, _, answer = await self.post(body)
                self.assertEqual(status, 200, answer)
                self.assertEqual(answer.replace(b" ", b"").count(b'"age":%d,' % age), 1)
        self.assert_error(await self.post('{"name":"a","age":151.0}'), 400)

    # The standard library parses fractions as exact Decimals; orjson reads every number into a
    # float64 and has no hook to do otherwise, so there 30.000000000000001 is 30 (README).
    exact_fractions = True

    async def test_fractions_too_fine_for_a_float_are_fractions(self) -> None:
        if not self.exact_fractions:
            self.skipTest("orjson reads numbers as float64")
        for literal in ("30.000000000000001", "150.0000000000000000001", "1e-400", "-1e-400",
                        "1e999999999", "1e-999999999"):
            with self.subTest(age=literal):
                self.assert_error(await self.post('{"name":"a","age":%s}' % literal), 400)
        for literal, age in (("1500e-1", 150), ("-0.0", 0), ("0e999999999", 0)):
            with self.subTest(age=literal):
                status, _, answer = await self.post('{"name":"a","age":%s,"x":1.5e-400}' % literal)
                self.assertEqual(status, 200, answer)
                self.assertEqual(answer.replace(b" ", b"").count(b'"age":%d,' % age), 1)

    # Exponents beyond what a Decimal holds (|exponent| > 999999999999999999): Decimal raises
    # InvalidOperation, an ArithmeticError, not a ValueError (a 500 before exact_number).
    beyond_decimal = ("1e99999999999999999999", "-1e99999999999999999999", "3e18446744073709551617",
                      "30e-18446744073709551615", "1E+1000000000000000000", "1e-1999999999999999998")

    async def test_exponents_beyond_a_decimal_never_500(self) -> None:
        if not self.exact_fractions:
            # orjson reads them as a float64 (inf is refused, a tiny number is 0.0): never a 500.
            for literal in self.beyond_decimal + ("0e99999999999999999999",):
                with self.subTest(age=literal):
                    answer = await self.post('{"name":"a","age":%s}' % literal)
                    self.assertIn(answer[0], (200, 400), answer[2])
            return
        for body in ['{"name":"a","age":%s}' % literal for literal in self.beyond_decimal] + [
                # within a Decimal's range: the checks of age must not raise either
                '{"name":"a","age":1e999999999999999999}', '{"name":"a","age":1e-1999999999999999997}',
                '{"name":"a","age":-9.9e999999999999999999}']:
            with self.subTest(body=body):
                self.assert_error(await self.post(body), 400)
        # Zero times any power of ten is exactly 0: an integer age (SPEC 7.10). Under an unknown key
        # any number is ignored (SPEC 8.6).
        for body, age in [('{"name":"a","age":%s}' % literal, 0) for literal in (
                "0e99999999999999999999", "-0.0E-99999999999999999999", "0e999999999999999999",
                "0e-1999999999999999997")] + [(body, 1) for body in (
                '{"name":"a","age":1,"x":[0.0e-99999999999999999999]}', '{"name":"a","age":1,"x":1e99999999999999999999}',
                '{"x":-1e99999999999999999999,"name":"a","age":1}', '{"name":"a","age":1,"x":[3.5e-99999999999999999999]}')]:
            with self.subTest(body=body):
                status, _, answer = await self.post(body)
                self.assertEqual((status, json.loads(answer)), (200, {"name": "a", "age": age, "valid": True}))

    async def test_strict_json(self) -> None:
        for body in ('{"name":"a","age":NaN}', '{"name":"a","age":1,"x":-Infinity}', "[" * 100_000,
                     '{"name":"a","age":1} x', '{"name":"a\x01","age":1}'):
            with self.subTest(body=body[:40]):
                self.assert_error(await self.post(body), 400)
        self.assert_error(await self.post(b'{"name":"\xff","age":1}'), 400)
        self.assert_error(await self.post('{"name":"a","age":1}'.encode("utf-16")), 400)

    async def test_lone_surrogates_are_400_or_ignored(self) -> None:
        # A lone surrogate escape is valid JSON grammar but not text: never a 500 from the encoder.
        for body in (r'{"name":"\ud800","age":1}', r'{"name":"\udc00","age":1}',
                     r'{"name":"a\udc00\ud800b","age":1}', r'{"name":"\ud800x","age":1}'):
            with self.subTest(body=body):
                self.assert_error(await self.post(body), 400)
        # Under an unknown key it is never echoed: the standard library ignores it, orjson refuses it.
        answer = await self.post(r'{"name":"\ud83d\ude00","age":1,"x":"\ud800"}')
        if self.surrogates_refused_anywhere:
            self.assert_error(answer, 400)
        else:
            self.assertEqual((answer[0], json.loads(answer[2])), (200, {"name": "😀", "age": 1, "valid": True}))

    async def test_media_type(self) -> None:
        ok = '{"name":"a","age":1}'
        status, _, _ = await self.post(ok, [(b"content-type", b"Application/JSON; charset=utf-8")])
        self.assertEqual(status, 200)
        for headers in ([(b"content-type", b"text/plain")], [(b"content-type", b"application/jsonx")], []):
            with self.subTest(headers=headers):
                self.assert_error(await self.post(ok, headers), 415)

    async def test_body_limit(self) -> None:
        padding = MAX_BODY_SIZE - len('{"name":"","age":1}')
        exact = '{"name":"' + "a" * padding + '","age":1}'
        self.assertEqual(len(exact), MAX_BODY_SIZE)
        self.assertEqual((await self.post(exact))[0], 200)
        self.assert_error(await self.post(exact + " "), 413)

    async def test_declared_length_over_limit_is_refused_before_reading(self) -> None:
        headers = JSON + [(b"content-length", str(MAX_BODY_SIZE + 1).encode())]
        receive = MockReceive([{"type": "http.disconnect"}])  # reading the body would fail
        send = MockSend()
        await app(get_example_scope("POST", "/validate", headers), receive, send)
        self.assertEqual(send.messages[0]["status"], 413)

    async def test_chunked_body_over_limit(self) -> None:
        chunks = [b" " * 65536] * (MAX_BODY_SIZE // 65536 + 1)
        self.assert_error(await self.call("POST", "/validate", chunks, JSON), 413)

    async def test_user_id_is_percent_decoded_once(self) -> None:
        for segment, user_id in (("100%2541", "100%41"), ("%25", "%"), ("caf%C3%A9", "café")):
            with self.subTest(segment=segment):
                status, _, body = await self.call("GET", f"/user/{segment}")
                self.assertEqual(status, 200)
                self.assertEqual(json.loads(body), {"id": user_id, "name": f"User {user_id}"})

    async def test_routing_errors_are_json(self) -> None:
        for method, path, status in (("GET", "/nope", 404), ("GET", "/user/", 404), ("GET", "/user/a/b", 404),
                                     ("POST", "/plaintext", 405), ("GET", "/validate", 405)):
            with self.subTest(method=method, path=path):
                self.assert_error(await self.call(method, path), status)
        _, headers, _ = await self.call("DELETE", "/json")
        self.assertEqual(headers[b"allow"], b"GET")


class OrjsonTest(StdlibJsonTest):
    loads = staticmethod(orjson.loads)
    dumps = staticmethod(orjson_dumps)
    surrogates_refused_anywhere = True
    exact_fractions = False



if __name__ == "__main__":
    unittest.main()
