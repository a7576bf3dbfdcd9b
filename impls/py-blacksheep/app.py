import json
from decimal import MIN_ETINY, Decimal
from typing import Any

from blacksheep import Application, Request, Response, get, post, text
from blacksheep import json as json_response
from blacksheep.exceptions import (
    BadRequest,
    HTTPException,
    MessageAborted,
    NotFound,
    UnsupportedMediaType,
)
from blacksheep.settings.json import json_settings

MAX_BODY_SIZE = 1024 * 1024


def _reject_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not valid JSON")


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


def strict_loads(data: bytes) -> Any:
    """RFC 8259 JSON with the standard library: UTF-8 only, no NaN/Infinity. Numbers with a
    fraction or an exponent are exact Decimals, not floats: a float rounds 30.000000000000001 or
    1e-400 to an integer, and the contract calls them fractions (SPEC 7.8)."""
    return json.loads(data.decode("utf-8"), parse_constant=_reject_constant, parse_float=exact_number)


def is_unicode_text(text: str) -> bool:
    """False for a str holding a lone surrogate: json.loads accepts one from an escape such as
    "\\ud800" (the JSON grammar allows it), but it is not text and UTF-8 cannot encode it, so
    echoing it would fail in the response encoder (a 500)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


json_settings.use(loads=strict_loads)

app = Application(show_error_details=False)


class PayloadTooLarge(HTTPException):
    def __init__(self) -> None:
        super().__init__(413, "request body is larger than 1 MiB")


async def json_error(app: Application, request: Request, exc: HTTPException) -> Response:
    return json_response({"error": str(exc)}, status=exc.status)


async def client_gone(app: Application, request: Request, exc: MessageAborted) -> Response:
    return json_response({"error": "the client closed the connection before sending the body"}, status=400)


for status in (400, 404, 413, 415, 500):
    app.exceptions_handlers[status] = json_error
app.exceptions_handlers[MessageAborted] = client_gone


async def method_not_allowed_or_not_found(request: Request) -> Response:
    # BlackSheep routes by method first, so a known path with another method lands here.
    allowed = [
        method.decode()
        for method in list(app.router.routes)
        if app.router.get_matching_route(method, request.path)
    ]
    if not allowed:
        raise NotFound()
    response = json_response({"error": f"method {request.method} is not allowed here"}, status=405)
    response.add_header(b"Allow", ", ".join(allowed).encode())
    return response


app.router.fallback = method_not_allowed_or_not_found


@get("/plaintext")
async def plaintext() -> Response:
    return text("Hello, World!")


@get("/json")
async def json_message() -> Response:
    return json_response({"message": "Hello, World!"})


@get("/user/{user_id}")
async def get_user(request: Request) -> Response:
    # The router has already percent-decoded the segment once; binding it to a `str`
    # parameter would unquote it a second time (/user/100%2541 would give "100A").
    user_id = request.route_values["user_id"]
    return json_response({"id": user_id, "name": f"User {user_id}"})


async def read_body(request: Request) -> bytes:
    # BlackSheep has no request body limit: refuse a too-long Content-Length before
    # reading, and count the bytes of a chunked body as they arrive.
    declared = request.get_first_header(b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_SIZE:
        raise PayloadTooLarge()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_SIZE:
            raise PayloadTooLarge()
    return bytes(body)


@post("/validate")
async def validate(request: Request) -> Response:
    media_type = (request.content_type() or b"").split(b";", 1)[0].strip().lower()
    if media_type != b"application/json":
        raise UnsupportedMediaType("Content-Type must be application/json")

    body = await read_body(request)
    try:
        data = json_settings.loads(body)
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"malformed JSON: {error}")
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")

    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise BadRequest("name must be a non-empty string")
    if not is_unicode_text(name):
        raise BadRequest("name must be Unicode text, not a lone surrogate escape")
    age = data.get("age")
    # JSON has one number type: 30.0 is the integer 30. strict_loads gives it as a Decimal
    # (converted only within the bounds' reach: int(Decimal("1e999999999")) would build a
    # billion-digit int), orjson as a float.
    if isinstance(age, Decimal):
        if age.copy_abs() <= 1000 and age == age.to_integral_value():
            age = int(age)
    elif isinstance(age, float) and age.is_integer():
        age = int(age)
    if not isinstance(age, int) or isinstance(age, bool) or not 0 <= age <= 150:
        raise BadRequest("age must be an integer from 0 to 150")

    return json_response({"name": name, "age": age, "valid": True})
