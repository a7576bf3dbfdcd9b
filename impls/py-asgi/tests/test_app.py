"""The ASGI application called directly, without a server, through a fake receive and send, in
both JSON configurations. The conformance suite checks docs/SPEC.md in full over HTTP; these
tests pin the hand-written rules and the ASGI details no HTTP client can reach."""

import json
import unittest
from urllib.parse import unquote

import app as stdlib_app
import app_orjson
from app import MAX_BODY_SIZE

JSON = [(b"content-type", b"application/json")]


class FakeServer:
    """Builds the scope a server would and records what the app sends."""

    def __init__(self, app) -> None:
        self.app = app

    async def call(self, method: str, target: str, chunks=(b"",), headers=(), disconnect_after=False):
        """Runs one request; `chunks` are the http.request messages' bodies, in order.
        Returns (status, headers as a dict of lower-case names, body), or None if nothing was sent."""
        raw_path = target.split("?", 1)[0]
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http",
            "method": method, "path": unquote(raw_path), "raw_path": raw_path.encode(),
            "query_string": target.partition("?")[2].encode(), "root_path": "",
            "headers": [(name.lower(), value) for name, value in headers],
            "server": ("127.0.0.1", 8080), "client": ("127.0.0.1", 50000),
        }
        messages = [{"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
                    for i, chunk in enumerate(chunks)]
        if disconnect_after:
            messages[-1]["more_body"] = True
            messages.append({"type": "http.disconnect"})
        self.received = 0
        sent = []

        async def receive():
            self.received += 1
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await self.app(scope, receive, send)
        if not sent:
            return None
        start, *bodies = sent
        self.check_sequence(start, bodies)
        body = b"".join(message["body"] for message in bodies)
        return start["status"], dict(start["headers"]), body

    @staticmethod
    def check_sequence(start, bodies) -> None:
        assert start["type"] == "http.response.start", start
        assert [message["type"] for message in bodies] == ["http.response.body"], bodies
        assert not bodies[-1].get("more_body", False), bodies


class StdlibJsonTest(unittest.IsolatedAsyncioTestCase):
    app = staticmethod(stdlib_app.app)

    def setUp(self) -> None:
        self.server = FakeServer(self.app)

    async def get(self, target: str, method: str = "GET"):
        return await self.server.call(method, target)

    async def post(self, body, headers=JSON):
        body = body.encode() if isinstance(body, str) else body
        length = [(b"content-length", str(len(body)).encode())]
        return await self.server.call("POST", "/validate", [body], list(headers) + length)

    def assert_ok(self, answer, expected: dict) -> None:
        status, headers, body = answer
        self.assertEqual(status, 200, body)
        self.assertEqual(headers[b"content-type"], b"application/json")
        self.assertEqual(headers[b"content-length"], str(len(body)).encode())
        self.assertEqual(json.loads(body), expected)

    def assert_error(self, answer, status: int) -> None:
        self.assertIsNotNone(answer, "nothing was sent")
        self.assertEqual(answer[0], status, answer[2])
        self.assertEqual(answer[1][b"content-type"], b"application/json")
        self.assertEqual(answer[1][b"content-length"], str(len(answer[2])).encode())
        self.assertIsInstance(json.loads(answer[2])["error"], str)

    async def test_plaintext(self) -> None:
        status, headers, body = await self.get("/plaintext")
        self.assertEqual((status, body), (200, b"Hello, World!"))
        self.assertEqual(headers[b"content-type"], b"text/plain; charset=utf-8")
        self.assertEqual(headers[b"content-length"], b"13")

    async def test_json(self) -> None:
        self.assert_ok(await self.get("/json"), {"message": "Hello, World!"})

    async def test_user_id_is_the_path_decoded_once(self) -> None:
        for target, user_id in (("/user/42", "42"), ("/user/007?x=1", "007"), ("/user/caf%C3%A9", "café"),
                                ("/user/100%2541", "100%41"), ("/user/John%20Doe+x", "John Doe+x"),
                                ("/user/%F0%9F%98%80", "😀")):
            with self.subTest(target=target):
                self.assert_ok(await self.get(target), {"id": user_id, "name": f"User {user_id}"})

    async def test_routing_errors(self) -> None:
        for method, target, status in (("GET", "/nope", 404), ("POST", "/nope", 404), ("GET", "/user/", 404),
                                       ("GET", "/user/a/b", 404), ("GET", "/plaintext/extra", 404),
                                       ("GET", "/PLAINTEXT", 404), ("GET", "/USER/42", 404),
                                       ("POST", "/plaintext", 405), ("DELETE", "/json", 405),
                                       ("PUT", "/user/42", 405), ("GET", "/validate", 405)):
            with self.subTest(method=method, target=target):
                self.assert_error(await self.get(target, method), status)
        _, headers, _ = await self.get("/user/42", "PUT")
        self.assertEqual(headers[b"allow"], b"GET")
        _, headers, _ = await self.get("/validate")
        self.assertEqual(headers[b"allow"], b"POST")

    async def test_valid_bodies(self) -> None:
        for body, name, age in (('{"name":"  Zoë 😀 \\"q\\" \\\\ \\n\\u0000","age":0}', '  Zoë 😀 "q" \\ \n\x00', 0),
                                ('{"name":" ","age":150,"extra":[1,{}]}', " ", 150),
                                ('{"Name":"x","name":"y","age":1}', "y", 1),
                                ('{"name":"first","age":1,"name":"last"}', "last", 1),
                                (' {"name":"a","age":1}\r\n', "a", 1)):
            with self.subTest(body=body):
                self.assert_ok(await self.post(body), {"name": name, "age": age, "valid": True})

    async def test_integral_floats_are_integers(self) -> None:
        for literal, age in (("30.0", 30), ("3e1", 30), ("1.5e2", 150), ("0.0", 0)):
            with self.subTest(age=literal):
                status, _, body = await self.post('{"name":"a","age":%s}' % literal)
                self.assertEqual(status, 200, body)
                self.assertIn(b'"age":%d,' % age, body.replace(b" ", b""))
        for literal in ("151.0", "-1.0", "30.5", "1e400", "99999999999999999999", "-99999999999999999999"):
            with self.subTest(age=literal):
                self.assert_error(await self.post('{"name":"a","age":%s}' % literal), 400)

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
                status, _, body = await self.post('{"name":"a","age":%s,"x":1.5e-400}' % literal)
                self.assertEqual(status, 200, body)
                self.assertIn(b'"age":%d,' % age, body.replace(b" ", b""))

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
        for literal in ("0e99999999999999999999", "-0.0E-99999999999999999999", "0e999999999999999999",
                        "0e-1999999999999999997"):
            with self.subTest(age=literal):
                self.assert_ok(await self.post('{"name":"a","age":%s}' % literal), {"name": "a", "age": 0, "valid": True})
        for body in ('{"name":"a","age":1,"x":[0.0e-99999999999999999999]}', '{"name":"a","age":1,"x":1e99999999999999999999}',
                     '{"x":-1e99999999999999999999,"name":"a","age":1}', '{"name":"a","age":1,"x":[3.5e-99999999999999999999]}'):
            with self.subTest(body=body):
                self.assert_ok(await self.post(body), {"name": "a", "age": 1, "valid": True})

    async def test_invalid_fields_are_400(self) -> None:
        for body in ('{"age":1}', '{"name":1,"age":1}', '{"name":null,"age":1}', '{"name":["a"],"age":1}',
                     '{"name":"","age":1}', '{"name":"a"}', '{"name":"a","age":"30"}', '{"name":"a","age":true}',
                     '{"name":"a","age":false}', '{"name":"a","age":null}', '{"name":"a","age":[30]}',
                     '{"name":"a","age":{"value":30}}', '{"name":"a","age":-1}', '{"name":"a","age":151}',
                     '{"NAME":"a","AGE":1}'):
            with self.subTest(body=body):
                self.assert_error(await self.post(body), 400)

    async def test_not_an_object_or_not_json_is_400(self) -> None:
        for body in ("", "null", "[]", '"a string"', "42", "true", "{", "{'name':'a'}", "{name:1}", '{"a":1,}',
                     '{"name":"a","age":1} x', '{"name":"a","age":1}{"name":"a","age":1}',
                     '{"name":"a","age":NaN}', '{"name":Infinity,"age":1}', '{"name":"a","age":1,"x":-Infinity}',
                     '{"name":"a\x01","age":1}', "[" * 100_000, '{"a":' * 100_000):
            with self.subTest(body=body[:40]):
                self.assert_error(await self.post(body), 400)
        self.assert_error(await self.post(b'{"name":"\xff","age":1}'), 400)
        self.assert_error(await self.post('{"name":"a","age":1}'.encode("utf-16")), 400)

    async def test_a_lone_surrogate_is_400_never_500(self) -> None:
        self.assert_error(await self.post('{"name":"\\ud800","age":1}'), 400)
        self.assert_ok(await self.post('{"name":"\\ud83d\\ude00","age":1}'), {"name": "😀", "age": 1, "valid": True})

    async def test_media_type(self) -> None:
        ok = '{"name":"a","age":1}'
        for content_type in (b"application/json; charset=utf-8", b"Application/JSON", b" application/json ;x=1"):
            with self.subTest(content_type=content_type):
                self.assertEqual((await self.post(ok, [(b"content-type", content_type)]))[0], 200)
        for content_type in (b"text/plain", b"application/x-www-form-urlencoded", b"application/jsonx",
                             b"text/json", b"application/problem+json", b"application/vnd.api+json"):
            for body in (ok, "{", "[]"):
                with self.subTest(content_type=content_type, body=body):
                    self.assert_error(await self.post(body, [(b"content-type", content_type)]), 415)
        self.assert_error(await self.post(ok, []), 415)

    async def test_media_type_is_checked_before_the_body_is_read(self) -> None:
        answer = await self.server.call("POST", "/validate", [b"{"], [(b"content-type", b"text/plain")])
        self.assert_error(answer, 415)
        self.assertEqual(self.server.received, 0)

    async def test_exactly_one_mebibyte_is_accepted(self) -> None:
        for pad in ("a", "😀"):
            with self.subTest(pad=pad):
                room = MAX_BODY_SIZE - len(b'{"name":"","age":1}')
                name = pad * (room // len(pad.encode())) + "a" * (room % len(pad.encode()))
                body = ('{"name":"%s","age":1}' % name).encode()
                self.assertEqual(len(body), MAX_BODY_SIZE)
                self.assertEqual((await self.post(body))[0], 200)
                self.assert_error(await self.post(body + b" "), 413)

    async def test_declared_length_over_limit_is_refused_before_reading(self) -> None:
        headers = JSON + [(b"content-length", str(MAX_BODY_SIZE + 1).encode())]
        self.assert_error(await self.server.call("POST", "/validate", [b"x"], headers), 413)
        self.assertEqual(self.server.received, 0)

    async def test_chunked_body_is_counted_while_reading(self) -> None:
        chunks = [b" " * 65536] * (MAX_BODY_SIZE // 65536) + [b"{}"]
        self.assert_error(await self.server.call("POST", "/validate", chunks, JSON), 413)
        self.assertEqual(self.server.received, len(chunks))  # refused at the chunk that crossed the limit
        chunks = [b" " * 65536] * (MAX_BODY_SIZE // 65536 - 1) + [b'{"name":"a","age":1}']
        self.assertEqual((await self.server.call("POST", "/validate", chunks, JSON))[0], 200)

    async def test_a_body_cut_short_is_400(self) -> None:
        headers = JSON + [(b"content-length", b"100")]
        self.assert_error(await self.server.call("POST", "/validate", [b'{"name":'], headers, True), 400)

    async def test_lifespan_is_answered(self) -> None:
        messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
        sent = []

        async def receive():
            return messages.pop(0)

        async def send(message):
            sent.append(message["type"])

        await self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)
        self.assertEqual(sent, ["lifespan.startup.complete", "lifespan.shutdown.complete"])

    async def test_websocket_handshake_is_refused(self) -> None:
        sent = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message["type"])

        await self.app({"type": "websocket", "path": "/json", "headers": []}, receive, send)
        self.assertEqual(sent, ["websocket.close"])


class OrjsonTest(StdlibJsonTest):
    app = staticmethod(app_orjson.app)
    exact_fractions = False


if __name__ == "__main__":
    unittest.main()
