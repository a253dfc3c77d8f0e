"""A room takes its next move while its last one's commit is out (PostgreSQL; issue 24 item 1;
app/rooms/in_flight.py).

Real ``coven serve`` workers over real sockets: players of a table all pick at once, so the
moves of a room arrive while the one before is committing. They go behind it (the metric
counts them), every one is acknowledged only once durable, and the stored log is the match the
sockets saw — it replays through the engine to the same end. With the table's seats on two
workers, a move sent behind one that lost its commit to the other worker's goes the careful
way, and every match still ends as the rules say.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.replay import replay
from tests.server.conftest import PG_URL, worker_env
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer, two_process_servers
from tests.support.table import at_table, play_to_end, played, start
from tests.support.workers import split_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def counted(url: str) -> dict[str, float]:
    """This deployment's move counters: sent behind, and lost commits by how they went on."""
    text = httpx.get(f"{url}/metrics", timeout=30).text
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "coven_moves_behind_total":
                found[f"behind:{sample.labels['went']}"] = sample.value
            elif sample.name == "coven_lost_commits_total":
                found[f"lost:{sample.labels['resolved']}"] = sample.value
    return found


@pytest.fixture
def one_worker(pg_schema: str, redis_url: str) -> Iterator[ProcessServer]:
    server = ProcessServer(worker_env(pg_schema, redis_url, COVEN_METRICS="1")).start()
    try:
        yield server
    finally:
        server.stop()


async def stored_match_replays_to(url: str, code: str, final: dict[str, Any]) -> None:
    """The log in the database holds every move once, in versions 1..n, and replays through
    the engine to the end the sockets were shown."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        log = (await http.get(f"/api/rooms/{code}/log")).json()
    versions = [a["version"] for a in log["replay"]["actions"]]
    assert versions == list(range(1, final["version"] + 1))
    replayed = replay(log)
    result = replayed.game.result(replayed.state_at(replayed.last))
    assert result is not None
    assert result.as_dict() == final["result"]


async def test_a_tables_picks_go_behind_the_one_committing(one_worker: ProcessServer) -> None:
    url = one_worker.url
    before = counted(url).get("behind:landed", 0.0)
    for seed in range(3):
        code, seated = await open_room(url, "test-guess", ["Agnes", "Brigid", "Circe"])
        final = await played(code, seated, Client(url), random.Random(seed))
        assert final["result"] is not None
        await stored_match_replays_to(url, code, final)
    assert counted(url).get("behind:landed", 0.0) > before  # picks went behind one another


async def test_seats_on_two_workers_racing_with_moves_in_flight(
    pg_schema: str, redis_url: str
) -> None:
    env = worker_env(pg_schema, redis_url, COVEN_METRICS="1")
    with two_process_servers(env) as (a, b):
        for seed in range(4):
            code, seated = await open_room(a.url, "test-guess", ["Agnes", "Brigid", "Circe"])
            players, spectator = split_table(a, b, seated)
            final = await played(code, players, spectator, random.Random(seed))
            assert final["result"] is not None
            await stored_match_replays_to(a.url, code, final)
        totals = [counted(worker.url) for worker in (a, b)]
    # Moves went behind ones committing, while the two workers raced for the same matches
    # (which moves lose is up to timing: the test below makes one lose on purpose).
    assert sum(t.get("behind:landed", 0.0) for t in totals) > 0, totals


async def pg_connect() -> Any:
    return await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))


def applied(url: str) -> float:
    """How many moves this worker has applied (``coven_move_seconds{stage="applied"}``)."""
    text = httpx.get(f"{url}/metrics", timeout=30).text
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "coven_move_seconds_count" and sample.labels["stage"] == "applied"
    )


async def until(check: Callable[[], Awaitable[bool]], what: str, seconds: float = 20) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


async def test_a_move_behind_one_that_does_not_land_goes_the_careful_way(
    one_worker: ProcessServer, pg_schema: str
) -> None:
    """Seat 1 picks under a client_id seat 0 already used, while the match row is held (its
    commit waits, out); seat 2 picks meanwhile and goes behind it. Seat 1's commit fails on the
    taken id, so seat 2's never lands as sent: it is applied again to the match as committed
    and lands there, and seat 1 hears why hers was refused."""
    url = one_worker.url
    code, seated = await open_room(url, "test-guess", ["Agnes", "Brigid", "Circe"])
    spectator = Client(url)
    async with at_table(code, [*seated, spectator]):
        await start(seated[0], code)
        for client in seated:
            await client.synced()
        first = await seated[0].act({"type": "pick", "value": 1}, client_id="taken")
        assert first["type"] == "ack"
        holder, watch = await pg_connect(), await pg_connect()
        try:
            match = await holder.fetchval(
                f'SELECT m.id FROM "{pg_schema}".matches m JOIN "{pg_schema}".rooms r'
                " ON r.id = m.room_id WHERE r.code = $1",
                code,
            )
            held = holder.transaction()
            await held.start()
            await holder.execute(
                f'SELECT 1 FROM "{pg_schema}".matches WHERE id = $1 FOR UPDATE', match
            )
            before = applied(url)
            refused = asyncio.create_task(
                seated[1].act({"type": "pick", "value": 2}, client_id="taken")
            )

            async def out() -> bool:
                waiting = await watch.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND query LIKE '%UPDATE matches%'"
                )
                return bool(waiting)

            await until(out, "seat 1's commit waiting for the match row")
            behind = asyncio.create_task(seated[2].act({"type": "pick", "value": 3}))

            async def both_applied() -> bool:
                return applied(url) >= before + 2

            await until(both_applied, "seat 2's pick applied behind seat 1's")
            await held.rollback()
        finally:
            await holder.close()
            await watch.close()
        assert (await refused)["code"] == "client_id_taken"
        assert (await behind)["type"] == "ack"
        assert counted(url).get("behind:careful") == 1.0
        # Seat 1 picks again under a new id; the match goes on to its end as the rules say.
        assert (await seated[1].act({"type": "pick", "value": 2}))["type"] == "ack"
        final = await play_to_end(seated, spectator, random.Random(1))
    await stored_match_replays_to(url, code, final)
