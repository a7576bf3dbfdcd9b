"""A small, complete implementation of docs/SPEC.md on Python's standard library.

It is a test fixture of the orchestrator, not an entry: it lets the orchestrator's tests run the
whole pipeline from a folder of their own. The variant "wrong-json" breaks GET /json on purpose.
TINY_FAULT (with TINY_FAULT_AFTER, a count of GET /json requests) makes it fail in the middle of
a benchmark, as the fault fixtures under ../../faults/ ask: "die" SIGKILLs the process, "grow"
keeps 1 MiB more per request until the memory limit's OOM killer ends it, "hang" SIGSTOPs it.
"leak" keeps TINY_LEAK_BYTES (default 16 KiB) more per request and goes on answering: a slow leak, as
a soak must flag. "erratic" spends a millisecond of CPU on every GET /json during every other second
of the wall clock: its speed from one visit to the next is as unsteady as a run can be. "short"
answers GET /json with {"message":"Hello"}: a server that sends less under load than it was checked with.
"forged" answers it with {"message": "Hello, Wor1d!"}: the checked size, not the checked answer.
"escape" writes the process into the root cgroup of every hierarchy (it runs as root): a server that
leaves its limits under load; "escape-at-start" does it before it listens; "escape-daemon" leaves its
process tree first (a daemon's double fork: the started process stays, idle) and then its cgroups, so
only the listening socket it holds (and the environment it inherited) still leads to it;
"escape-helper" leaves a daemon of that kind beside the server, which holds no socket.
"""

import glob
import json
import math
import os
import re
import signal
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 1024 * 1024
MALFORMED_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
BREAK = os.environ.get("TINY_BREAK", "")
FAULT = os.environ.get("TINY_FAULT", "")
FAULT_AFTER = int(os.environ.get("TINY_FAULT_AFTER", "0"))
LEAK_BYTES = int(os.environ.get("TINY_LEAK_BYTES", "16384"))
ACCESS_LOG = os.environ.get("TINY_ACCESS_LOG", "") == "1"
json_requests = 0
kept = []


def maybe_fail():
    """Strikes the fault once FAULT_AFTER requests were answered; True when the answer is to be cut short."""
    global json_requests
    json_requests += 1
    if not FAULT or json_requests <= FAULT_AFTER:
        return False
    if FAULT in ("short", "forged"):
        return True
    if FAULT == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    elif FAULT == "grow":
        kept.append(bytearray(1024 * 1024))
    elif FAULT == "leak":
        kept.append(b"\xff" * LEAK_BYTES)  # written, so resident: no zero page stands in for it
    elif FAULT == "hang":
        os.kill(os.getpid(), signal.SIGSTOP)
    elif FAULT == "escape" and json_requests == FAULT_AFTER + 1:
        escape_cgroups()
    elif FAULT == "erratic" and int(time.time()) % 2 == 0:
        end = time.perf_counter() + 0.001
        while time.perf_counter() < end:
            pass


def escape_cgroups():
    for procs in glob.glob("/sys/fs/cgroup/cgroup.procs") + glob.glob("/sys/fs/cgroup/*/cgroup.procs"):
        try:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
        except OSError:
            pass  # a hierarchy that does not take it


class BadRequest(Exception):
    pass


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def has_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


