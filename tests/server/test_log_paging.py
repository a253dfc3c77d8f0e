"""The log read a page at a time (``GET /api/rooms/{code}/log?before=N&limit=K``); a
spectator who arrives in a long match: the socket gives it the state, never the history (the
history is there when it asks, a page at a time); and a socket that missed versions: one push
holds every missed event and says since which version (``since``), so it reads no log."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from app.settings import Settings
from tests.server.conftest import sqlite_settings
from tests.server.coven_serve import finished_log, start_bot_match
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer

ROUNDS = 12


@pytest.fixture
def quick_bots(settings: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(dataclasses.replace(settings, bot_delay=0.005)) as running:
        yield running


def in_range(events: list[dict[str, Any]], first: int, last: int) -> list[dict[str, Any]]:
    return [e for e in events if first <= e["version"] <= last]


async def test_the_log_reads_a_page_before_a_version(quick_bots: ThreadServer) -> None:
    url = quick_bots.url
    code = await start_bot_match(url, "test-guess", bots=2, options={"rounds": ROUNDS})
    whole = await finished_log(url, code, timeout=90)
    last = whole["version"]
    assert last > 20 and whole["replay"] is not None
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:

        async def page(**params: int) -> dict[str, Any]:
            answer = await http.get(f"/api/rooms/{code}/log", params=params)
            assert answer.status_code == 200, answer.text
            read: dict[str, Any] = answer.json()
            assert read["replay"] is None, "a page carries no replay record"
            assert read["version"] == last and read["finished"]
            return read

        for before, limit in ((last + 1, 5), (last, 7), (10, 3), (4, 10), (1, 5), (last + 9, 2)):
            got = await page(before=before, limit=limit)
            upto = min(before - 1, last)
            wanted = in_range(whole["events"], upto - limit + 1, upto)
            assert got["events"] == wanted, (before, limit)
        # ``limit`` alone: the latest versions; with ``since``: no further back than it.
        assert (await page(limit=4))["events"] == in_range(whole["events"], last - 3, last)
        assert (await page(since=8, before=12))["events"] == in_range(whole["events"], 9, 11)
        assert (await page(since=8, before=20, limit=3))["events"] == in_range(
            whole["events"], 17, 19
        )
        # Walking back a page at a time from the end gives the whole log, each event once.
        walked: list[dict[str, Any]] = []
        before = last + 1
        while before > 1:
            walked = (await page(before=before, limit=6))["events"] + walked
            before -= 6
        assert walked == whole["events"]
        for bad in ({"before": "0"}, {"limit": "0"}, {"limit": "501"}, {"before": "x"}):
            refused = await http.get(f"/api/rooms/{code}/log", params=bad)
            assert refused.status_code == 422, (bad, refused.text)
            assert refused.json()["error"]["code"] == "validation_error", refused.text


async def first_state(url: str, code: str) -> tuple[dict[str, Any], int]:
    """A spectator's socket in room ``code``: its first ``state`` message, and how many
    characters the socket received up to it."""
    ws_url = url.replace("http://", "ws://") + f"/ws/rooms/{code}"
    received = 0
    async with websockets.connect(ws_url, max_size=None) as socket:
        while True:
            raw = await asyncio.wait_for(socket.recv(), 20)
            received += len(raw)
            message = json.loads(raw)
            if message.get("type") == "state":
                return message, received


async def test_a_spectator_arriving_late_gets_the_state_not_the_history(
    quick_bots: ThreadServer,
) -> None:
    url = quick_bots.url
    code = await start_bot_match(url, "test-guess", bots=2, options={"rounds": ROUNDS})
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        deadline = time.monotonic() + 90
        while (await http.get(f"/api/rooms/{code}/log", params={"limit": 1})).json()[
            "version"
        ] < 12:
            assert time.monotonic() < deadline, "the bots did not play on"
            await asyncio.sleep(0.05)
    arrived, received = await first_state(url, code)
    whole = await finished_log(url, code, timeout=90)
    seen = arrived["version"]
    assert seen >= 12
    # What happened before it came is not in its state: only its own version's events.
    own = in_range(whole["events"], seen, seen)
    from_log = [{k: v for k, v in e.items() if k != "version"} for e in own]
    assert arrived["events"] == from_log
    earlier = in_range(whole["events"], 1, seen - 1)
    assert len(earlier) > 10
    assert received < len(json.dumps(arrived)) + 2000, "only the state (and presence) came"
    # After the end too: a newcomer gets the final state, the last version's events only.
    final, _ = await first_state(url, code)
    assert final["version"] == whole["version"] and final["result"] is not None
    last = whole["version"]
    assert len(final["events"]) == len(in_range(whole["events"], last, last))
    # The history is there when it asks: the page just before what it holds.
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        asked = (
            await http.get(f"/api/rooms/{code}/log", params={"before": seen, "limit": 5})
        ).json()
    assert asked["events"] == in_range(whole["events"], seen - 5, seen - 1)


async def test_a_socket_that_missed_versions_gets_them_in_one_push_saying_since(
    tmp_path: Path,
) -> None:
    """Two workers on one database and no bus between them: the sockets of B never hear of
    A's commits, so B's next push brings them up from the version they had."""
    settings = sqlite_settings(tmp_path)
    with ThreadServer(settings) as a, ThreadServer(settings) as b:
        code, (agnes, brigid) = await open_room(a.url, "test-guess", ["Agnes", "Brigid"])
        assert (await agnes.http.post(f"/api/rooms/{code}/start")).status_code == 200
        watcher = await Client(b.url).connect(code)
        await watcher.at_version(0)
        # Through A: both pick (versions 1, 2); B's sockets hear nothing of it.
        for seat in (agnes, brigid):
            answer = await seat.http.post(
                f"/api/rooms/{code}/actions",
                json={"action": {"type": "pick", "value": 1}, "client_id": f"a-{seat.seat}"},
            )
            assert answer.status_code == 200, answer.text
        # Through B: the next move; B's push finds its watcher two versions behind.
        mover = await Client(b.url, agnes.token, 0).connect(code)
        state = await mover.at_version(2)
        assert (await mover.act(state["legal"][0]))["type"] == "ack"
        await watcher.at_version(3)
        # B pushes what it learns as soon as it learns it (the mover's socket loaded version 2
        # there, and presence goes out after the state): in one push or two, each jump says
        # since which version its events run, and together they are the log's.
        states = [m for m in watcher.messages if m.get("type") == "state"]
        assert [m["version"] for m in states][::len(states) - 1] == [0, 3]
        assert len(states) < 4, "the versions missed came together"
        events: list[dict[str, Any]] = []
        for previous, message in pairwise(states):
            if message["version"] > previous["version"] + 1:
                assert message["since"] == previous["version"]
            else:
                assert "since" not in message
            events += message["events"]
        log = (await watcher.http.get(f"/api/rooms/{code}/log", params={"since": 0})).json()
        assert events == [{k: v for k, v in e.items() if k != "version"} for e in log["events"]]
        assert [e["type"] for e in events][:2] == ["picked", "picked"]
        # A push of the next version alone says no ``since``: nothing was missed.
        state = await mover.at_version(3)
        assert (await mover.act(state["legal"][0]))["type"] == "ack"
        assert "since" not in await watcher.at_version(4)
        for client in (watcher, mover, agnes, brigid):
            await client.close()

