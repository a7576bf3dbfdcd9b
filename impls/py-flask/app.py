"""The fairbench contract (docs/SPEC.md) in Flask 3, served by any WSGI server (serve.py)."""

import json
from decimal import MIN_ETINY, Decimal
from typing import Any

from flask import Flask, Request, Response, abort, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

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


class StrictJSONProvider(DefaultJSONProvider):
    """RFC 8259 JSON with the standard library, which by default also reads NaN and Infinity,
    guesses UTF-16/32 from bytes, and raises RecursionError (not ValueError) on deep nesting.
    Numbers with a fraction or an exponent are read as exact Decimals, not floats: a float rounds
    30.000000000000001 or 1e-400 to an integer, and the contract calls them fractions (SPEC 7.8)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if isinstance(s, (bytes, bytearray)):
            s = s.decode("utf-8")  # a UnicodeDecodeError is a ValueError: 400
        try:
            return json.loads(s, parse_constant=_reject_constant, parse_float=exact_number, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


class JSONOnlyRequest(Request):
    @property
    def is_json(self) -> bool:
        # get_json() answers 415 unless this is true; Werkzeug also counts application/*+json.
        return self.mimetype == "application/json"

    def get_data(self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False) -> Any:
        data = super().get_data(cache=cache, parse_form_data=parse_form_data)
        # A body without Content-Length (chunked; the server has read it all and set
        # wsgi.input_terminated) is read through Werkzeug's LimitedStream, whose readall()
        # stops at max_content_length without looking further: a longer body would come
        # back cut to its first MiB instead of raising 413.
        if (
            self.content_length is None
            and self.environ.get("wsgi.input_terminated")
            and len(data) == self.max_content_length
            and self.input_stream.read(1)
        ):
            raise RequestEntityTooLarge()
        return data.decode(errors="replace") if as_text else data


class FairbenchFlask(Flask):
    request_class = JSONOnlyRequest
    json_provider_class = StrictJSONProvider


app = FairbenchFlask(__name__)
app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_SIZE


@app.errorhandler(HTTPException)
def json_error(error: HTTPException) -> Response:
    # Flask's documented pattern: keep the status and headers (Allow on a 405), replace the body.
    response = error.get_response()
    response.data = app.json.dumps({"error": error.description or error.name})
    response.content_type = "application/json"
    return response


@app.get("/plaintext")
def plaintext() -> Response:
    return Response("Hello, World!", mimetype="text/plain")


@app.get("/json")
def json_message() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.get("/user/<user_id>")
def get_user(user_id: str) -> dict[str, str]:
    # The server percent-decodes the path once; Werkzeug reads PATH_INFO's bytes as UTF-8.
    return {"id": user_id, "name": f"User {user_id}"}


def _is_unicode(text: str) -> bool:
    """False for a lone surrogate (a "\\ud800" escape), which no UTF-8 response can carry."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@app.post("/validate")
def validate() -> dict[str, Any]:
    data = request.get_json()  # 415, 413 (MAX_CONTENT_LENGTH) or 400 before it returns
    if not isinstance(data, dict):
        abort(400, description="the body must be a JSON object")

    name = data.get("name")
    if not isinstance(name, str) or not name:
        abort(400, description="name must be a non-empty string")
    if not _is_unicode(name):
        abort(400, description="name holds a lone surrogate escape, which is not a character")
    age = data.get("age")
    # JSON has one number type: 30.0 is the integer 30. It arrives as a Decimal, converted only
    # within the bounds' reach (int(Decimal("1e999999999")) would build a billion-digit int).
    if isinstance(age, Decimal) and age.copy_abs() <= 1000 and age == age.to_integral_value():
        age = int(age)
    if not isinstance(age, int) or isinstance(age, bool) or not 0 <= age <= 150:
        abort(400, description="age must be an integer from 0 to 150")

    return {"name": name, "age": age, "valid": True}
