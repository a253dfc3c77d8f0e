"""Replays (app/replay.py): nothing before the end; afterwards every step of the match, for
every seat, exactly as the players and the spectator were shown it, for the three games."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from app import replay as replays
from app.errors import CovenError
from engine import registry
from engine.protocol import events_for
from engine.simulate import play_match
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer
from tests.support.table import play_to_end

GAMES = {"whirling-witchcraft": 2, "witchs-brew": 3, "seasons": 2}


async def all_views(http: httpx.AsyncClient, code: str, last: int) -> list[dict[str, Any]]:
    """Every step's views, fetched as the browser does: a few steps at a time."""
    steps: list[dict[str, Any]] = []
    while len(steps) <= last:
        got = await http.get(
            f"/api/rooms/{code}/replay/steps",
            params={"start": len(steps), "count": replays.MAX_COUNT},
        )
        assert got.status_code == 200, got.text
        steps += got.json()["steps"]
    assert [s["step"] for s in steps] == list(range(last + 1))
    return steps


def private_to(timeline: dict[str, Any], steps: list[dict[str, Any]], k: int) -> int | None:
    """The seat step ``k`` was private to, read from the replay as the server's rule reads
    it (app/rooms/private_steps.py): all its events its actor's, and every other seat's and
    the spectator's view, who owes and the result as before it; None: a public step."""
    if k == 0:
        return None
    seat = timeline["steps"][k]["seat"]
    now, before = steps[k], steps[k - 1]
    if any(e.get("@to") != [seat] for e in timeline["steps"][k]["events"]):
        return None
    if (now["to_move"], now["result"], now["spectator"]) != (
        before["to_move"], None, before["spectator"]
    ):
        return None
    others = [o for o in range(len(now["views"])) if o != seat]
    return None if any(now["views"][o] != before["views"][o] for o in others) else seat


def own_versions(
    timeline: dict[str, Any], steps: list[dict[str, Any]], seat: int | None
) -> list[int]:
    """Per match step, the version ``seat`` (None: a spectator) numbers it: the steps visible
    to her so far (another seat's private steps are not counted)."""
    counted, numbers = 0, []
    for k in range(len(steps)):
        if k and private_to(timeline, steps, k) in (None, seat):
            counted += 1
        numbers.append(counted)
    return numbers


def assert_replay_shows_what_was_sent(
    client: Client, timeline: dict[str, Any], steps: list[dict[str, Any]]
) -> None:
    """Every ``state`` the client got is the replay at that version, seen from its seat: the
    same view, the same seats owing, and the events of every version since its last one."""
    seat = client.seat
    states = [m for m in client.messages if m.get("type") == "state"]
    assert states, "the client saw no state"
    # Each reader's versions are her own: the latest match step she numbers so.
    numbers = own_versions(timeline, steps, seat)
    at = {number: k for k, number in enumerate(numbers)}
    first = {number: k for k, number in reversed(list(enumerate(numbers)))}
    # A socket opened mid-match starts with the events of the latest step it can see.
    seen = first[states[0]["version"]] - 1
    for message in states:
        version = at[message["version"]]
        step = steps[version]
        assert message["view"] == (step["spectator"] if seat is None else step["views"][seat])
        assert message["to_move"] == step["to_move"]
        assert message["result"] == step["result"]
        if version > seen:
            since = [e for s in timeline["steps"][seen + 1 : version + 1] for e in s["events"]]
            assert message["events"] == events_for(since, seat), f"version {version}"
        seen = max(seen, version)


@pytest.mark.parametrize("game", list(GAMES))
async def test_the_replay_is_the_match_every_seat_saw(
    sqlite_server: ThreadServer, game: str
) -> None:
    names = ["Agnes", "Brigid", "Circe"][: GAMES[game]]
    code, players = await open_room(sqlite_server.url, game, names)
    spectator = Client(sqlite_server.url)
    for client in [*players, spectator]:
        await client.connect(code)
    early = await spectator.http.get(f"/api/rooms/{code}/replay")
    assert (early.status_code, early.json()["error"]["code"]) == (409, "not_finished")
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200

    final = await play_to_end(players, spectator, random.Random(11), check_leaks=False)

    started = time.monotonic()
    got = await spectator.http.get(f"/api/rooms/{code}/replay")
    assert got.status_code == 200, got.text
    assert time.monotonic() - started < 5, "building a replay took too long"
    timeline = got.json()
    assert timeline["game"] == game and timeline["players"] == len(names)
    assert [s["name"] for s in timeline["seats"]] == names
    assert timeline["last"] == len(timeline["steps"]) - 1
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    assert [(s["seat"], s["action"]) for s in timeline["steps"][1:]] == [
        (a["seat"], a["action"]) for a in log["replay"]["actions"]
    ]

    steps = await all_views(spectator.http, code, timeline["last"])
    assert final["version"] == own_versions(timeline, steps, None)[-1]
    for client in [*players, spectator]:
        assert_replay_shows_what_was_sent(client, timeline, steps)
    # The last step is the end the players were shown: same result, scores and placings.
    last = steps[-1]
    assert last["result"] == timeline["result"] == final["result"]
    assert all(s["result"] is None for s in steps[:-1])
    for client in players:
        assert client.state is not None
        assert last["views"][client.seat] == client.state["view"]
        assert client.state["result"]["scores"] == last["result"]["scores"]
    for client in [*players, spectator]:
        await client.close()


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_match_bots_played_replays_as_its_sockets_saw_it(
    sqlite_server: ThreadServer, game: str
) -> None:
    code, (host,) = await open_room(sqlite_server.url, game, ["Agnes"])
    for _ in range(GAMES[game] - 1):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    # The host leaves her seat to a bot too: nobody but bots plays; she and a spectator watch.
    handed = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0})
    assert handed.status_code == 200, handed.text
    spectator = Client(sqlite_server.url)
    for client in (host, spectator):
        await client.connect(code)
    deadline = time.monotonic() + 60
    while (await host.http.get(f"/api/rooms/{code}")).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots never finished the match"
        await asyncio.sleep(0.1)
    timeline = (await host.http.get(f"/api/rooms/{code}/replay")).json()
    assert all(s["bot"] for s in timeline["steps"][1:])
    steps = await all_views(host.http, code, timeline["last"])
    # What reached the sockets (bots moving flat out may outrun a socket, which the server
    # then cuts: what did arrive must still be the match), and the end over HTTP.
    for client in (host, spectator):
        assert_replay_shows_what_was_sent(client, timeline, steps)
        final = (await client.http.get(f"/api/rooms/{code}/state")).json()
        assert final["version"] == own_versions(timeline, steps, client.seat)[-1]
        seen = steps[-1]["spectator"] if client.seat is None else steps[-1]["views"][client.seat]
        assert (final["view"], final["result"]) == (seen, steps[-1]["result"])
    for client in (host, spectator):
        await client.close()


