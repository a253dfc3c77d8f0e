"""Issue 11.7 (starting is atomic with joining) and 11.9 (GET /log is one snapshot)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer


async def test_a_join_or_a_bot_racing_start_gets_a_seat_in_the_match_or_already_started(
    server: ThreadServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
        for attempt in range(15):
            code, (host, _guest) = await open_room(server.url, "test-guess", ["A", "B"])

            results = await asyncio.gather(
                http.post(f"/api/rooms/{code}/join", json={"name": "C"}),
                host.http.post(f"/api/rooms/{code}/start"),
                host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"}),
            )
            start = results[1]
            assert start.status_code == 200, start.text
            players = len(start.json()["view"]["scores"])
            for response in (results[0], results[2]):
                if response.status_code == 409:
                    assert response.json()["error"]["code"] == "already_started"
                else:
                    assert response.status_code == 200, response.text
                    assert response.json()["seat"] < players, (attempt, response.json()["seat"])
            seats = (await http.get(f"/api/rooms/{code}")).json()["seats"]
            assert len(seats) == players, (attempt, seats, players)
            await host.close()
            await _guest.close()


@pytest.fixture
def quick_bots(settings: Settings) -> Iterator[ThreadServer]:
    # Bots 5 ms apart: a whole match commits in well under a second, yet lasts long enough
    # (a move without the delay takes a fraction of a millisecond) for reads to land inside.
    with ThreadServer(dataclasses.replace(settings, bot_delay=0.005)) as running:
        yield running


async def test_the_log_is_one_snapshot_while_moves_commit(quick_bots: ThreadServer) -> None:
    """Bots play a long match quickly while the log is read again and again: every log is
    consistent with its own version."""
    server = quick_bots
    code, (host,) = await open_room(
        server.url, "test-guess", ["A"], options={"rounds": 20}, visibility="private"
    )
    for _ in range(3):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    handed = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0})
    assert handed.status_code == 200, handed.text
    seen: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            log = (await http.get(f"/api/rooms/{code}/log")).json()
            seen.append(log)
            versions = sorted({e["version"] for e in log["events"]})
            # Every action up to the log's version has events in it, none after it.
            assert versions == list(range(1, log["version"] + 1)), (log["version"], versions[-3:])
            if log["finished"]:
                assert log["replay"] is not None
                assert [a["version"] for a in log["replay"]["actions"]] == versions
                break
    assert seen[-1]["finished"], "the bots did not finish"
    assert len({log["version"] for log in seen}) > 3, "the log was never read mid-match"
    await host.close()


async def test_a_started_match_has_every_seat_of_its_room(server: ThreadServer) -> None:
    code, players = await open_room(server.url, "test-guess", ["A", "B", "C"])
    spectator = Client(server.url)
    await spectator.connect(code)
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    state = await spectator.at_version(0)
    assert len(state["view"]["scores"]) == 3
    for client in [*players, spectator]:
        await client.close()
