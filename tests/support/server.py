"""Real servers for tests: uvicorn in a thread (fast) or in a subprocess (kill -9, workers)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol, TypeVar

import httpx
import uvicorn

from app.cli import WS_MAX_SIZE, WS_PROTOCOL
from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ThreadServer:
    """``create_app(settings)`` served by uvicorn on its own loop in a thread."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=WS_MAX_SIZE,
            ws=WS_PROTOCOL,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve())

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def wait_healthy(url: str, process: subprocess.Popen[bytes], seconds: float = 90) -> None:
    """Until ``url``'s ``/healthz`` answers 200; ``RuntimeError`` if ``process`` exits first
    or it takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("server did not become healthy")


class ProcessServer:
    """``tests.support.serve`` in a subprocess, settings through ``COVEN_*`` env."""

    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # No drain pause unless a test asks for one (app/drain.py): a test's own stop()
        # need not wait for a balancer that is not there.
        self.env = {**os.environ, "COVEN_DRAIN_SECONDS": "0", **env}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ProcessServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.serve", str(self.port)],
            cwd=ROOT,
            env=self.env,
        )
        wait_healthy(self.url, self.process)
        return self

    def kill(self) -> None:
        """kill -9: no shutdown, no flush, no goodbye."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


class Startable(Protocol):
    def start(self) -> object: ...

    def stop(self) -> None: ...


S = TypeVar("S", bound=Startable)


@contextlib.contextmanager
def both_running(a: S, b: S) -> Iterator[tuple[S, S]]:
    """Two server processes started in turn, both stopped however the test ends."""
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


@contextlib.contextmanager
def two_process_servers(env: dict[str, str]) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two workers of one deployment (the same ``COVEN_*`` env), stopped however the test ends."""
    with both_running(ProcessServer(env), ProcessServer(env)) as pair:
        yield pair
