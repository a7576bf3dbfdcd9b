"""A planted handicap for fairbench's own method check, never on in a normal run.

docs/ORCHESTRATOR.md ("A/A pairs and a planted handicap") needs an entry made slower by a known
amount in its own work, not by a CPU burner beside it (that slows the calibration server too and
cancels under --normalize calibration). When FAIRBENCH_HANDICAP_ITERATIONS is set, app.py wraps the
application in this ASGI middleware, which spends a fixed number of loop iterations of pure-Python
arithmetic on every HTTP request before FastAPI sees it. Unset, nothing is installed.
"""

import os
from typing import Any, Awaitable, Callable

ENV = "FAIRBENCH_HANDICAP_ITERATIONS"


def iterations_from_env(getenv: Callable[[str], str | None] = os.environ.get) -> int:
    raw = (getenv(ENV) or "").strip()
    if not raw:
        return 0
    value = int(raw)
    if value < 0:
        raise ValueError(f"{ENV} must be a non-negative integer, got {raw!r}")
    return value


def spin(iterations: int) -> int:
    x = 1
    for _ in range(iterations):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return x


class Handicap:
    def __init__(self, app: Callable[..., Awaitable[None]], iterations: int) -> None:
        self.app = app
        self.iterations = iterations
        self.last = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            # Kept, so the loop is observable work and not dead code.
            self.last = spin(self.iterations)
        await self.app(scope, receive, send)
