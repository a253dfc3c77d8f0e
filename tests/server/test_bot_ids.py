"""Bots and the turn clock submit under a client_id namespace no person can write into, and a
bot whose choice is refused never loops."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from engine.bots import LEVELS, Seen
from engine.protocol import Action, Game
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer, ThreadServer


async def submit(client: Client, code: str, action: dict[str, Any], cid: str) -> httpx.Response:
    return await client.http.post(
        f"/api/rooms/{code}/actions", json={"action": action, "client_id": cid}
    )


async def test_people_cannot_use_the_bots_client_ids(sqlite_server: ThreadServer) -> None:
    code, (host, guest) = await open_room(
        sqlite_server.url, "test-guess", ["Host", "Guest"], options={"rounds": 1}
    )
    await host.http.post(f"/api/rooms/{code}/start")
    pick = {"type": "pick", "value": 1}
    over_http = await submit(host, code, pick, "bot:1:0")
    assert over_http.status_code == 422
    assert over_http.json()["error"]["code"] == "reserved_client_id"
    await guest.connect(code)
    await guest.at_version(0)
    over_ws = await guest.act(pick, client_id="bot:0:0")
    assert (over_ws["type"], over_ws["code"]) == ("error", "reserved_client_id")
    state = (await host.http.get(f"/api/rooms/{code}/state")).json()
    assert state["version"] == 0
    # Other ids that merely contain the word are a person's to use.
    assert (await submit(host, code, pick, "my-bot:1:0")).status_code == 200
    await host.close()
    await guest.close()


async def test_a_person_taking_the_bots_next_id_first_does_not_stop_it(tmp_path: Path) -> None:
    """Across a kill -9: the person tries the id the bot is about to use (``bot:1:v``) before
    every bot move; the bot still plays each of its turns, before and after the restart."""
    env = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_BOT_DELAY": "0.3",
        "COVEN_SWEEP_SECONDS": "0.2",
    }
    server = ProcessServer(env).start()
    try:
        code, (host,) = await open_room(server.url, "test-guess", ["Host"], options={"rounds": 2})
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
        await host.http.post(f"/api/rooms/{code}/start")
        token = host.token
        await host.http.aclose()
        rng = random.Random(5)

        async def human_turns(url: str, stop_at_version: int | None) -> dict[str, Any]:
            person = Client(url, token, 0)
            await person.connect(code)
            try:
                while True:
                    await person.until(
                        lambda: (
                            person.state is not None
                            and (bool(person.state["legal"]) or person.state["result"] is not None)
                        )
                    )
                    assert person.state is not None
                    state = person.state
                    if state["result"] is not None:
                        return state
                    if stop_at_version is not None and state["version"] >= stop_at_version:
                        return state
                    version = state["version"]
                    for seat in (0, 1):
                        taken = await person.act(
                            {"type": "pick", "value": 0}, client_id=f"bot:{seat}:{version}"
                        )
                        assert taken.get("code") == "reserved_client_id", taken
                    ack = await person.act(rng.choice(state["legal"]), version=version)
                    assert ack["type"] == "ack", ack
                    await person.at_version(ack["version"])
            finally:
                await person.close()

        before = await human_turns(server.url, stop_at_version=2)
        assert before["version"] >= 2  # both picked in round 0: the bot played
        server.kill()
        server = ProcessServer(env, port=server.port).start()
        final = await human_turns(server.url, stop_at_version=None)
        assert final["result"] is not None
        async with httpx.AsyncClient(base_url=server.url) as http:
            replay = (await http.get(f"/api/rooms/{code}/log")).json()["replay"]
        bot_moves = [a for a in replay["actions"] if a["seat"] == 1]
        # Seat 1 picked in both rounds and made round 1's call, every time as the bot.
        assert len(bot_moves) == 3 and all(a["bot"] for a in bot_moves)
        assert not any(a["bot"] for a in replay["actions"] if a["seat"] == 0)
    finally:
        server.stop()


class Stubborn:
    """A bot that always answers something illegal, and counts how often it was asked."""

    level = "stubborn"
    calls: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, game: Game, seen: Seen) -> Action:
        Stubborn.calls.append(seen.view["round"])
        return {"type": "pick", "value": 99}


@pytest.fixture
def stubborn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    Stubborn.calls = []
    monkeypatch.setitem(LEVELS, "stubborn", Stubborn)
    return Stubborn.calls


async def test_a_refused_bot_falls_back_to_random_once(tmp_path: Path, stubborn: list[int]) -> None:
    settings = dataclasses.replace(sqlite_settings(tmp_path, sweep_seconds=0.1), bot_processes=0)
    with ThreadServer(settings) as server:
        code, (host,) = await open_room(server.url, "test-guess", ["Host"], options={"rounds": 1})
        await host.http.post(f"/api/rooms/{code}/bots", json={"level": "stubborn"})
        await host.connect(code)
        await host.http.post(f"/api/rooms/{code}/start")
        # The stubborn choice is refused; a random one picks for seat 1 instead.
        await host.at_version(1)
        assert host.state is not None and host.state["view"]["picks"][1] == "hidden"
        await asyncio.sleep(0.5)  # a few sweeps
        assert stubborn == [0]
        await host.close()


async def test_a_bot_refused_twice_waits_for_the_match_to_move(
    tmp_path: Path, stubborn: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(LEVELS, "random", Stubborn)  # the fallback is refused too
    settings = dataclasses.replace(sqlite_settings(tmp_path, sweep_seconds=0.1), bot_processes=0)
    with ThreadServer(settings) as server:
        code, (host,) = await open_room(server.url, "test-guess", ["Host"], options={"rounds": 1})
        await host.http.post(f"/api/rooms/{code}/bots", json={"level": "stubborn"})
        await host.http.post(f"/api/rooms/{code}/start")
        await asyncio.sleep(1.0)  # ten sweeps: each finds the seat parked at version 0
        assert stubborn == [0, 0]  # its own level once, the fallback once
        # The match moves (the host picks): the bot gets one more go, no more.
        assert (await submit(host, code, {"type": "pick", "value": 2}, "h1")).status_code == 200
        await asyncio.sleep(1.0)
        assert stubborn == [0, 0, 0, 0]
        await host.close()
