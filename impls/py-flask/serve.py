"""Starts app:app on one WSGI server, `bjoern` or `waitress`, reading HOST, PORT and WORKERS.

Both servers run one process per worker: bjoern is single-threaded, and waitress's threads share
one GIL. The listening socket is bound once, here; with WORKERS=1 this process serves on it,
with WORKERS=N it forks N workers that all accept from the same socket (fork after bind, no
SO_REUSEPORT) and stays as their supervisor: SIGTERM or SIGINT stops them all, and when one
worker dies the others are stopped too, so a crash is never hidden behind fewer workers.

Usage: python serve.py bjoern|waitress
"""

import json
import os
import signal
import socket
import sys
from typing import Callable

from app import MAX_BODY_SIZE, app

SERVERS = ("bjoern", "waitress")
# Each waitress process: its default 4 task threads (they interleave under the GIL). It stops
# accepting at connection_limit open connections (default 100); poll() instead of select()
# keeps more than FD_SETSIZE descriptors working once that limit is raised.
WAITRESS_OPTIONS = {"threads": 4, "connection_limit": 1024, "asyncore_use_poll": True}


def fail(message: str) -> None:
    print(f"serve.py: {message}", file=sys.stderr)
    sys.exit(2)


def settings() -> tuple[str, str, int, int]:
    server = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("VARIANT", "")
    if server not in SERVERS:
        fail(f"unknown server {server!r}, expected one of {', '.join(SERVERS)}")
    host = os.environ.get("HOST", "0.0.0.0")
    try:
        port = int(os.environ.get("PORT", "8080"))
        workers = int(os.environ.get("WORKERS", "1"))
    except ValueError as error:
        fail(f"PORT and WORKERS must be integers: {error}")
    if workers < 1:
        fail(f"WORKERS must be at least 1, not {workers}")
    return server, host, port, workers


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family, backlog=1024)
    sock.setblocking(False)
    return sock


def server_for(name: str) -> Callable[[socket.socket], None]:
    """Imports the server before any fork, so every worker shares the loaded code."""
    if name == "bjoern":
        import bjoern

        return lambda sock: bjoern.server_run(sock, app)

    import logging

    import waitress

    # waitress warns "Task queue depth is N" for every request that waits for a free thread,
    # which under load is most of them: a log line per request, like an access log.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return lambda sock: waitress_server(sock).run()


def waitress_server(sock: socket.socket):
    """waitress's server on `sock`, with two parts of its channel replaced:

    - the parser: a request that declares a body over 1 MiB reaches the app with its head alone,
      and one without a body is not asked for one (waitress 3.0.2 sends 100 Continue to a
      bodiless request with Expect: 100-continue, then waits forever: SPEC 11.3);
    - the error task: the requests waitress refuses itself get the contract's JSON error
      (SPEC 9.1), not waitress's text/plain page.
    """
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.server import create_server
    from waitress.task import ErrorTask

    class Parser(HTTPRequestParser):
        def parse_header(self, header_plus: bytes) -> None:
            super().parse_header(header_plus)
            if self.content_length > MAX_BODY_SIZE:
                # waitress reads a whole body before the app runs (past 512 KiB into a temporary
                # file), and answers a Content-Length from its max_request_body_size (1 GiB) up
                # with its own 413. Without a body receiver the request is complete with its
                # head: Flask answers from the head alone (415 for another media type, else 413
                # from CONTENT_LENGTH under MAX_CONTENT_LENGTH, before it reads), the body is
                # never read, and the connection closes after the answer (body bytes that came
                # with the head are dropped with it, never answered as a request).
                self.body_rcv = None
                self.content_length = 0  # the length of the body this parser reads
                self.headers["CONNECTION"] = "close"
            if self.body_rcv is None:  # no body follows the head: nothing to continue
                self.expect_continue = False

    class JSONErrorTask(ErrorTask):
        def execute(self) -> None:
            error = self.request.error  # a waitress.utilities.Error: code, reason, body
            body = json.dumps({"error": f"{error.reason}: {error.body}"}).encode()
            self.status = f"{error.code} {error.reason}"
            self.response_headers.append(("Content-Type", "application/json"))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        parser_class = Parser
        error_task_class = JSONErrorTask

    server = create_server(app, sockets=[sock], **WAITRESS_OPTIONS)
    server.channel_class = Channel
    return server


def supervise(serve: Callable[[socket.socket], None], sock: socket.socket, workers: int) -> int:
    children: set[int] = set()
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for child in children:
            try:
                os.kill(child, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            serve(sock)
            os._exit(0)
        children.add(pid)
    sock.close()

    failed = False
    while children:
        pid, status = os.wait()
        children.discard(pid)
        if not stopping:
            print(f"serve.py: worker {pid} exited ({os.waitstatus_to_exitcode(status)}), "
                  "stopping the others", file=sys.stderr)
            failed = True
            stop(signal.SIGTERM, None)
    return 1 if failed else 0


def main() -> None:
    name, host, port, workers = settings()
    serve = server_for(name)
    sock = listen(host, port)
    if workers == 1:
        # SIGTERM's default action, stated: as PID 1 of a container the kernel ignores a signal
        # left at SIG_DFL. bjoern runs Python signal handlers from a 0.1 s timer in its loop.
        signal.signal(signal.SIGTERM, lambda signum, frame: os._exit(0))
        serve(sock)
    else:
        sys.exit(supervise(serve, sock, workers))


if __name__ == "__main__":
    main()
