"""A chat's webhook for tests: a small HTTP server on 127.0.0.1, in a thread, that records every
request it gets (method, path, headers, body) and answers as the test tells it.

``answers`` are the statuses of the first requests, in order (then ``default``); a 3xx answer
carries ``Location: /followed`` (a redirect that, if followed, shows up as a request to that
path). ``hang=True`` accepts each connection, reads the request and never answers (until the
receiver is closed): a dead chat server. ``GET /_count`` is always answered, with the number of
requests received (not counted itself).

As a process of its own (a benchmark's receiver, off the measuring client's GIL):
``python -m tests.support.webhook_receiver [--hang]`` prints its URL's origin and serves until
stopped.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


class WebhookReceiver:
    def __init__(
        self, answers: Iterable[int] = (), *, default: int = 200, hang: bool = False
    ) -> None:
        self.answers = list(answers)
        self.default = default
        self.hang = hang
        self.requests: list[Received] = []
        self._lock = threading.Condition()
        self._closing = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def _handle(self) -> None:
                if self.path == "/_count":
                    body = str(len(receiver.received())).encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                status = receiver._record(
                    Received(
                        self.command,
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                    )
                )
                if receiver.hang:
                    receiver._closing.wait()
                    return
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "/followed")
                if status == 429 or status >= 500:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "2")
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(b"ok")

            do_POST = do_PUT = do_GET = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _record(self, request: Received) -> int:
        with self._lock:
            self.requests.append(request)
            self._lock.notify_all()
            return self.answers.pop(0) if self.answers else self.default

    def received(self, path: str | None = None) -> list[Received]:
        with self._lock:
            return [r for r in self.requests if path is None or r.path == path]

    def wait_for(
        self, predicate: Callable[[list[Received]], bool], timeout: float = 10.0, what: str = ""
    ) -> list[Received]:
        """Wait (blocking) until ``predicate(requests)`` holds; the requests then."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not predicate(self.requests):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"timed out waiting for {what or predicate}; got {len(self.requests)}"
                    )
                self._lock.wait(left)
            return list(self.requests)

    async def until(
        self, predicate: Callable[[list[Received]], bool], timeout: float = 10.0, what: str = ""
    ) -> list[Received]:
        """``wait_for`` for a test's event loop (polls, so the loop's other tasks go on)."""
        deadline = time.monotonic() + timeout
        while True:
            requests = self.received()
            if predicate(requests):
                return requests
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out waiting for {what or predicate}; got {len(requests)}"
                )
            await asyncio.sleep(0.02)

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    import argparse
    import signal
    import sys

    parser = argparse.ArgumentParser()
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    with WebhookReceiver(hang=args.hang) as receiver:
        print(f"http://127.0.0.1:{receiver.port}", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        threading.Event().wait()


if __name__ == "__main__":
    main()
