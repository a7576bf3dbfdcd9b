"""The fairbench contract (docs/SPEC.md) as a bare ASGI 3 application: no framework, only the
ASGI messages the server exchanges with it and a JSON library. It is the baseline the Python
framework entries are measured over, so every rule of the contract is written out here by hand.

`app` uses the standard library's json (the uvicorn variant); app_orjson.py builds the same
application with orjson (the granian variant).
"""

import json
from decimal import MIN_ETINY, Decimal
from typing import Any, Awaitable, Callable, Iterable

MAX_BODY_SIZE = 1024 * 1024  # 1 MiB: a body of more bytes than this is a 413

TEXT = b"text/plain; charset=utf-8"
JSON = b"application/json"

# Each path the contract knows and the one method it serves. /user/{id} is matched apart.
ROUTES = {"/plaintext": "GET", "/json": "GET", "/validate": "POST"}
USER_PREFIX = "/user/"

Loads = Callable[[bytes], Any]
Dumps = Callable[[Any], bytes]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


def _reject_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def exact_number(text: str) -> Decimal:
    """json.loads's parse_float: a number with a fraction or an exponent as an exact Decimal.
    Decimal's exponents stop near +-10**18, and beyond them Decimal(text) raises
    InvalidOperation, an ArithmeticError that json.loads passes on and nothing expects (a 500).
    A number written that far out is 0 when its digits are all zeros; otherwise, with a positive
    exponent, an integer larger than any Decimal, which Infinity of its sign stands for (as in
    Decimal's own overflow), and with a negative exponent a fraction, not 0, nearer to 0 than
    any Decimal, which the Decimal nearest to 0 of its sign stands for. Neither is an age (400);
    under an unknown key either is ignored like any number (SPEC 8.6)."""
    try:
        return Decimal(text)
    except ArithmeticError:
        mantissa, _, exponent = text.lower().partition("e")  # JSON: -?int(.frac)?e[+-]?digits
        if not mantissa.strip("-.0"):
            return Decimal(mantissa)
        sign = "-" if mantissa.startswith("-") else ""
        if exponent.startswith("-"):
            return Decimal(f"{sign}1e{MIN_ETINY}")
        return Decimal(f"{sign}Infinity")


def strict_loads(body: bytes) -> Any:
    """RFC 8259 JSON with the standard library: UTF-8 only (json.loads would also take UTF-16 and
    UTF-32 bytes) and no NaN, Infinity or -Infinity (json.loads accepts them by default). Numbers
    with a fraction or an exponent are exact Decimals, not floats: a float rounds
    30.000000000000001 or 1e-400 to an integer, and the contract calls them fractions (SPEC 7.8).
    Raises ValueError, or RecursionError for deep nesting."""
    return json.loads(body.decode("utf-8"), parse_constant=_reject_constant, parse_float=exact_number)


def stdlib_dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON, as Starlette's JSONResponse writes it. Raises UnicodeEncodeError for a
    string holding a lone surrogate, which json.loads lets through ("\\ud800")."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


class HTTPError(Exception):
    """An error response: `status` and {"error": message}."""

    def __init__(self, status: int, message: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = list(headers)


async def respond(send: Send, status: int, content_type: bytes, body: bytes,
                  headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", content_type), (b"content-length", b"%d" % len(body)), *headers],
    })
    await send({"type": "http.response.body", "body": body})


async def read_body(receive: Receive, declared_length: bytes | None) -> bytes:
    """The request body, at most MAX_BODY_SIZE bytes: a Content-Length over the limit is refused
    before anything is read, and a chunked body is counted as it arrives."""
    if declared_length is not None and declared_length.isdigit() and int(declared_length) > MAX_BODY_SIZE:
        raise HTTPError(413, f"the request body is larger than {MAX_BODY_SIZE} bytes")
    chunks = []
    size = 0
    more_body = True
    while more_body:
        message = await receive()
        if message["type"] == "http.disconnect":
            # The body ended early (a half-closed or broken connection). The client may still be
            # reading: Granian would answer 500 to an app that sends nothing; uvicorn drops the answer.
            raise HTTPError(400, "the connection closed before the whole request body arrived")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_SIZE:
            raise HTTPError(413, f"the request body is larger than {MAX_BODY_SIZE} bytes")
        chunks.append(chunk)
        more_body = message.get("more_body", False)
    return b"".join(chunks)


