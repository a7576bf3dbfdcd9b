import orjson
from blacksheep.settings.json import json_settings

from app import app


def orjson_dumps(value: object) -> str:
    return orjson.dumps(value).decode("utf-8")


# orjson is strict RFC 8259 by itself (UTF-8, no NaN/Infinity, bounded nesting).
json_settings.use(loads=orjson.loads, dumps=orjson_dumps)

__all__ = ["app"]
