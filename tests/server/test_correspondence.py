"""A correspondence match, a day per move, over a clock the test moves (every worker reads
``COVEN_TEST_CLOCK_FILE``): 25 hours pass, the overdue seat's rule applies, and each push and
each webhook post happens exactly once — with a worker killed (-9) and restarted in between,
on one SQLite worker and on two workers (PostgreSQL + Redis).

Ana (host, seat 0) and Bea (seat 1) play two rounds of the test game "guess" (both pick at
once, then the round's caller calls). Bea gets pushes on one device (a stand-in push service
on 127.0.0.1 checks the signature and decrypts them); the table posts to a Discord-shaped
webhook (a receiver on 127.0.0.1):

    start            both owe a pick  → push turn to Bea; post "Ana and Bea to play"
    Ana picks
    +20 h            a fifth of Bea's day is left → push reminder to Bea
    +25 h            Bea's clock ran out: a bot picks for her (rule "move") → Ana calls →
                     post "Ana's turn"
    Ana calls        round 2: both owe a pick (kill -9 right after) → push turn; post
    Bea, Ana pick    Bea calls (round 2's caller) → push turn; post "Bea's turn"
    Bea calls        the end → post "… won"
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.notify.outbox import LEASE_SECONDS
from app.store.db import make_engine, migrate
from app.store.models import NotificationRow
from tests.server.conftest import PG_URL, _pg_execute
from tests.support.push_service import PushService
from tests.support.server import ProcessServer
from tests.support.webhook_receiver import WebhookReceiver

HOUR = 3600.0
DAY = 24 * HOUR


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A schema of its own: a 25-hour jump must find no other test's clocks to run out."""
    schema = f"coven_corr_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg_execute(f'CREATE SCHEMA "{schema}"'))
    try:
        migrate(PG_URL, schema)
        yield schema
    finally:
        asyncio.run(_pg_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


class Deployment:
    """Workers of one deployment, sharing the clock file."""

    def __init__(self, env: dict[str, str], workers: int, clock: Path) -> None:
        self.env = env
        self.clock = clock
        self.workers = [ProcessServer(env) for _ in range(workers)]

    def __enter__(self) -> Deployment:
        for worker in self.workers:
            worker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for worker in self.workers:
            worker.stop()

    def url(self, n: int = 0) -> str:
        return self.workers[n % len(self.workers)].url

    def advance(self, seconds: float) -> None:
        offset = float(self.clock.read_text() or 0) if self.clock.exists() else 0.0
        self.clock.write_text(str(offset + seconds))

    async def nothing_in_flight(self) -> None:
        """Until no notification is claimed and unrecorded: a worker killed between the
        receiver's answer and the record sends that one again when its claim runs out — the
        one repeat the outbox allows (docs), not what this test is about."""
        engine = make_engine(self.env["COVEN_DATABASE_URL"], self.env.get("COVEN_DATABASE_SCHEMA"))
        claimed = select(func.count()).where(NotificationRow.claimed_until > 0)
        try:

            async def settled() -> bool:
                async with engine.connect() as connection:
                    return (await connection.scalar(claimed)) == 0

            await until(settled, "every claimed notification recorded")
        finally:
            await engine.dispose()

    def kill_and_restart(self, n: int) -> None:
        old = self.workers[n]
        old.kill()
        self.workers[n] = ProcessServer(self.env, port=old.port).start()


async def call(
    method: str, url: str, path: str, token: str | None = None, **kwargs: Any
) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(timeout=15) as http:
        response = await http.request(method, url + path, headers=headers, **kwargs)
    assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
    return response.json() if response.content else {}


async def act(url: str, code: str, token: str, action: dict[str, Any]) -> None:
    await call(
        "POST",
        url,
        f"/api/rooms/{code}/actions",
        token,
        json={"action": action, "client_id": uuid.uuid4().hex},
    )


async def state(url: str, code: str, token: str) -> dict[str, Any]:
    return await call("GET", url, f"/api/rooms/{code}/state", token)


async def until(check: Any, what: str, timeout: float = 30.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await check()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.1)


def kinds_of_pushes(push: PushService, device: Any) -> list[str]:
    out = []
    for delivery in push.to(device):
        assert not delivery.problems, delivery.problems
        assert delivery.payload is not None
        out.append(str(delivery.payload.get("title", "")))
    return out


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres])])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[dict[str, str], int]]:
    base = {
        "COVEN_TEST_CLOCK_FILE": str(tmp_path / "clock"),
        "COVEN_WEBHOOK_ALLOW_PRIVATE": "1",  # the receiver and the push service are on 127.0.0.1
        "COVEN_NOTIFY_SWEEP_SECONDS": "0.2",
        "COVEN_SWEEP_SECONDS": "0.3",
        "COVEN_BOT_DELAY": "0",
        "COVEN_BOT_PROCESSES": "0",
    }
    if request.param == "sqlite":
        yield {**base, "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"}, 1
        return
    redis_url = request.getfixturevalue("redis_url")
    try:
        with fresh_schema() as schema:
            yield (
                {
                    **base,
                    "COVEN_DATABASE_URL": PG_URL,
                    "COVEN_DATABASE_SCHEMA": schema,
                    "COVEN_MIGRATE_ON_START": "0",
                    "COVEN_REDIS_URL": redis_url,
                },
                2,
            )
    except OSError as exc:  # PostgreSQL unreachable
        pytest.skip(f"PostgreSQL: {exc!r}")


