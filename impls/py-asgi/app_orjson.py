"""The same ASGI application as app.py, with orjson for parsing and writing JSON.

orjson is strict RFC 8259 by itself: UTF-8 only, no NaN/Infinity, no lone surrogates, and at
most 1024 levels of nesting; every refusal is an orjson.JSONDecodeError, a ValueError.
"""

import orjson

from app import make_app

app = make_app(loads=orjson.loads, dumps=orjson.dumps)
