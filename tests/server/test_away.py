"""A seat handed to a bot comes back to its player on her next move, whichever worker
marked it away and whichever worker she acts through."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

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