async def test_a_day_per_move_notifies_each_thing_once_through_kill_and_workers(
    backend: tuple[dict[str, str], int], tmp_path: Path
) -> None:
    env, workers = backend
    clock = tmp_path / "clock"
    clock.write_text("0")
    with Deployment(env, workers, clock) as coven, WebhookReceiver() as chat:
        key = (await call("GET", coven.url(), "/api/push/key"))["public_key"]
        with PushService(server_key=key) as push:
            created = await call(
                "POST",
                coven.url(0),
                "/api/rooms",
                json={
                    "game": "test-guess",
                    "name": "Ana",
                    "visibility": "private",
                    "options": {"rounds": 2},
                    "turn_seconds": DAY,
                    "clock_rule": "move",
                },
            )
            code, ana = created["room"]["code"], created["token"]
            assert created["room"]["pace"] == "correspondence"
            bea = (
                await call("POST", coven.url(1), f"/api/rooms/{code}/join", json={"name": "Bea"})
            )["token"]
            device = push.device()
            await call(
                "POST",
                coven.url(1),
                f"/api/rooms/{code}/push",
                bea,
                json={"subscription": device.subscription(), "lang": "en"},
            )
            await call(
                "PUT",
                coven.url(0),
                f"/api/rooms/{code}/webhook",
                ana,
                json={"url": chat.url("/discord"), "format": "discord", "lang": "en"},
            )
            await call("POST", coven.url(0), f"/api/rooms/{code}/start", ana)

            def posts() -> list[str]:
                return [r.json()["content"] for r in chat.received("/discord")]

            # The start: Bea's push, the table's post.
            await until(lambda: _async(len(push.to(device)) >= 1), "the first push")
            await until(lambda: _async(len(posts()) >= 1), "the first post")
            assert kinds_of_pushes(push, device) == ["Your turn — Guess (test game) with Ana"]
            assert "Ana and Bea to play" in posts()[0]
            await act(coven.url(0), code, ana, {"type": "pick", "value": 3})

            # 20 hours on: a fifth of Bea's day is left.
            coven.advance(20 * HOUR)
            await until(lambda: _async(len(push.to(device)) >= 2), "the reminder")
            assert kinds_of_pushes(push, device)[1] == "Little time left — Guess (test game)"
            # A worker killed and back (on two workers: the other one goes on meanwhile).
            await coven.nothing_in_flight()
            coven.kill_and_restart(0)

            # 25 hours in all: Bea's clock ran out, a bot picks for her, Ana is to call.
            coven.advance(5 * HOUR)

            async def ana_calls() -> bool:
                seen = await state(coven.url(1), code, ana)
                return seen["view"]["phase"] == "call" and seen["to_move"] == [0]

            await until(ana_calls, "the bot's pick for Bea")
            room = await call("GET", coven.url(0), f"/api/rooms/{code}")
            assert [s["away"] for s in room["seats"]] == [False, False]  # rule "move"
            await until(lambda: _async(len(posts()) >= 2), "Ana's turn posted")
            assert "Ana's turn" in posts()[1]

            # Ana calls: round 2 begins (both pick) — and the worker that took it dies at once.
            await act(coven.url(0), code, ana, {"type": "call", "guess": "high"})
            coven.kill_and_restart(0)
            # What it had not written, the restarted worker's sweep writes. What it had claimed
            # and not sent waits for its claim to run out: 60 s of a clock this test holds still.
            await asyncio.sleep(0.5)
            if len(push.to(device)) < 3 or len(posts()) < 3:
                coven.advance(LEASE_SECONDS + 1)
            await until(lambda: _async(len(push.to(device)) >= 3), "round 2's push", 40)
            await until(lambda: _async(len(posts()) >= 3), "round 2's post", 40)
            await act(coven.url(1), code, bea, {"type": "pick", "value": 1})
            await act(coven.url(0), code, ana, {"type": "pick", "value": 2})
            await until(lambda: _async(len(push.to(device)) >= 4), "Bea's call pushed")
            await act(coven.url(1), code, bea, {"type": "call", "guess": "low"})
            await until(lambda: _async(len(posts()) >= 5), "the end posted", 40)

            # Everything settles; then a last look for repeats (sweeps, leases, both workers).
            coven.advance(2 * HOUR)
            await asyncio.sleep(3)
            pushes = kinds_of_pushes(push, device)
            assert Counter(pushes) == {
                "Your turn — Guess (test game) with Ana": 3,  # two picks, one call
                "Little time left — Guess (test game)": 1,
            }, pushes
            assert len(push.to(device)) == 4
            said = posts()
            assert len(said) == 5, said
            assert [s.split(" — ")[0] for s in said[:4]] == [
                "Ana and Bea to play",
                "Ana's turn",
                "Ana and Bea to play",
                "Bea's turn",
            ], said
            assert " won " in said[4] and code in said[4], said
            # Each post once: no two alike at the same moment of the match.
            assert len({(s, i) for i, s in enumerate(said)}) == 5


async def _async(value: Any) -> Any:
    return value
