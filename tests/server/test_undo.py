"""Undo over the real move path: the ``state`` message says who may undo, ``{"type": "undo"}``
goes through ``act`` like any action (version guard, log, replay), and a refused undo is an
error with its code. The undo of a private step is private too (told to its seat alone)."""

from __future__ import annotations

import pytest

from tests.support.client import Client, open_room
from tests.support.server import ThreadServer


@pytest.mark.parametrize("game", ["whirling-witchcraft", "witchs-brew"])
async def test_undo_through_the_move_path(server: ThreadServer, game: str) -> None:
    code, players = await open_room(server.url, game, ["Agnes", "Brigid", "Circe"])
    spectator = Client(server.url)
    for client in [*players, spectator]:
        await client.connect(code)
    started = await players[0].http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text
    first = [await p.at_version(0) for p in players]
    assert [m["undo"] for m in first] == [False, False, False]  # nothing to take back yet
    assert first[0]["to_move"] == [0, 1, 2]  # a simultaneous choice opens the match

    ack = await players[0].act(first[0]["legal"][0], version=0)
    assert ack["type"] == "ack", ack
    # Versions are each reader's own: Witch's Brew's first step (keeping a role) is private,
    # so it moves seat 0's version alone; Whirling Witchcraft's recipe play is public.
    mine, theirs = await players[0].at_version(1), await players[1].synced()
    assert theirs["version"] == (0 if game == "witchs-brew" else 1)
    assert mine["undo"] is True and theirs["undo"] is False
    assert (await spectator.synced())["undo"] is False

    refused = await players[1].act({"type": "undo"}, version=theirs["version"])
    assert refused["type"] == "error" and refused["code"] == "cannot_undo", refused

    ack = await players[0].act({"type": "undo"}, version=1)
    assert ack["type"] == "ack", ack
    back = await players[0].at_version(2)
    assert back["undo"] is False
    assert back["legal"] == first[0]["legal"] and back["view"] == first[0]["view"]
    assert back["to_move"] == [0, 1, 2]
    if game == "witchs-brew":
        # Her keep was a private step, and so is its undo: told to her alone, and nobody
        # else's version moves.
        assert back["events"] == [{"type": "undone_privately", "seat": 0, "@to": [0]}]
        watched = await spectator.synced()
        assert watched["version"] == theirs["version"] == (await players[1].synced())["version"]
        told = {"version": back["version"], "type": "undone_privately", "seat": 0, "@to": [0]}
    else:
        # Her recipe was played in the open (face down, but seen): the undo is public.
        watched = await spectator.at_version(theirs["version"] + 1)
        assert {"type": "undone", "seat": 0} in watched["events"]
        told = {"version": watched["version"], "type": "undone", "seat": 0}

    # The same undo sent again (a second tab) is refused: she acted since that version.
    again = await players[0].act({"type": "undo"}, version=1)
    assert again["type"] == "error", again

    # The table log holds the undo like any move; a fresh socket reads the same table.
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    assert (told in log["events"]) == (game != "witchs-brew")
    own_log = (await players[0].http.get(f"/api/rooms/{code}/log")).json()
    assert told in own_log["events"]
    over_http = (await players[0].http.get(f"/api/rooms/{code}/state")).json()
    assert over_http["undo"] is False and over_http["view"] == back["view"]
    for client in [*players, spectator]:
        await client.close()
