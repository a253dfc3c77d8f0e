"""The turn clock is per seat: it runs from the moment the seat began to owe a decision and
keeps running while the seat goes on owing one (its own sub-actions do not restart it); it is
stored with the match, so it survives a restart. When it runs out (the default rule, "move") a
bot plays the overdue decision for the seat, which stays its player's (never marked away); the
other rule is tests/server/test_clock_rules.py's."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest

from app.rooms.moves import owing_after
from app.settings import Settings
from engine import registry
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer
from tests.support.turns import TurnsGame


@pytest.fixture(autouse=True)
def turns_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, TurnsGame.id, TurnsGame())


def test_a_clock_starts_when_the_seat_begins_to_owe_and_runs_while_it_owes() -> None:
    since = (10.0, None, 12.0, None)
    after = owing_after(frozenset({0, 2}), frozenset({0, 1}), since, 20.0)
    # Seat 0 still owes: its clock goes on; seat 1 begins to owe now; seat 2 owes nothing.
    assert after == [10.0, 20.0, None, None]
    # A player taking her seat back from a bot starts afresh.
    assert owing_after(frozenset({0}), frozenset({0}), (10.0,), 20.0, frozenset({0})) == [20.0]


async def away(client: Client, code: str) -> list[bool]:
    room = (await client.http.get(f"/api/rooms/{code}")).json()
    return [bool(s["away"]) for s in room["seats"]]


async def bot_acted(client: Client, code: str, seat: int, after: int) -> bool:
    """Whether ``seat`` has acted since version ``after`` (its player's own last action, so
    in these tests, where nobody else acts for her, a bot playing for her)."""
    log = (await client.http.get(f"/api/rooms/{code}/log")).json()
    return any(e.get("seat") == seat and e["version"] > after for e in log["events"])


async def act(client: Client, code: str, action: dict[str, Any]) -> dict[str, Any]:
    response = await client.http.post(
        f"/api/rooms/{code}/actions", json={"action": action, "client_id": f"c{time.time()}"}
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_a_long_multi_action_turn_cannot_stall_the_table(tmp_path: Path) -> None:
    # Every add starts a new stage here (fine_stages): a clock counted from the stage would
    # restart with each sub-action and never run out.
    turn = 1.5
    with ThreadServer(sqlite_settings(tmp_path, sweep_seconds=0.1)) as server:
        code, (ada, bea) = await open_room(
            server.url,
            "test-turns",
            ["Ada", "Bea"],
            options={"fine_stages": True},
            turn_seconds=turn,
        )
        started = time.monotonic()  # the clocks start inside this call: not before it
        await ada.http.post(f"/api/rooms/{code}/start")
        # Ada adds every 0.4 s, well inside the clock each time, and never ends her turn.
        last = 0  # the version of her own last add
        while time.monotonic() - started < turn - 0.4:
            last = (await act(ada, code, {"type": "add", "value": 1}))["version"]
            assert (await away(ada, code))[0] is False
            await asyncio.sleep(0.4)
        # Her time runs out a whole turn after it began, however many adds came since: a bot
        # plays for her (and goes on while she owes that turn), the seat stays hers.
        await ada.connect(code)
        await bea.connect(code)
        while not await bot_acted(ada, code, 0, last):
            assert time.monotonic() - started < turn + 1.0, "the clock never ran out"
            await asyncio.sleep(0.05)
        assert time.monotonic() - started >= turn
        assert await away(ada, code) == [False, False]

        def answer_or_ended() -> bool:
            return ada.state is not None and ada.state["view"]["turn"] >= 1

        # (If the bot asks Bea, she answers; Ada then owes anew, with a new clock.)
        deadline = time.monotonic() + 15
        while not answer_or_ended():
            assert time.monotonic() < deadline, "the bot never ended Ada's turn"
            if bea.state is not None and bea.state["legal"] and bea.state["view"]["asking"] == 1:
                await bea.act({"type": "answer", "yes": True}, version=bea.state["version"])
            await asyncio.sleep(0.05)
        log = (await ada.http.get(f"/api/rooms/{code}/log")).json()
        ended = [e for e in log["events"] if e["type"] == "ended"]
        assert ended[0]["seat"] == 0
        assert await away(ada, code) == [False, False]
        await ada.close()
        await bea.close()


async def test_a_seat_owing_out_of_turn_gets_its_full_time(tmp_path: Path) -> None:
    # The stage does not change when Ada asks (one stage per turn): a clock counted from the
    # stage would leave Bea the part of Ada's time that was left, here almost none.
    turn = 1.5
    with ThreadServer(sqlite_settings(tmp_path, sweep_seconds=0.1)) as server:
        code, (ada, bea) = await open_room(
            server.url, "test-turns", ["Ada", "Bea"], turn_seconds=turn
        )
        started = time.monotonic()  # the clocks start inside this call: not before it
        await ada.http.post(f"/api/rooms/{code}/start")
        await asyncio.sleep(turn - 0.5)
        asked = time.monotonic()  # Bea's clock starts inside this call
        await act(ada, code, {"type": "ask"})
        await bea.connect(code)
        await bea.at_version(1)
        # Past the end of a clock counted from the start of the stage, Bea still has time.
        await asyncio.sleep(max(0.0, started + turn + 0.5 - time.monotonic()))
        assert await away(bea, code) == [False, False]
        assert bea.state is not None and bea.state["version"] == 1
        # Her own clock runs out a full turn after she was asked: a bot answers for her.
        await bea.at_version(2, timeout=5)
        assert time.monotonic() - asked >= turn
        assert await bot_acted(bea, code, 1, 1)
        assert await away(bea, code) == [False, False]
        await ada.close()
        await bea.close()


async def test_the_clock_survives_a_restart(settings: Settings) -> None:
    turn = 2.0
    fast = dataclasses.replace(settings, bot_delay=0.0, sweep_seconds=0.1)
    with ThreadServer(fast) as server:
        code, (ada, bea) = await open_room(
            server.url, "test-turns", ["Ada", "Bea"], turn_seconds=turn
        )
        started = time.monotonic()  # the clocks start inside this call: not before it
        await ada.http.post(f"/api/rooms/{code}/start")
        await act(ada, code, {"type": "add", "value": 2})
        await ada.close()
        await bea.close()
    # A restart half-way: the new server does not give Ada a new clock.
    with ThreadServer(fast) as server:
        ada = Client(server.url, ada.token, 0)
        while not await bot_acted(ada, code, 0, 1):
            assert time.monotonic() - started < turn + 1.5, "the clock restarted with the server"
            await asyncio.sleep(0.05)
        assert time.monotonic() - started >= turn
        # A bot played for Ada; the seat is still hers.
        assert await away(ada, code) == [False, False]
        await ada.close()
