"""Bots in seats, the turn clock, and handing a vanished player's seat to a bot."""

from __future__ import annotations

import random
from pathlib import Path

import httpx

from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer


async def add_bot(host: Client, code: str, **body: object) -> httpx.Response:
    return await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random", **body})


async def test_bots_play_their_turns_through_the_same_path(server: ThreadServer) -> None:
    code, (host,) = await open_room(server.url, "whirling-witchcraft", ["Host"])
    for _ in range(2):
        response = await add_bot(host, code)
        assert response.status_code == 200, response.text
    seats = response.json()["room"]["seats"]
    assert [s["bot"] for s in seats] == [None, "random", "random"]
    assert all(s["connected"] for s in seats[1:])
    await host.connect(code)
    await host.http.post(f"/api/rooms/{code}/start")
    rng = random.Random(3)
    for _ in range(2000):
        await host.until(
            lambda: host.state is not None and (bool(host.state["legal"]) or host.state["result"])
        )
        assert host.state is not None
        if host.state["result"] is not None:
            break
        action = host.random_legal(rng)
        assert action is not None
        ack = await host.act(action, version=host.state["version"])
        assert ack["type"] == "ack", ack
        await host.at_version(ack["version"])
    assert host.state is not None and host.state["result"] is not None
    log = (await host.http.get(f"/api/rooms/{code}/log")).json()
    by_bot = {a["seat"] for a in log["replay"]["actions"] if a["bot"]}
    assert by_bot == {1, 2}
    await host.close()


async def test_only_the_host_adds_bots_and_only_to_free_seats(sqlite_server: ThreadServer) -> None:
    code, (host, guest) = await open_room(
        sqlite_server.url, "test-guess", ["Host", "Guest"], options={"rounds": 1}
    )
    not_host = await add_bot(guest, code)
    assert (not_host.status_code, not_host.json()["error"]["code"]) == (403, "not_host")
    unknown = await add_bot(host, code, level="grandmaster")
    assert unknown.json()["error"]["code"] == "unknown_bot"
    await add_bot(host, code)
    await add_bot(host, code)
    full = await add_bot(host, code)
    assert full.json()["error"]["code"] == "room_full"
    await host.close()
    await guest.close()


async def test_turn_clock_lets_a_bot_play_for_a_late_seat(tmp_path: Path) -> None:
    # Bots wait 1.5 s here, so a player coming back can act before the bot does, even on a
    # loaded machine.
    with ThreadServer(sqlite_settings(tmp_path, bot_delay=1.5)) as server:
        code, (host, sleepy) = await open_room(
            server.url, "test-guess", ["Host", "Sleepy"], turn_seconds=0.3
        )
        await host.connect(code)
        await sleepy.connect(code)
        await host.http.post(f"/api/rooms/{code}/start")
        await host.at_version(0)
        assert (await host.act({"type": "pick", "value": 1}))["type"] == "ack"
        # Sleepy never picks: the clock runs out, a bot picks for seat 1; the seat stays hers
        # (the default rule, "move": never marked away).
        await host.at_version(2, timeout=10)
        room = (await host.http.get(f"/api/rooms/{code}")).json()
        assert [s["away"] for s in room["seats"]] == [False, False]
        assert not any(m["type"] == "presence" and m["seats"][1]["away"] for m in sleepy.messages)
        # The host calls in time; in the next round Sleepy, with her full time again, picks
        # before the bot moves.
        assert (await host.act({"type": "call", "guess": "low"}, version=2))["type"] == "ack"
        state = await sleepy.at_version(3)
        assert state["legal"]
        ack = await sleepy.act({"type": "pick", "value": 2}, version=3)
        assert ack == {
            "type": "ack",
            "client_id": ack["client_id"],
            "version": 4,
            "duplicate": False,
        }
        room = (await host.http.get(f"/api/rooms/{code}")).json()
        assert [s["away"] for s in room["seats"]] == [False, False]
        log = (await host.http.get(f"/api/rooms/{code}/log")).json()
        assert [e["seat"] for e in log["events"] if e["type"] == "picked"] == [0, 1, 1]
        await host.close()
        await sleepy.close()


async def test_host_hands_a_vanished_seat_to_a_bot(sqlite_server: ThreadServer) -> None:
    code, (host, gone) = await open_room(
        sqlite_server.url, "test-guess", ["Host", "Gone"], options={"rounds": 1}
    )
    await host.connect(code)
    await gone.connect(code)
    await host.http.post(f"/api/rooms/{code}/start")
    await gone.at_version(0)
    still_here = await add_bot(host, code, seat=1)
    assert (still_here.status_code, still_here.json()["error"]["code"]) == (409, "seat_connected")
    await gone.close()
    await host.until(
        lambda: any(
            m["type"] == "presence" and not m["seats"][1]["connected"] for m in host.messages
        )
    )
    handed = await add_bot(host, code, seat=1)
    assert handed.status_code == 200 and handed.json()["room"]["seats"][1]["away"]
    state = await host.at_version(1)
    assert state["view"]["picks"][1] == "hidden"  # the bot picked for seat 1
    ack = await host.act({"type": "pick", "value": 0})
    assert ack["type"] == "ack"
    # Seat 0 calls; then the match (one round) is over.
    await host.until(lambda: host.state is not None and bool(host.state["legal"]))
    assert (await host.act({"type": "call", "guess": "high"}))["type"] == "ack"
    final = await host.at_version(3)
    assert final["result"] is not None
    await host.close()
