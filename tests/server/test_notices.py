"""The room layer's notices (``app.rooms.notices``): a reaction subscribed in this worker hears
of each move this worker committed, once and in order, the match's last one marked finished;
a repeat or a refused move makes no notice, and a reaction that fails never fails a move."""

from __future__ import annotations

import random

from app.rooms.notices import Moved
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer
from tests.support.table import play_to_end


async def test_each_committed_move_is_noticed_once_and_the_last_one_finishes(
    server: ThreadServer,
) -> None:
    service = server.server.config.app.state.coven.service  # type: ignore[attr-defined]
    moved: list[Moved] = []

    def broken(_: Moved) -> None:
        raise RuntimeError("a reaction that fails")

    code, players = await open_room(server.url, "test-guess", ["A", "B"], options={"rounds": 1})
    # This room's moves only: the server's bot sweep may still play a room an earlier test left
    # in the same database.
    service.notices.on_move.extend([broken, lambda m: moved.append(m) if m.code == code else None])
    spectator = Client(server.url)
    for client in [*players, spectator]:
        await client.connect(code)
    await players[0].http.post(f"/api/rooms/{code}/start")
    await players[0].at_version(0)

    first = await players[0].act({"type": "pick", "value": 1}, client_id="first")
    assert first["type"] == "ack" and first["version"] == 1
    repeat = await players[0].act({"type": "pick", "value": 1}, client_id="first")
    assert repeat["type"] == "ack" and repeat["duplicate"]
    refused = await players[0].act({"type": "pick", "value": 2})
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    assert [(m.code, m.seat, m.by_bot, m.table.version) for m in moved] == [(code, 0, False, 1)]

    for client in [*players, spectator]:
        await client.at_version(1)
    final = await play_to_end(players, spectator, random.Random(3))

    assert [m.table.version for m in moved] == list(range(1, final["version"] + 1))
    assert [m.finished for m in moved] == [False] * (len(moved) - 1) + [True]
    assert moved[-1].table.result == final["result"]
    for client in [*players, spectator]:
        await client.close()
