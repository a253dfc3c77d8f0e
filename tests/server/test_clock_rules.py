"""The host's rule when a seat's turn clock runs out, over real servers.

- "move" (the default): a bot plays the overdue decision for her, and each of its sub-actions
  while her seat goes on owing it; the seat stays hers (never marked away), and the next time
  it begins to owe she has her full time again.
- "seat": the seat is handed to a bot for good (away and ``for_good``, in GET /api/rooms and
  in presence); her later actions are refused with ``seat_handed_over`` and she cannot take it
  back.
- Days-long clocks need nothing in memory: over ``OffsetFileClock`` (the server's clock plus
  the seconds in a file) 25 hours pass at once and the rule applies within about one sweep,
  also when the server restarted meanwhile.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.settings import Settings
from engine import registry
from tests.server.conftest import sqlite_settings
from tests.support.client import Client
from tests.support.server import ThreadServer
from tests.support.turns import TurnsGame

DAY = 86400.0


@pytest.fixture(autouse=True)
def turns_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, TurnsGame.id, TurnsGame())


async def open_ruled_room(
    url: str,
    game: str,
    names: list[str],
    *,
    turn_seconds: float,
    clock_rule: str,
    options: dict[str, Any] | None = None,
) -> tuple[str, list[Client]]:
    """A room with a turn clock and its rule, ``names[0]`` hosting; unconnected clients."""
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        created = await http.post(
            "/api/rooms",
            json={
                "game": game,
                "name": names[0],
                "visibility": "private",
                "options": options or {},
                "turn_seconds": turn_seconds,
                "clock_rule": clock_rule,
            },
        )
        assert created.status_code == 201, created.text
        room = created.json()["room"]
        assert room["clock_rule"] == clock_rule
        code = room["code"]
        clients = [Client(url, created.json()["token"], 0)]
        for name in names[1:]:
            joined = await http.post(f"/api/rooms/{code}/join", json={"name": name})
            assert joined.status_code == 200, joined.text
            clients.append(Client(url, joined.json()["token"], joined.json()["seat"]))
    return code, clients


def actions(db: Path) -> list[tuple[int, int, bool, float]]:
    """(version, seat, by_bot, created_at) of every action, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT version, seat, by_bot, created_at FROM actions ORDER BY version"
        ).fetchall()
    return [(v, s, bool(b), at) for v, s, b, at in rows]


async def seats(client: Client, code: str) -> list[dict[str, Any]]:
    room = (await client.http.get(f"/api/rooms/{code}")).json()
    found: list[dict[str, Any]] = room["seats"]
    return found


async def act(client: Client, code: str, action: dict[str, Any]) -> httpx.Response:
    return await client.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": action, "client_id": f"c{time.monotonic_ns()}"},
    )


async def state(client: Client, code: str) -> dict[str, Any]:
    found: dict[str, Any] = (await client.http.get(f"/api/rooms/{code}/state")).json()
    return found