def parse_user_input(body):
    try:
        value = json.loads(body.decode("utf-8"), parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BadRequest(f"the body is not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise BadRequest("the body must be a JSON object")
    if has_lone_surrogate(value):
        raise BadRequest("the body holds a lone surrogate escape: not Unicode text")
    name = value.get("name")
    if not isinstance(name, str) or len(name) < 1:
        raise BadRequest("name must be a string of at least one character")
    age = value.get("age")
    if isinstance(age, bool) or not isinstance(age, (int, float)):
        raise BadRequest("age must be an integer")
    if isinstance(age, float):
        if not math.isfinite(age) or not age.is_integer():
            raise BadRequest("age must be an integer")
        age = int(age)
    if not 0 <= age <= 150:
        raise BadRequest("age must be between 0 and 150")
    return name, age


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body go out in two writes: with Nagle's algorithm on, the body waits for the
    # client's delayed ACK of the head, 40 ms a response on a kept-alive connection.
    disable_nagle_algorithm = True
    server_version = "tiny-python"
    body_read = True
    sys_version = ""

    def log_message(self, format, *args):
        if ACCESS_LOG:
            super().log_message(format, *args)

    def send_error(self, code, message=None, explain=None):
        # The standard library answers unknown methods with 501 and errors with HTML.
        if code == 501:
            code = 405
        self.close_connection = True
        self.reply(code, {"error": message or self.responses.get(code, ("error",))[0]})

    def reply(self, status, payload, content_type="application/json"):
        if content_type == "application/json":
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        else:
            body = payload.encode("utf-8")
        if ACCESS_LOG:  # the fixture of a server left with its access log on
            self.log_request(status)
        self.send_response_only(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, message):
        if not self.body_read:
            self.drain()
        self.reply(status, {"error": message})

    def ambiguous_framing(self):
        lengths = self.headers.get_all("Content-Length") or []
        values = {v.strip() for line in lengths for v in line.split(",")}
        if lengths and self.headers.get("Transfer-Encoding"):
            return "Content-Length with Transfer-Encoding"
        if len(values) > 1:
            return "two different Content-Lengths"
        if values and not next(iter(values)).isdigit():
            return "an invalid Content-Length"
        return None

    def route(self):
        self.body_read = False
        ambiguous = self.ambiguous_framing()
        if ambiguous:
            self.close_connection = True
            return self.error(400, f"ambiguous framing: {ambiguous}")
        if not self.path.isascii():
            # http.server reads the request line as ISO-8859-1: raw UTF-8 would become another id (SPEC 12.5).
            return self.error(400, "the request target must be US-ASCII; percent-encode other bytes")
        path = self.path.split("?", 1)[0]
        method = self.command
        if path == "/plaintext":
            return self.reply(200, "Hello, World!", "text/plain; charset=utf-8") if method == "GET" else self.not_allowed()
        if path == "/json":
            if method != "GET":
                return self.not_allowed()
            faulty = maybe_fail()
            message = "Hello, World!" if not faulty else "Hello" if FAULT == "short" else "Hello, Wor1d!"
            return self.reply(200, {"msg" if BREAK == "json" else "message": message})
        if path.startswith("/user/"):
            segment = path[len("/user/"):]
            if not segment or "/" in segment:
                return self.error(404, "not found")
            if method != "GET":
                return self.not_allowed()
            if MALFORMED_ESCAPE.search(segment):
                return self.error(400, "the user id has a malformed percent-escape")
            try:
                user_id = urllib.parse.unquote(segment, encoding="utf-8", errors="strict")
            except UnicodeDecodeError:
                return self.error(400, "the user id is not valid UTF-8")
            return self.reply(200, {"id": user_id, "name": f"User {user_id}"})
        if path == "/validate":
            return self.validate() if method == "POST" else self.not_allowed()
        return self.error(404, "not found")

    def not_allowed(self):
        self.error(405, f"{self.command} is not allowed here")

    def drain(self):
        """Requests we answer without their body: close the connection instead of reading it."""
        if self.headers.get("Content-Length") not in (None, "0") or self.headers.get("Transfer-Encoding"):
            self.close_connection = True

    def read_body(self):
        self.body_read = True
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks, total = [], 0
            while True:
                size_line = self.rfile.readline(1024)
                try:
                    size = int(size_line.split(b";")[0].strip(), 16)
                except ValueError:
                    raise BadRequest("malformed chunked body") from None
                if size == 0:
                    while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                total += size
                if total > MAX_BODY:
                    return None
                chunk = self.rfile.read(size)
                if len(chunk) < size:
                    raise BadRequest("the body ended early")
                chunks.append(chunk)
                self.rfile.readline(1024)
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise BadRequest("invalid Content-Length") from None
        if length < 0:
            raise BadRequest("invalid Content-Length")
        if length > MAX_BODY:
            return None
        body = self.rfile.read(length)
        if len(body) < length:
            raise BadRequest("the body ended early")
        return body

    def validate(self):
        media_type = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if media_type != "application/json":
            return self.error(415, "Content-Type must be application/json")
        try:
            body = self.read_body()
            if body is None:
                self.close_connection = True
                return self.error(413, "the body is larger than 1 MiB")
            name, age = parse_user_input(body)
        except BadRequest as e:
            self.close_connection = True
            return self.error(400, str(e))
        self.reply(200, {"name": name, "age": age, "valid": True})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = route


def daemonize():
    if os.fork() > 0:
        while True:
            signal.pause()
    os.setsid()
    if os.fork() > 0:
        os._exit(0)


def main():
    if FAULT == "escape-daemon":
        daemonize()
    if FAULT == "escape-helper" and os.fork() == 0:
        os.setsid()
        if os.fork() > 0:
            os._exit(0)
        escape_cgroups()
        while True:
            signal.pause()
    if FAULT in ("escape-at-start", "escape-daemon"):
        escape_cgroups()
    # TINY_BIND: an address other than HOST, for the fixture of a server that does not read HOST.
    host = os.environ.get("TINY_BIND") or os.environ.get("HOST", "0.0.0.0")
    port = int(os.environ.get("PORT", "8080"))
    workers = int(os.environ.get("WORKERS", "1"))
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 1024
    server = ThreadingHTTPServer((host, port), Handler)
    children = []
    for _ in range(workers - 1):
        pid = os.fork()
        if pid == 0:
            children = []
            break
        children.append(pid)

    def stop(signum, frame):
        for child in children:
            os.kill(child, signal.SIGTERM)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
