"""Seasons at a real table: a person and bots play a whole match through the server, and a
sub-action of a sequential turn re-sent with a new client_id is refused (the stale rule)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import sqlite_settings
from tests.support.client import open_room
from tests.support.server import ThreadServer


@pytest.fixture
def table(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(sqlite_settings(tmp_path)) as running:
        yield running


@pytest.mark.parametrize("level", ["apprentice", "master"])
async def test_a_person_and_a_bot_play_a_whole_match(table: ThreadServer, level: str) -> None:
    code, (host,) = await open_room(table.url, "seasons", ["Host"], options={"level": level})
    added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
    assert added.status_code == 200, added.text
    await host.connect(code)
    await host.http.post(f"/api/rooms/{code}/start")
    rng = random.Random(5)
    resent = False
    for _ in range(3000):
        await host.until(
            lambda: host.state is not None and (bool(host.state["legal"]) or host.state["result"])
        )
        assert host.state is not None
        if host.state["result"] is not None:
            break
        version = host.state["version"]
        action = host.random_legal(rng)
        assert action is not None
        ack = await host.act(action, version=version)
        assert ack["type"] == "ack", ack
        if host.state["view"]["phase"] == "turn" and not resent:
            again = await host.act(action, version=version)  # a retry with a new client_id
            assert again["type"] == "error", again
            resent = True
        await host.at_version(ack["version"])
    assert host.state is not None and host.state["result"] is not None
    assert resent
    await host.close()
