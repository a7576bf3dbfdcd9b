"""The planted handicap (handicap.py) is off unless its variable is set, and then runs on every request."""

import asyncio
import unittest

from handicap import ENV, Handicap, iterations_from_env, spin


class HandicapTest(unittest.TestCase):
    def test_unset_or_empty_variable_means_no_handicap(self) -> None:
        self.assertEqual(iterations_from_env(lambda name: None), 0)
        self.assertEqual(iterations_from_env(lambda name: " "), 0)

    def test_variable_gives_the_iterations(self) -> None:
        self.assertEqual(iterations_from_env(lambda name: "250" if name == ENV else None), 250)

    def test_negative_or_non_numeric_variable_is_refused(self) -> None:
        for raw in ("-1", "many"):
            with self.assertRaises(ValueError):
                iterations_from_env(lambda name: raw)

    def test_the_app_has_no_handicap_in_a_normal_run(self) -> None:
        from app import app

        self.assertNotIn(Handicap, [m.cls for m in app.user_middleware])

    def test_every_http_request_runs_the_loop_before_the_app(self) -> None:
        calls = []

        async def inner(scope, receive, send) -> None:
            calls.append(scope["type"])

        middleware = Handicap(inner, iterations=3)
        asyncio.run(middleware({"type": "http"}, None, None))
        self.assertEqual(calls, ["http"])
        self.assertEqual(middleware.last, spin(3))
        self.assertNotEqual(spin(3), spin(0))


if __name__ == "__main__":
    unittest.main()
