"""``GET /api/rooms/{code}/log?since=N``: a client that missed versions reads only the actions
after the version it had — the same events the whole log holds for them — and no replay."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.support.client import open_room
from tests.support.server import ThreadServer


@pytest.fixture
def quick_bots(settings: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(dataclasses.replace(settings, bot_delay=0.005)) as running:
        yield running


async def _finished_log(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        log: dict[str, Any] = (await http.get(f"/api/rooms/{code}/log")).json()
        if log["finished"]:
            return log
    raise AssertionError("the bots did not finish")


async def test_the_log_since_a_version_holds_only_what_came_after(quick_bots: ThreadServer) -> None:
    server = quick_bots
    code, (host,) = await open_room(
        server.url, "test-guess", ["A"], options={"rounds": 6}, visibility="private"
    )
    for _ in range(2):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    handed = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0})
    assert handed.status_code == 200, handed.text
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
        whole = await _finished_log(http, code)
        last = whole["version"]
        assert last > 3 and whole["replay"] is not None
        for since in (0, 1, last // 2, last - 1, last, last + 5):
            part = (await http.get(f"/api/rooms/{code}/log", params={"since": since})).json()
            assert part["version"] == last and part["finished"]
            assert part["events"] == [e for e in whole["events"] if e["version"] > since]
            assert part["replay"] is None, "a catch-up carries no replay record"
            assert part["fairness"] == whole["fairness"]
        for bad in ("-1", "x"):
            refused = await http.get(f"/api/rooms/{code}/log", params={"since": bad})
            assert refused.status_code == 422
            assert refused.json()["error"]["code"] == "validation_error", refused.text
    await host.close()
