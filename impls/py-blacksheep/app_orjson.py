import orjson
from blacksheep.settings.json import json_settings

from app import app

# orjson is strict RFC 8259 by itself (UTF-8, no NaN/Infinity, bounded nesting).
json_settings.use(loads=orjson.loads, dumps=lambda value: orjson.dumps(value).decode("utf-8"))

__all__ = ["app"]
