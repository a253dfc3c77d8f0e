"""The stale-version rule is per seat: an older version is accepted only from a seat that has
not acted since it, and only while the match is in the stage it was in then.

Sequential turns of many sub-actions (tests/support/turns.py, one stage per turn): a sub-action
sent twice — a second tab, a retry under a new client_id — applies once. Simultaneous choices
(tests/support/guess.py): players choosing at the same moment never see stale_version. Both on
SQLite and PostgreSQL, across a restart and across two servers on one database."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

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


async def submit(
    client: Client, code: str, action: dict[str, Any], version: int | None, cid: str | None = None
) -> httpx.Response:
    body: dict[str, Any] = {"action": action, "client_id": cid or uuid.uuid4().hex}
    if version is not None:
        body["version"] = version
    return await client.http.post(f"/api/rooms/{code}/actions", json=body)


async def state(client: Client, code: str) -> dict[str, Any]:
    response = await client.http.get(f"/api/rooms/{code}/state")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def code_of(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])


async def test_a_sub_action_sent_twice_applies_once(server: ThreadServer) -> None:
    code, (first, second) = await open_room(server.url, "test-turns", ["Ada", "Bea"])
    await first.http.post(f"/api/rooms/{code}/start")
    add = {"type": "add", "value": 3}
    # Tab one adds at version 0; tab two, still showing version 0, sends the same add under
    # its own client_id. The stage (turn 0) is the same: only the seat rule refuses it.
    once = await submit(first, code, add, 0)
    assert once.status_code == 200, once.text
    assert once.json()["version"] == 1
    twice = await submit(first, code, add, 0)
    assert (twice.status_code, code_of(twice)) == (409, "stale_version")
    now = await state(first, code)
    assert (now["version"], now["view"]["totals"], now["view"]["adds"]) == (1, [3, 0], 1)
    # The next sub-action, sent against the version that shows the first one, applies.
    again = await submit(first, code, {"type": "add", "value": 1}, 1)
    assert again.json()["version"] == 2
    # A retry against version 1 (the seat has acted since: version 2) is refused too.
    retry = await submit(first, code, {"type": "add", "value": 1}, 1)
    assert code_of(retry) == "stale_version"
    # A seat that has not acted since an old version, but whose step has passed, is refused
    # by the stage: Bea answering a question from a turn that is over.
    assert (await submit(first, code, {"type": "ask"}, 2)).json()["version"] == 3
    assert (await submit(second, code, {"type": "answer", "yes": True}, 3)).json()["version"] == 4
    assert (await submit(first, code, {"type": "end"}, 4)).json()["version"] == 5
    late = await submit(second, code, {"type": "add", "value": 2}, 3)
    assert code_of(late) == "stale_version"
    now = await state(first, code)
    assert (now["version"], now["view"]["totals"]) == (5, [4, 0])
    # Bea now owes the turn: her first add against version 5 applies; the same add from her
    # second tab against version 5 does not.
    assert (await submit(second, code, add, 5)).json()["version"] == 6
    assert code_of(await submit(second, code, add, 5)) == "stale_version"
    # Without a version nothing is checked but the current state (documented): a retry
    # without a version is a new sub-action.
    assert (await submit(second, code, add, None)).json()["version"] == 7
    assert (await state(second, code))["view"]["totals"] == [4, 6]
    for client in (first, second):
        await client.close()


async def test_two_tabs_racing_on_a_sequential_turn_apply_one(server: ThreadServer) -> None:
    code, (host, _guest) = await open_room(server.url, "test-turns", ["Ada", "Bea"])
    await host.http.post(f"/api/rooms/{code}/start")
    tab_one, tab_two = Client(server.url, host.token, 0), Client(server.url, host.token, 0)
    await tab_one.connect(code)
    await tab_two.connect(code)
    await tab_one.at_version(0)
    await tab_two.at_version(0)
    add = {"type": "add", "value": 2}
    acks = await asyncio.gather(tab_one.act(add, version=0), tab_two.act(add, version=0))
    assert sorted(a["type"] for a in acks) == ["ack", "error"], acks
    refused = next(a for a in acks if a["type"] == "error")
    assert refused["code"] == "stale_version"
    now = await state(host, code)
    assert (now["version"], now["view"]["totals"]) == (1, [2, 0])
    for client in (tab_one, tab_two, host, _guest):
        await client.close()


async def test_simultaneous_choices_never_come_back_stale(server: ThreadServer) -> None:
    code, clients = await open_room(
        server.url, "test-guess", ["A", "B", "C", "D"], options={"rounds": 2}
    )
    await clients[0].http.post(f"/api/rooms/{code}/start")
    # Round 0: every seat picks against version 0, all at once; none is stale.
    picks = await asyncio.gather(
        *(submit(c, code, {"type": "pick", "value": (c.seat or 0) % 4}, 0) for c in clients)
    )
    assert [p.status_code for p in picks] == [200] * 4, [p.text for p in picks]
    assert sorted(p.json()["version"] for p in picks) == [1, 2, 3, 4]
    # The pick step is over: the caller alone owes a decision.
    late = await submit(clients[1], code, {"type": "pick", "value": 0}, 0)
    assert code_of(late) in ("stale_version", "not_your_turn")
    assert (await submit(clients[0], code, {"type": "call", "guess": "high"}, 3)).status_code == 409
    assert (await submit(clients[0], code, {"type": "call", "guess": "high"}, 4)).status_code == 200
    # Round 1 starts at version 5. Seat 0 picks first; its second tab's copy of that pick
    # (against version 5) is refused, while the others, who have not acted since version 5,
    # all get in against it.
    assert (await submit(clients[0], code, {"type": "pick", "value": 1}, 5)).status_code == 200
    again = await submit(clients[0], code, {"type": "pick", "value": 1}, 5)
    assert code_of(again) in ("stale_version", "not_your_turn")
    others = await asyncio.gather(
        *(submit(c, code, {"type": "pick", "value": 2}, 5) for c in clients[1:])
    )
    assert [o.status_code for o in others] == [200] * 3, [o.text for o in others]
    final = await submit(clients[1], code, {"type": "call", "guess": "low"}, 9)
    assert final.json()["version"] == 10
    end = await state(clients[0], code)
    assert end["result"] is not None
    # The result carries every seat's place (engine.protocol.Result.as_dict).
    assert len(end["result"]["placings"]) == 4 and min(end["result"]["placings"]) == 1
    for client in clients:
        await client.close()


async def test_the_rule_survives_a_restart_and_holds_across_servers(settings: Settings) -> None:
    add = {"type": "add", "value": 1}
    with ThreadServer(settings) as first:
        code, (ada, bea) = await open_room(first.url, "test-turns", ["Ada", "Bea"])
        await ada.http.post(f"/api/rooms/{code}/start")
        assert (await submit(ada, code, add, 0)).json()["version"] == 1
        # A second server on the same database, which has never seen this match.
        with ThreadServer(settings) as second:
            other = Client(second.url, ada.token, 0)
            assert code_of(await submit(other, code, add, 0)) == "stale_version"
            assert (await submit(other, code, add, 1)).json()["version"] == 2
            await other.close()
        assert code_of(await submit(ada, code, add, 1)) == "stale_version"
        await ada.close()
        await bea.close()
    # A restart: nothing in memory, the rule still holds.
    with ThreadServer(settings) as again:
        ada = Client(again.url, ada.token, 0)
        assert code_of(await submit(ada, code, add, 0)) == "stale_version"
        assert code_of(await submit(ada, code, add, 1)) == "stale_version"
        assert (await submit(ada, code, add, 2)).json()["version"] == 3
        assert (await state(ada, code))["view"]["totals"] == [3, 0]
        await ada.close()


async def test_a_match_stored_before_migration_0002_keeps_the_rule(tmp_path: Path) -> None:
    """Rows from before ``matches.acted`` existed (NULL): the seat's latest action is read
    from the actions table instead."""
    settings = sqlite_settings(tmp_path)
    add = {"type": "add", "value": 1}
    with ThreadServer(settings) as server:
        code, (ada, bea) = await open_room(server.url, "test-turns", ["Ada", "Bea"])
        await ada.http.post(f"/api/rooms/{code}/start")
        assert (await submit(ada, code, add, 0)).json()["version"] == 1
        assert (await submit(ada, code, {"type": "ask"}, 1)).json()["version"] == 2
        await ada.close()
        await bea.close()
    with sqlite3.connect(tmp_path / "coven.db") as db:
        db.execute("UPDATE matches SET acted = NULL, owing_since = NULL")
    with ThreadServer(settings) as server:
        ada, bea = Client(server.url, ada.token, 0), Client(server.url, bea.token, 1)
        assert code_of(await submit(ada, code, add, 0)) in ("stale_version", "not_your_turn")
        # Bea has not acted since version 1 and the turn (the stage) is the same: her answer
        # against version 1 is accepted; Ada's add against version 1 is not (she asked at 2).
        assert (await submit(bea, code, {"type": "answer", "yes": False}, 1)).status_code == 200
        assert code_of(await submit(ada, code, add, 1)) == "stale_version"
        assert (await submit(ada, code, add, 3)).json()["version"] == 4
        await ada.close()
        await bea.close()
