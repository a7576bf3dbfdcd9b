import json
from decimal import MIN_ETINY, Decimal
from typing import Annotated, Any, Callable, Coroutine

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.exceptions import HTTPException

from handicap import Handicap, iterations_from_env

MAX_BODY_SIZE = 1024 * 1024
TOO_LARGE = "request body is larger than 1 MiB"


def _reject_constant(constant: str) -> Any:
    raise HTTPException(status_code=400, detail=f"{constant} is not valid JSON")


def exact_number(text: str) -> Decimal:
    """json.loads's parse_float: a number with a fraction or an exponent as an exact Decimal.
    Decimal's exponents stop near +-10**18, and beyond them Decimal(text) raises
    InvalidOperation, an ArithmeticError (FastAPI answers it with a 400 for the whole body). A
    number written that far out is 0 when its digits are all zeros; otherwise, with a positive
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


class StrictJSONRequest(Request):
    """A body of at most 1 MiB, parsed as RFC 8259 JSON: UTF-8 only, no NaN/Infinity."""

    async def body(self) -> bytes:
        # Starlette's own body limit answers 413 in text/plain; this one goes through the
        # JSON exception handler, and refuses a too-long Content-Length before reading.
        if not hasattr(self, "_body"):
            declared = self.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY_SIZE:
                raise HTTPException(status_code=413, detail=TOO_LARGE)
            chunks = []
            size = 0
            async for chunk in self.stream():
                size += len(chunk)
                if size > MAX_BODY_SIZE:
                    raise HTTPException(status_code=413, detail=TOO_LARGE)
                chunks.append(chunk)
            self._body = b"".join(chunks)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                raise HTTPException(status_code=400, detail="request body is not valid UTF-8")
            try:
                # Fractions as Decimal, not float: a float rounds 30.000000000000001 and 1e-400
                # to integers, which the contract calls fractions (SPEC 7.8).
                self._json = json.loads(text, parse_constant=_reject_constant, parse_float=exact_number)
            except RecursionError:
                raise HTTPException(status_code=400, detail="JSON is nested too deeply")
        return self._json


def require_json_media_type(request: Request) -> None:
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise HTTPException(status_code=415, detail="Content-Type must be application/json")


class StrictJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_json_handler(request: Request) -> Response:
            # Checked here, before FastAPI reads the body: it parses text/json-like types such as
            # application/problem+json itself, and a dependency would run only after that, so a
            # malformed body would answer 400 instead of 415.
            require_json_media_type(request)
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_json_handler


def _integral_float_to_int(value: Any) -> Any:
    # JSON has one number type: 30.0 is the integer 30, which strict mode would refuse. Numbers
    # with a fraction or an exponent arrive as exact Decimals; only an integral one within the
    # bounds' reach is converted (int(Decimal("1e999999999")) would build a billion-digit int),
    # anything else stays a Decimal, which strict mode refuses as "not a valid integer".
    if isinstance(value, Decimal) and value.copy_abs() <= 1000:
        if value == value.to_integral_value():
            return int(value)
    elif isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class User(BaseModel):
    model_config = ConfigDict(strict=True)

    name: Annotated[str, Field(min_length=1)]
    age: Annotated[int, BeforeValidator(_integral_float_to_int), Field(ge=0, le=150)]


class ValidationResult(BaseModel):
    name: str
    age: int
    valid: bool


app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
if _handicap := iterations_from_env():
    app.add_middleware(Handicap, iterations=_handicap)


@app.exception_handler(HTTPException)
async def http_exception_handler(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def _describe(error: dict[str, Any]) -> str:
    if error["type"] == "json_invalid":
        return f"malformed JSON: {error['ctx']['error']}"
    field = ".".join(str(part) for part in error["loc"] if part != "body") or "body"
    return f"{field}: {error['msg']}"


@app.exception_handler(RequestValidationError)
async def validation_exception_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse({"error": "; ".join(_describe(error) for error in exc.errors())}, status_code=400)


@app.get("/plaintext", response_class=PlainTextResponse)
async def plaintext() -> str:
    return "Hello, World!"


@app.get("/json")
async def json_message() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.get("/user/{user_id}")
async def get_user(user_id: str) -> dict[str, str]:
    return {"id": user_id, "name": f"User {user_id}"}


validation = APIRouter(route_class=StrictJSONRoute)


@validation.post("/validate")
async def validate(user: User) -> ValidationResult:
    return ValidationResult(name=user.name, age=user.age, valid=True)


app.include_router(validation)
