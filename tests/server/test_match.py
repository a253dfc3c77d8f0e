"""Whole matches over HTTP + WebSockets: three players and a spectator, on both backends."""

from __future__ import annotations

import random

import httpx
import pytest

from engine import registry
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer
from tests.support.table import play_to_end

GAMES = ["test-guess", "whirling-witchcraft"]


@pytest.mark.parametrize("game", GAMES)
async def test_whole_match_three_players_and_a_spectator(server: ThreadServer, game: str) -> None:
    code, players = await open_room(server.url, game, ["Agnes", "Brigid", "Circe"])
    spectator = Client(server.url)
    for client in [*players, spectator]:
        await client.connect(code)
    started = await players[0].http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text
    assert started.json()["version"] == 0

    final = await play_to_end(players, spectator, random.Random(7))

    assert final["result"]["winners"]
    assert final["to_move"] == [] and final["legal"] == []
    room = (await spectator.http.get(f"/api/rooms/{code}")).json()
    assert room["status"] == "finished"
    assert [s["connected"] for s in room["seats"]] == [True, True, True]
    assert room["spectators"] == 1

    # The HTTP state is the same object as the socket's. Its events are the last version's; a
    # socket that the fan-out caught up over two versions at once got both versions' events in
    # one message (so its log has no hole), which end with the same last ones.
    for client in [*players, spectator]:
        over_http = (await client.http.get(f"/api/rooms/{code}/state")).json()
        socket_events = client.state["events"]
        assert over_http["events"] == socket_events[len(socket_events) - len(over_http["events"]):]
        assert {**over_http, "events": None} == {**client.state, "events": None}

    # After the end, the log is the whole match, and it replays bit for bit.
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    replay = log["replay"]
    assert log["finished"] and replay["players"] == 3
    # The replay record holds every action by match version; the spectator's version counted
    # the public ones only (a seat's private steps are not counted in others' versions).
    assert [a["version"] for a in replay["actions"]] == list(range(1, len(replay["actions"]) + 1))
    assert len(replay["actions"]) >= final["version"]
    engine = registry.get(game)
    state = engine.setup(replay["players"], replay["seed"], replay["options"])
    for entry in replay["actions"]:
        state = engine.apply(state, entry["seat"], entry["action"]).state
    assert engine.view(state, None) == final["view"]
    for client in [*players, spectator]:
        await client.close()


async def test_a_spectator_sees_only_public_events(server: ThreadServer) -> None:
    code, players = await open_room(server.url, "test-guess", ["A", "B"])
    spectator = Client(server.url)
    for client in [*players, spectator]:
        await client.connect(code)
    await players[0].http.post(f"/api/rooms/{code}/start")
    await players[0].at_version(0)
    ack = await players[0].act({"type": "pick", "value": 2})
    assert ack["type"] == "ack"
    mine = await players[0].at_version(1)
    theirs = await players[1].at_version(1)
    watched = await spectator.at_version(1)
    assert {"type": "you_picked", "value": 2, "@to": [0]} in mine["events"]
    assert all(e["type"] == "picked" for e in theirs["events"] + watched["events"])
    assert mine["view"]["picks"][0] == 2
    assert theirs["view"]["picks"][0] == "hidden" == watched["view"]["picks"][0]
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    assert log["replay"] is None
    assert log["events"] == [{"version": 1, "type": "picked", "seat": 0}]
    for client in [*players, spectator]:
        await client.close()


async def test_reconnecting_socket_gets_the_full_current_state(server: ThreadServer) -> None:
    code, players = await open_room(server.url, "test-guess", ["A", "B"])
    for client in players:
        await client.connect(code)
    await players[0].http.post(f"/api/rooms/{code}/start")
    await players[1].at_version(0)
    await players[1].close()
    assert (await players[0].act({"type": "pick", "value": 1}))["type"] == "ack"
    again = Client(server.url, players[1].token, 1)
    await again.connect(code)
    state = await again.at_version(1)
    assert state["legal"] and state["view"]["picks"] == ["hidden", None]
    async with httpx.AsyncClient(base_url=server.url) as http:
        presence = (await http.get(f"/api/rooms/{code}")).json()
    assert [s["connected"] for s in presence["seats"]] == [True, True]
    for client in [players[0], again]:
        await client.close()
