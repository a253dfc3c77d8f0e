"""kill -9 the server mid-match, start it again: same version, same views, and the match goes
on to its end. No acknowledged action is lost."""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path
from typing import Any

import httpx

from tests.support.client import Client, open_room
from tests.support.server import ProcessServer
from tests.support.table import play_to_end


async def states(url: str, tokens: list[str | None], code: str) -> list[dict[str, Any]]:
    out = []
    async with httpx.AsyncClient(base_url=url) as http:
        for token in tokens:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            out.append((await http.get(f"/api/rooms/{code}/state", headers=headers)).json())
    return out


async def hammer(
    url: str, code: str, tokens: list[str], acked: list[dict[str, Any]], rng: random.Random
) -> None:
    """Submit actions back to back over HTTP until the server dies; keep every ack."""
    clients = [
        httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {t}"}, timeout=5)
        for t in tokens
    ]
    try:
        while True:
            for seat, http in enumerate(clients):
                state = (await http.get(f"/api/rooms/{code}/state")).json()
                if not state["legal"]:
                    continue
                action = rng.choice(state["legal"])
                cid = uuid.uuid4().hex
                response = await http.post(
                    f"/api/rooms/{code}/actions",
                    json={"action": action, "client_id": cid, "version": state["version"]},
                )
                if response.status_code == 200:
                    acked.append({**response.json(), "seat": seat, "action": action})
    except httpx.HTTPError:
        return
    finally:
        for http in clients:
            await http.aclose()


async def test_kill_9_mid_match_then_resume(tmp_path: Path) -> None:
    env = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_BOT_DELAY": "0",
    }
    server = ProcessServer(env).start()
    try:
        code, players = await open_room(
            server.url, "whirling-witchcraft", ["Agnes", "Brigid", "Circe"]
        )
        tokens = [p.token for p in players]
        assert all(tokens)
        await players[0].http.post(f"/api/rooms/{code}/start")
        await players[0].http.aclose()

        # Part 1: a quiet moment. Twenty actions in, kill -9; after restart every seat and the
        # spectator see exactly what they saw before.
        acked: list[dict[str, Any]] = []
        task = asyncio.create_task(hammer(server.url, code, tokens, acked, random.Random(1)))  # type: ignore[arg-type]
        while len(acked) < 20:
            await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        before = await states(server.url, [*tokens, None], code)
        server.kill()
        server = ProcessServer(env, port=server.port).start()
        after = await states(server.url, [*tokens, None], code)
        assert after == before

        # Part 2: kill -9 while actions are in flight; every acknowledged one survives.
        task = asyncio.create_task(hammer(server.url, code, tokens, acked, random.Random(2)))  # type: ignore[arg-type]
        target = len(acked) + 15
        while len(acked) < target:
            await asyncio.sleep(0.005)
        server.kill()
        await asyncio.wait_for(task, 10)
        server = ProcessServer(env, port=server.port).start()
        # Versions are each seat's own (a private step moves its seat's alone): every seat is
        # at least at the version of its own latest acknowledged action.
        resumed = await states(server.url, tokens, code)
        for seat, state in enumerate(resumed):
            mine = [a["version"] for a in acked if a["seat"] == seat]
            assert not mine or state["version"] >= max(mine), (seat, state["version"], mine)

        # Reconnect everyone and play the match to its end.
        clients = [Client(server.url, t, seat) for seat, t in enumerate(tokens)]
        spectator = Client(server.url)
        for client in [*clients, spectator]:
            await client.connect(code)
        final = await play_to_end(clients, spectator, random.Random(3))
        assert final["result"] is not None

        replay = (await spectator.http.get(f"/api/rooms/{code}/log")).json()["replay"]
        # Each seat's acknowledged actions are among its logged ones, in the same order (acks
        # carry the seat's own version, the replay the match's).
        for seat in range(len(tokens)):
            logged = iter(a["action"] for a in replay["actions"] if a["seat"] == seat)
            kept = [ack["action"] for ack in acked if ack["seat"] == seat]
            assert all(any(found == action for found in logged) for action in kept), seat
        for client in [*clients, spectator]:
            await client.close()
    finally:
        server.stop()