async def test_refusals_have_clear_codes(sqlite_server: ThreadServer) -> None:
    code, (host, guest) = await open_room(sqlite_server.url, "test-guess", ["A", "B"])
    for client in (host, guest):
        await client.connect(code)

    async def refusal(path: str, **params: int) -> tuple[int, str]:
        got = await host.http.get(f"/api/rooms/{code}{path}", params=params)
        return got.status_code, got.json()["error"]["code"]

    # Before the start and while it runs, a replay shows nothing, to players and spectators.
    assert await refusal("/replay") == (409, "not_finished")
    await host.http.post(f"/api/rooms/{code}/start")
    await host.at_version(0)
    assert (await host.act({"type": "pick", "value": 1}))["type"] == "ack"
    assert await refusal("/replay") == (409, "not_finished")
    assert await refusal("/replay/steps", start=0) == (409, "not_finished")
    page = await host.http.get(f"/r/{code}/replay")
    assert page.status_code == 200 and "replay.js" in page.text

    watcher = await Client(sqlite_server.url).connect(code)
    await play_to_end([host, guest], watcher, random.Random(2))
    await watcher.close()
    timeline = (await host.http.get(f"/api/rooms/{code}/replay")).json()
    last = timeline["last"]
    assert await refusal("/replay/steps", start=last + 1) == (404, "no_such_step")
    assert await refusal("/replay/steps", start=-1) == (404, "no_such_step")
    assert await refusal("/replay/steps", count=0) == (422, "bad_count")
    assert await refusal("/replay/steps", count=replays.MAX_COUNT + 1) == (422, "bad_count")
    # Asking past the end gives what there is.
    tail = (
        await host.http.get(f"/api/rooms/{code}/replay/steps", params={"start": last, "count": 5})
    ).json()
    assert [s["step"] for s in tail["steps"]] == [last]
    unknown = await host.http.get("/api/rooms/nosuchroom/replay")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "room_not_found")
    assert (await host.http.get("/r/nosuchroom/replay")).status_code == 404
    for client in (host, guest):
        await client.close()


def simulated_log(game_id: str, players: int, seed: int) -> dict[str, Any]:
    """A finished match's log as ``RoomService.log`` gives it, played by random bots."""
    playout = play_match(registry.get(game_id), players, seed)
    assert playout.finished
    return {
        "replay": {
            "game": game_id,
            "seed": seed,
            "players": players,
            "options": {},
            "seats": [{"seat": s, "name": f"Bot {s + 1}", "bot": "random"} for s in range(players)],
            "actions": [
                {"version": v, "seat": seat, "action": action, "bot": True}
                for v, (seat, action) in enumerate(playout.actions, 1)
            ],
        }
    }


def test_a_long_match_replays_quickly_and_any_step_is_cheap() -> None:
    # Witch's Brew with five witches is the longest match of the three (some 1,800 actions).
    log = simulated_log("witchs-brew", 5, 3)
    started = time.monotonic()
    built = replays.replay(log)
    assert time.monotonic() - started < 3
    assert built.last == len(log["replay"]["actions"]) > 1000
    started = time.monotonic()
    tail = built.steps(built.last - replays.MAX_COUNT + 1, replays.MAX_COUNT)
    assert time.monotonic() - started < 2
    assert tail[-1]["result"] == built.timeline["result"]
    # A step rebuilt from the nearest checkpoint is the step replayed from the start.
    game = registry.get("witchs-brew")
    state = game.setup(5, 3, {})
    for entry in log["replay"]["actions"][:777]:
        state = game.apply(state, entry["seat"], entry["action"]).state
    assert built.steps(777, 1)[0]["views"] == [game.view(state, s) for s in range(5)]


def test_a_log_too_long_or_broken_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    log = simulated_log("whirling-witchcraft", 2, 5)
    monkeypatch.setattr(replays, "MAX_STEPS", len(log["replay"]["actions"]) - 1)
    with pytest.raises(CovenError) as too_long:
        replays.replay(log)
    assert (too_long.value.code, too_long.value.status) == ("replay_too_long", 413)
    monkeypatch.undo()
    log["replay"]["actions"] = log["replay"]["actions"][:-1]
    with pytest.raises(CovenError) as unfinished:
        replays.replay(log)
    assert unfinished.value.code == "replay_broken"
