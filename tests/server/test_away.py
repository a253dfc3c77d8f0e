"""A seat handed to a bot comes back to its player on her next move, whichever worker
marked it away and whichever worker she acts through; or at once, in one click
(``POST /api/rooms/{code}/back``), her turn clock starting afresh."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from app.settings import Settings
from tests.server.conftest import sqlite_settings
from tests.support.client import open_room
from tests.support.server import ThreadServer


async def test_acting_takes_back_a_seat_another_worker_marked_away(tmp_path: Path) -> None:
    # No sweeps: only this test decides who plays.
    settings = sqlite_settings(tmp_path, sweep_seconds=3600)
    with ThreadServer(settings) as server:
        code, seated = await open_room(server.url, "test-guess", ["Agnes", "Brigid"])
        host, friend = (
            {"Authorization": f"Bearer {seated[0].token}"},
            {"Authorization": f"Bearer {seated[1].token}"},
        )
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.post(f"/api/rooms/{code}/start", headers=host)).status_code == 200
            pick = {"type": "pick", "value": 1}
            moved = await http.post(
                f"/api/rooms/{code}/actions",
                json={"action": pick, "client_id": "a1"},
                headers=host,
            )
            assert moved.status_code == 200, moved.text  # this worker now holds the room
            # Another worker's turn clock marks Brigid away, behind this worker's back.
            with sqlite3.connect(tmp_path / "coven.db") as db:
                db.execute("UPDATE seats SET away = 1 WHERE seat = 1")
            moved = await http.post(
                f"/api/rooms/{code}/actions",
                json={"action": {"type": "pick", "value": 2}, "client_id": "b1"},
                headers=friend,
            )
            assert moved.status_code == 200, moved.text
            room = (await http.get(f"/api/rooms/{code}")).json()
        brigid = next(s for s in room["seats"] if s["seat"] == 1)
        assert brigid["away"] is False
        with sqlite3.connect(tmp_path / "coven.db") as db:
            assert db.execute("SELECT away FROM seats WHERE seat = 1").fetchone() == (0,)


async def test_she_takes_her_seat_back_in_one_click_with_a_fresh_clock(
    settings: Settings, tmp_path: Path
) -> None:
    # The bots wait 3 s: the click comes while the bot, handed her seat, is about to move.
    turn = 60.0
    with ThreadServer(dataclasses.replace(settings, bot_delay=3.0, sweep_seconds=0.2)) as server:
        code, (host, friend) = await open_room(
            server.url, "test-guess", ["Agnes", "Brigid"], turn_seconds=turn
        )
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            as_host = {"Authorization": f"Bearer {host.token}"}
            as_friend = {"Authorization": f"Bearer {friend.token}"}
            assert (await http.post(f"/api/rooms/{code}/start", headers=as_host)).is_success
            began = (await http.get(f"/api/rooms/{code}/state")).json()["clock"]["due"][1]
            # Not hers to take back while nobody plays for her.
            early = await http.post(f"/api/rooms/{code}/back", headers=as_friend)
            assert (early.status_code, early.json()["error"]["code"]) == (409, "not_away")
            await asyncio.sleep(1.0)
            # Brigid is not here: the host hands her seat to a bot.
            handed = await http.post(
                f"/api/rooms/{code}/bots", json={"level": "random", "seat": 1}, headers=as_host
            )
            assert handed.status_code == 200, handed.text
            assert handed.json()["room"]["seats"][1]["away"] is True
            await asyncio.sleep(1.0)  # the bot now waits its 3 s before it moves for her
            # She comes back and clicks.
            clicked = time.time()
            back = await http.post(f"/api/rooms/{code}/back", headers=as_friend)
            assert back.status_code == 200, back.text
            assert [(s["away"], s["for_good"]) for s in back.json()["seats"]] == [
                (False, False),
                (False, False),
            ]
            # Her turn clock starts afresh from the click; the bot that was about to move
            # for her does not.
            state = (await http.get(f"/api/rooms/{code}/state", headers=as_friend)).json()
            assert state["version"] == 0 and state["legal"]
            due = state["clock"]["due"][1]
            assert due >= began + 1.9 and clicked + turn - 0.1 <= due <= time.time() + turn
            await asyncio.sleep(3.0)
            assert (await http.get(f"/api/rooms/{code}/state")).json()["version"] == 0
            # Twice is once: the seat is hers already.
            again = await http.post(f"/api/rooms/{code}/back", headers=as_friend)
            assert (again.status_code, again.json()["error"]["code"]) == (409, "not_away")
            # Without a token, or with a wrong one: the usual refusals.
            anonymous = await http.post(f"/api/rooms/{code}/back")
            assert (anonymous.status_code, anonymous.json()["error"]["code"]) == (
                401,
                "unauthorized",
            )
            wrong = await http.post(
                f"/api/rooms/{code}/back", headers={"Authorization": "Bearer nope"}
            )
            assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "bad_token")
            unknown = await http.post("/api/rooms/AAAAAAAAAAAAAAAA/back", headers=as_friend)
            assert unknown.json()["error"]["code"] == "room_not_found"
        if settings.database_url.startswith("sqlite"):
            # The sweep's due time follows (the host's clock still ends first).
            with sqlite3.connect(tmp_path / "coven.db") as db:
                stored = db.execute("SELECT due_at FROM matches").fetchone()[0]
            assert stored == pytest.approx(min(began, due))
        await host.close()
        await friend.close()
