"""Two app instances in separate processes sharing PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as redis

from tests.server.conftest import worker_env
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer, two_process_servers
from tests.support.table import play_to_end
from tests.support.workers import listen, split_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def unlimited_workers(
    pg_schema: str, redis_url: str
) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two workers without the per-seat refusal limit (a flat-out test's races are many)."""
    with two_process_servers(worker_env(pg_schema, redis_url, COVEN_REFUSED_BURST="0")) as pair:
        yield pair


@pytest.mark.parametrize("game", ["whirling-witchcraft", "test-guess"])
async def test_two_workers_share_one_table(
    two_workers: tuple[ProcessServer, ProcessServer], redis_url: str, game: str
) -> None:
    a, b = two_workers
    code, seated = await open_room(a.url, game, ["Agnes", "Brigid", "Circe"])
    # Seats 0 and 2 play through A, seat 1 through B; the spectator watches on B.
    players, spectator = split_table(a, b, seated)
    bus: list[dict[str, Any]] = []
    subscribed = asyncio.Event()
    listener = asyncio.create_task(listen(redis_url, f"room:{code}", bus, subscribed))
    await asyncio.wait_for(subscribed.wait(), 10)
    for client in [*players, spectator]:
        await client.connect(code)
    # Presence agrees across workers: B's room page shows A's sockets too.
    await spectator.until(
        lambda: any(
            m["type"] == "presence" and all(s["connected"] for s in m["seats"])
            for m in spectator.messages
        ),
        timeout=25,  # a dropped notice is mended by the next presence refresh (10 s)
        what="presence from both workers",
    )
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200

    final = await play_to_end(players, spectator, random.Random(11))
    assert final["result"] is not None

    # The spectator on B saw every action submitted anywhere: its events are the public log.
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    seen = [e for m in spectator.messages if m["type"] == "state" for e in m["events"]]
    assert seen == [{k: v for k, v in e.items() if k != "version"} for e in log["events"]]

    # The bus carried versions, public events and presence, never a view or a secret.
    listener.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await listener
    # Every version announced once; two workers' announcements may cross on the way.
    versions = [m["version"] for m in bus if m["type"] == "version"]
    # match versions: a seat's private steps are announced on the bus too (to its own sockets)
    assert sorted(versions) == list(range(0, len(log["replay"]["actions"]) + 1))
    for message in bus:
        assert not {"view", "legal", "state", "snapshot", "token"} & message.keys()
        assert all("@to" not in e for e in message.get("events", []))
    for client in [*players, spectator]:
        await client.close()


async def _flat_out(player: Client, rng: random.Random, until: float) -> list[dict[str, Any]]:
    """One seat acting the instant it may, until ``until`` (loop time): whenever it holds a
    state in which it owes a decision it has not answered, a random legal action against
    that version. Returns every answer."""
    loop = asyncio.get_running_loop()
    answers: list[dict[str, Any]] = []
    acted_on = -1
    floor = 0  # this seat's newest acknowledged version: its state may arrive after the ack
    while loop.time() < until:
        state = player.state
        if state is not None and state["result"] is not None:
            break
        if (
            state is None
            or not state["legal"]
            or state["version"] in (acted_on,)
            or (state["version"] < floor)
        ):
            await asyncio.sleep(0.005)
            continue
        acted_on = state["version"]
        answer = await player.act(rng.choice(state["legal"]), version=acted_on)
        if answer["type"] == "ack":
            floor = answer["version"]
        answers.append(answer)
    return answers


async def test_two_workers_racing_on_one_table_never_answer_busy(
    unlimited_workers: tuple[ProcessServer, ProcessServer],
) -> None:
    """Issue 12: rooms whose seats sit on both workers, every seat acting the instant it may
    (Whirling Witchcraft: production and study are simultaneous), so the two workers race
    for the same versions all the time. A lost race is retried holding the match row: no
    legal move is ever refused ``busy``. (Refusals a race makes legitimately — a stage that
    moved on, ``stale_version`` — may happen.)"""
    a, b = unlimited_workers
    rooms: list[list[Client]] = []
    for r in range(10):
        names = ["A", "B", "C", "D", "E"]
        code, seated = await open_room(a.url, "whirling-witchcraft", names)
        # Seats alternate between the workers; room by room the first seat changes side.
        players = [Client((a, b)[(s + r) % 2].url, seated[s].token, s) for s in range(len(seated))]
        for client in players:
            await client.connect(code)
        assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
        rooms.append(players)
    until = asyncio.get_running_loop().time() + 8
    results = await asyncio.gather(
        *(
            _flat_out(player, random.Random(r * 10 + s), until)
            for r, players in enumerate(rooms)
            for s, player in enumerate(players)
        )
    )
    answers = [answer for seat in results for answer in seat]
    codes = Counter(answer.get("code", "ack") for answer in answers)
    assert codes["ack"] > 500, codes
    assert codes["busy"] == 0, codes
    assert set(codes) <= {"ack", "stale_version", "not_your_turn"}, codes
    for players in rooms:
        for client in players:
            await client.close()


async def test_routed_by_room_a_move_reaches_one_worker(
    two_workers: tuple[ProcessServer, ProcessServer], redis_url: str
) -> None:
    """Every socket of a room on one worker (as deploy/Caddyfile routes /ws/rooms/{code}): a
    worker subscribes to the rooms its sockets watch and no others, so a move is heard by one
    worker however many run — what a move costs does not grow with N. A socket of the same
    room on the other worker makes it listen too, and both keep playing."""
    a, b = two_workers
    rooms: dict[str, tuple[list[Client], Client]] = {}
    for server, names in ((a, ["Agnes", "Brigid"]), (b, ["Circe", "Dorcas"])):
        code, seated = await open_room(server.url, "test-guess", names)
        players = [Client(server.url, s.token, n) for n, s in enumerate(seated)]
        spectator = Client(server.url)
        for client in [*players, spectator]:
            await client.connect(code)
        rooms[code] = (players, spectator)
    listeners = redis.Redis.from_url(redis_url, decode_responses=True)

    async def subscribers() -> dict[str, int]:
        counts = await listeners.pubsub_numsub(*(f"room:{code}" for code in rooms))
        return {channel: int(n) for channel, n in counts}

    try:
        assert await subscribers() == {f"room:{code}": 1 for code in rooms}
        for code, (players, spectator) in rooms.items():
            assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
            final = await play_to_end(players, spectator, random.Random(5))
            assert final["result"] is not None
        assert await subscribers() == {f"room:{code}": 1 for code in rooms}
        # A spectator of A's room on B: B listens to that room now, and sees its state.
        code = next(iter(rooms))
        visitor = await Client(b.url).connect(code)
        await visitor.at_version(rooms[code][1].state["version"])  # type: ignore[index]
        assert (await subscribers())[f"room:{code}"] == 2
        await visitor.close()
    finally:
        await listeners.aclose()
        for players, spectator in rooms.values():
            for client in [*players, spectator]:
                await client.close()