async def eventually(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


# -- "move": a bot plays the overdue decision; the seat stays hers -----------------------------


async def test_move_rule_a_bot_plays_her_overdue_turn_and_her_next_turn_has_its_full_time(
    tmp_path: Path,
) -> None:
    turn = 1.5
    db = tmp_path / "coven.db"
    with ThreadServer(sqlite_settings(tmp_path, sweep_seconds=0.2)) as server:
        code, (ada, bea) = await open_ruled_room(
            server.url, "test-turns", ["Ada", "Bea"], turn_seconds=turn, clock_rule="move"
        )
        await bea.connect(code)
        started = time.time()  # the clocks start inside the next call: not before it
        assert (await ada.http.post(f"/api/rooms/{code}/start")).status_code == 200
        # Ada never acts. Bea answers at once whenever the bot, playing for Ada, asks her.
        while True:
            current = await state(bea, code)
            if current["view"]["turn"] >= 1:
                break
            if current["legal"] and current["view"]["asking"] == 1:
                await act(bea, code, {"type": "answer", "yes": True})
            assert time.time() - started < 15, "the bot never ended Ada's turn"
            await asyncio.sleep(0.05)
        done = actions(db)
        ada_bot = [a for a in done if a[1] == 0]
        assert ada_bot and all(by_bot for _, _, by_bot, _ in ada_bot)
        # Not before her time was up; then without waiting a new clock for each sub-action
        # (only an answer from Bea in between gives her a new decision, and a new clock).
        assert ada_bot[0][3] >= started + turn - 0.05
        for (v1, _, _, at1), (v2, _, _, at2) in itertools.pairwise(ada_bot):
            if v2 == v1 + 1:  # one sub-action after another of the same overdue decision
                assert at2 - at1 < turn - 0.5, (v1, v2, at2 - at1)
        # The seat is still hers: never marked away, nor handed over.
        assert [(s["away"], s["for_good"]) for s in await seats(ada, code)] == [(False, False)] * 2

        # Bea's turn: she plays it; Ada then owes again, with her full time.
        assert (await act(bea, code, {"type": "add", "value": 3})).status_code == 200
        ended = time.time()
        assert (await act(bea, code, {"type": "end"})).status_code == 200
        mine = await state(ada, code)
        assert mine["seat"] == 0 and mine["legal"]
        assert mine["clock"]["rule"] == "move" and mine["clock"]["pace"] == "live"
        due = mine["clock"]["due"][0]
        assert ended + turn - 0.1 <= due <= time.time() + turn + 0.1
        # Part of it passes, and she acts herself: no bot, no take-back needed.
        await asyncio.sleep(turn - 0.8)
        version = mine["version"]
        assert actions(db)[-1][0] == version
        assert (await act(ada, code, {"type": "add", "value": 1})).status_code == 200
        assert actions(db)[-1][1:3] == (0, False)
        await ada.close()
        await bea.close()


# -- "seat": handed to a bot for good ----------------------------------------------------------


async def test_seat_rule_hands_the_late_seat_to_a_bot_for_good(settings: Settings) -> None:
    # SQLite and PostgreSQL: the hand-over and the refusals are the store's own statements.
    with ThreadServer(dataclasses.replace(settings, sweep_seconds=0.2)) as server:
        code, (host, late) = await open_ruled_room(
            server.url,
            "test-guess",
            ["Host", "Late"],
            turn_seconds=2.0,
            clock_rule="seat",
            options={"rounds": 3},
        )
        await host.connect(code)
        assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
        await host.at_version(0)
        assert (await host.act({"type": "pick", "value": 1}))["type"] == "ack"
        # Late never picks: her time runs out, the seat is a bot's for good, the bot picks.
        await host.until(
            lambda: any(
                m["type"] == "presence" and m["seats"][1]["for_good"] for m in host.messages
            ),
            what="presence saying seat 1 is a bot's for good",
        )
        presence = next(
            m for m in host.messages if m["type"] == "presence" and m["seats"][1]["for_good"]
        )
        assert presence["seats"][1]["away"] is True
        listed = await seats(host, code)
        assert [(s["away"], s["for_good"]) for s in listed] == [(False, False), (True, True)]
        await host.at_version(2)
        # Whatever Late sends now is refused, and she cannot take the seat back.
        await host.until(lambda: host.state is not None and bool(host.state["legal"]))
        assert (await host.act({"type": "call", "guess": "high"}))["type"] == "ack"
        refused = await act(late, code, {"type": "pick", "value": 2})
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "seat_handed_over"
        back = await late.http.post(f"/api/rooms/{code}/back")
        assert (back.status_code, back.json()["error"]["code"]) == (409, "seat_handed_over")
        # Over the socket too.
        await late.connect(code)
        await late.until(lambda: late.state is not None)
        reply = await late.act({"type": "pick", "value": 0})
        assert (reply["type"], reply["code"]) == ("error", "seat_handed_over")
        # The bot plays her seat to the end; the host plays hers in time.
        while host.state is None or host.state["result"] is None:
            if host.state is not None and host.state["legal"]:
                seen = host.state["version"]
                reply = await host.act(host.state["legal"][0], version=seen)
                # (a state this client holds may already be answered: the next one follows)
                assert reply["type"] == "ack" or reply["code"] == "stale_version", reply
                await host.at_version(seen + 1)
            else:
                await host.until(
                    lambda: (
                        host.state is not None
                        and (bool(host.state["legal"]) or host.state["result"] is not None)
                    ),
                    what="the host's next decision or the end",
                )
        assert [(s["away"], s["for_good"]) for s in await seats(host, code)] == [
            (False, False),
            (True, True),
        ]
        await host.close()
        await late.close()


# -- a clock a day long, over a clock the test moves -------------------------------------------


def clocked(tmp_path: Path) -> tuple[Settings, Path]:
    """Settings whose server lives ``offset`` seconds late (the file's content), with the
    default 2 s sweep."""
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    return sqlite_settings(tmp_path, sweep_seconds=2.0, clock_file=str(offset)), offset


async def test_a_day_long_clock_runs_out_when_25_hours_pass(tmp_path: Path) -> None:
    settings, offset = clocked(tmp_path)
    db = tmp_path / "coven.db"
    with ThreadServer(settings) as server:
        code, (ada, bea) = await open_ruled_room(
            server.url, "test-turns", ["Ada", "Bea"], turn_seconds=DAY, clock_rule="move"
        )
        await bea.connect(code)
        assert (await ada.http.post(f"/api/rooms/{code}/start")).status_code == 200
        first = await state(ada, code)
        assert first["clock"]["pace"] == "correspondence"
        assert first["clock"]["due"][0] == pytest.approx(time.time() + DAY, abs=5)
        # Some sweeps pass: nothing happens within the day.
        await asyncio.sleep(4.5)
        assert actions(db) == []
        # 25 hours pass at once.
        jumped = time.monotonic()
        offset.write_text(str(25 * 3600))

        async def acted() -> bool:
            return bool(actions(db))

        await eventually(acted, 6, "the bot playing for Ada")
        assert time.monotonic() - jumped < 5, "not within about one sweep"
        first_bot = actions(db)[0]
        assert first_bot[1:3] == (0, True)
        assert first_bot[3] >= time.time() + 25 * 3600 - 60  # at the server's (moved) time
        assert [(s["away"], s["for_good"]) for s in await seats(ada, code)] == [(False, False)] * 2

        # Then Bea owes (her turn after the bot's end, or an answer to the bot's question):
        # she has a whole day from the server's time now.
        async def beas_decision() -> dict[str, Any] | None:
            current = await state(bea, code)
            return current if current["legal"] else None

        current = await eventually(beas_decision, 20, "Bea's decision")
        assert current["clock"]["due"][1] == pytest.approx(time.time() + 25 * 3600 + DAY, abs=30)
        await ada.close()
        await bea.close()


async def test_a_day_long_seat_rule_applies_after_a_restart(tmp_path: Path) -> None:
    settings, offset = clocked(tmp_path)
    with ThreadServer(settings) as server:
        code, (host, late) = await open_ruled_room(
            server.url, "test-guess", ["Host", "Late"], turn_seconds=DAY, clock_rule="seat"
        )
        assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
        assert (await act(host, code, {"type": "pick", "value": 2})).status_code == 200
        await host.close()
        await late.close()
    # The server is down when the day passes; the new one applies the rule at once.
    offset.write_text(str(25 * 3600))
    with ThreadServer(settings) as server:
        host, late = Client(server.url, host.token, 0), Client(server.url, late.token, 1)
        begun = time.monotonic()

        async def handed() -> bool:
            listed = await seats(host, code)
            return bool(listed[1]["for_good"])

        await eventually(handed, 6, "seat 1 handed to a bot for good")
        assert time.monotonic() - begun < 5
        # The bot picks for her; then the host owes the call, with a whole day again.
        current = await eventually(
            lambda: _with_legal(host, code), 10, "the host's call after the bot's pick"
        )
        assert current["version"] == 2
        assert current["clock"]["due"][0] == pytest.approx(time.time() + 25 * 3600 + DAY, abs=30)
        refused = await act(late, code, {"type": "pick", "value": 1})
        assert refused.json()["error"]["code"] == "seat_handed_over"
        await host.close()
        await late.close()


async def _with_legal(client: Client, code: str) -> dict[str, Any] | None:
    current = await state(client, code)
    return current if current["legal"] else None
