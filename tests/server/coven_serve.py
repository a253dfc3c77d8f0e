"""``coven serve`` itself in a subprocess (the command an operator runs), and bot matches
played through it to the end — for the tests of what an operator watches (metrics, logs,
traces)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.support.server import ROOT, free_port, wait_healthy


class CovenServe:
    """``python -m app.cli serve --port P [--workers N]`` with ``env`` over this process's
    environment; its stdout and stderr go to files (read them with ``out`` / ``err``)."""

    def __init__(self, env: dict[str, str], logs: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "COVEN_DRAIN_SECONDS": "0", **env}
        self.workers = workers
        logs.mkdir(parents=True, exist_ok=True)
        self.stdout_path = logs / f"serve-{self.port}.out"
        self.stderr_path = logs / f"serve-{self.port}.err"
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0  # wall time (files it made are newer)

    def start(self) -> CovenServe:
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)]
        self.started_at = time.time()
        with self.stdout_path.open("wb") as out, self.stderr_path.open("wb") as err:
            self.process = subprocess.Popen(
                [*command, "--workers", str(self.workers)],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=err,
            )
        wait_healthy(self.url, self.process)
        return self

    def stop(self) -> None:
        """SIGTERM, as an orchestrator stops it (then SIGKILL after 30 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def out(self) -> str:
        return self.stdout_path.read_text(errors="replace")

    def err(self) -> str:
        return self.stderr_path.read_text(errors="replace")


async def start_bot_match(
    url: str,
    game: str = "whirling-witchcraft",
    bots: int = 2,
    options: dict[str, Any] | None = None,
) -> str:
    """A room whose every seat a ``random`` bot plays: the host adds ``bots`` bots, starts,
    and hands her own (never connected) seat to a bot too. Returns the room code."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = await http.post(
            "/api/rooms",
            json={"game": game, "name": "Host", "visibility": "private", "options": options or {}},
        )
        assert created.status_code == 201, created.text
        code: str = created.json()["room"]["code"]
        host = {"Authorization": f"Bearer {created.json()['token']}"}
        for _ in range(bots):
            added = await http.post(
                f"/api/rooms/{code}/bots", json={"level": "random"}, headers=host
            )
            assert added.status_code == 200, added.text
        started = await http.post(f"/api/rooms/{code}/start", headers=host)
        assert started.status_code == 200, started.text
        handed = await http.post(
            f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0}, headers=host
        )
        assert handed.status_code == 200, handed.text
    return code


async def finished_log(url: str, code: str, timeout: float = 120) -> dict[str, Any]:
    """The room's match log once the match is over."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while True:
            log: dict[str, Any] = (await http.get(f"/api/rooms/{code}/log")).json()
            if log["finished"]:
                return log
            assert time.monotonic() < deadline, f"room {code} did not finish: {log['version']}"
            await asyncio.sleep(0.2)


def refused_start(tmp_path: Path, variables: dict[str, str]) -> str:
    """Start ``coven serve`` on a fresh SQLite file with ``variables`` that it must refuse:
    it exits 2 with a one-line reason and no traceback; the reason (stderr) is returned."""
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        **variables,
    }
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.startswith("coven serve: "), done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return done.stderr