def validated(data: Any) -> tuple[str, int]:
    """The name and age of a parsed /validate body, or an HTTPError 400."""
    if not isinstance(data, dict):
        raise HTTPError(400, "the body must be a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise HTTPError(400, "name must be a non-empty string")
    age = data.get("age")
    # JSON has one number type: 30.0 and 3e1 are the integer 30 (SPEC 7.10). strict_loads gives
    # them as Decimal (converted only within the bounds' reach: int(Decimal("1e999999999")) would
    # build a billion-digit int), orjson as float.
    if isinstance(age, Decimal):
        if age.copy_abs() <= 1000 and age == age.to_integral_value():
            age = int(age)
    elif isinstance(age, float) and age.is_integer():
        age = int(age)
    # bool is a subclass of int in Python: true is not an age.
    if isinstance(age, bool) or not isinstance(age, int) or not 0 <= age <= 150:
        raise HTTPError(400, "age must be an integer from 0 to 150")
    return name, age


def make_app(loads: Loads, dumps: Dumps) -> Callable[[dict, Receive, Send], Awaitable[None]]:
    """The ASGI application, parsing request bodies with `loads` and writing JSON with `dumps`.
    `loads` raises ValueError (or RecursionError) for anything that is not strict JSON."""

    async def validate(scope: dict, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])  # names are lower-case in ASGI
        # The media type first, whatever the body holds: application/json, any case, any parameters.
        media_type = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
        if media_type != b"application/json":
            raise HTTPError(415, "Content-Type must be application/json")
        body = await read_body(receive, headers.get(b"content-length"))
        try:
            data = loads(body)
        except (ValueError, RecursionError) as error:  # RecursionError: the stdlib's json, nested too deep
            raise HTTPError(400, f"the body is not valid JSON: {error}") from None
        name, age = validated(data)
        try:
            answer = dumps({"name": name, "age": age, "valid": True})
        except UnicodeEncodeError:
            # Only the stdlib's json gets here (orjson refuses lone surrogates while parsing):
            # "\ud800" is valid JSON syntax but no Unicode text, so it cannot be echoed as UTF-8.
            raise HTTPError(400, "name must be Unicode text: it holds a lone surrogate") from None
        await respond(send, 200, JSON, answer)

    async def http(scope: dict, receive: Receive, send: Send) -> None:
        # scope["path"] is already percent-decoded once, as UTF-8, by the server (uvicorn and Granian
        # both replace invalid UTF-8 with U+FFFD); scope["raw_path"] is the request target's path as sent.
        path = scope["path"]
        method = scope["method"]
        user_id = None
        if path.startswith(USER_PREFIX):
            # One non-empty segment: /user/ and /user/a/b are 404.
            user_id = path[len(USER_PREFIX):]
            allowed = "GET" if user_id and "/" not in user_id else None
        else:
            allowed = ROUTES.get(path)  # exact match: paths are case-sensitive
        if allowed is None:
            raise HTTPError(404, f"no route for {method} {scope['raw_path'].decode('latin-1')}")
        if method != allowed:
            raise HTTPError(405, f"{method} is not allowed here, use {allowed}", [(b"allow", allowed.encode())])

        if path == "/plaintext":
            await respond(send, 200, TEXT, b"Hello, World!")
        elif path == "/json":
            await respond(send, 200, JSON, dumps({"message": "Hello, World!"}))
        elif path == "/validate":
            await validate(scope, receive, send)
        else:
            await respond(send, 200, JSON, dumps({"id": user_id, "name": "User " + user_id}))

    async def app(scope: dict, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                await http(scope, receive, send)
            except HTTPError as error:
                await respond(send, error.status, JSON, dumps({"error": error.message}), error.headers)
        elif scope["type"] == "lifespan":
            await lifespan(receive, send)
        elif scope["type"] == "websocket":
            # No WebSocket endpoint: closing before accepting makes the server answer 403.
            await send({"type": "websocket.close"})

    return app


async def lifespan(receive: Receive, send: Send) -> None:
    """Nothing to set up or tear down; answering the lifespan protocol keeps the servers quiet."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


app = make_app(loads=strict_loads, dumps=stdlib_dumps)
