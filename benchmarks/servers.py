"""Starting and stopping the servers a benchmark measures.

A server is ``python -m …`` (``app.cli serve`` for the product's games, ``benchmarks.games.serve``
with the benchmark's own game registered) on a free port, ready once ``/healthz`` answers.
Several workers run one of two ways (``--route``):

- ``spread``: one server, its workers uvicorn's processes sharing one port: the kernel hands
  each socket to any of them, so a room's sockets land on several workers;
- ``room``: one single-worker server per worker, each on its own port, and every socket of a
  room sent to one of them, as the proxy's hash of ``/ws/rooms/{code}`` routes them
  (``deploy/Caddyfile``). Only the first migrates the schema.

``COVEN_BENCH_SERVER_ROOT`` in the server's environment serves another checkout's code (e.g.
a ``git worktree`` of an earlier commit) under the same load generator: before and after in
one run.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from tests.support.server import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
ROUTES = ("spread", "room")


def start(
    command: list[str], env: dict[str, str], workers: int
) -> tuple[subprocess.Popen[bytes], str]:
    """``command`` (``python -m …`` without its port and workers) on a free port; its URL once
    it answers."""
    port = free_port()
    full = [*command, "--port", str(port), "--workers", str(workers)]
    # The server's banner stays off stdout: the report is the only thing printed there.
    root = env.get("COVEN_BENCH_SERVER_ROOT") or ROOT
    process = subprocess.Popen(full, cwd=root, env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_ready(process, url)
    if workers > 1:
        time.sleep(1.5)  # every worker up, not just the first
    return process, url


def wait_ready(process: subprocess.Popen[bytes], url: str, seconds: float = 60) -> None:
    """Until the server at ``url`` answers ``/healthz`` (killed, and the benchmark stopped, if
    it exits or never does)."""
    try:
        wait_healthy(url, process, seconds)
    except RuntimeError as exc:
        process.kill()
        raise SystemExit(str(exc)) from None


def start_fleet(
    command: list[str], env: dict[str, str], workers: int, route: str
) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """The servers of ``workers`` workers routed by ``route``: their processes and URLs (one URL
    for ``spread``, one per worker for ``room``)."""
    if route == "spread" or workers == 1:
        process, url = start(command, env, workers)
        return [process], [url]
    started = [start(command, env, 1)]
    later = {**env, "COVEN_MIGRATE_ON_START": "0"}
    started += [start(command, later, 1) for _ in range(workers - 1)]
    return [p for p, _ in started], [u for _, u in started]


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
