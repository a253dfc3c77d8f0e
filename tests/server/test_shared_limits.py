"""Rate limits over several workers: with Redis the counts are shared, so a client spreading
a flood over two workers meets one allowance, not one per worker; when Redis cannot be
reached each worker counts on its own (and says so once), and nothing fails."""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app import limits
from app.api.deps import Limits
from app.errors import CovenError
from app.settings import Settings
from tests.server.conftest import worker_env
from tests.server.test_hardening_outage import PrivateRedis
from tests.support.server import ProcessServer, free_port, two_process_servers

BURST = 6
FLOOD = {"game": "test-guess", "name": "Flood", "visibility": "private"}


@contextlib.contextmanager
def _workers(pg_schema: str, redis_url: str) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    # A burst of 6, then 1 a minute: no room comes back while the test runs.
    env = worker_env(
        pg_schema, redis_url, COVEN_ROOMS_BURST=str(BURST), COVEN_ROOMS_PER_MINUTE="1"
    )
    with two_process_servers(env) as workers:
        yield workers


async def _flood(workers: tuple[ProcessServer, ProcessServer], tries: int) -> list[tuple[str, int]]:
    """``tries`` room creations from one address, taking turns on the two workers."""
    answers = []
    async with httpx.AsyncClient(timeout=10) as http:
        for i in range(tries):
            worker = workers[i % 2]
            answer = await http.post(f"{worker.url}/api/rooms", json=FLOOD)
            assert answer.status_code in (201, 429), answer.text
            if answer.status_code == 429:
                assert answer.json()["error"]["code"] == "rate_limited"
                assert "retry in" in answer.json()["error"]["message"]
                assert int(answer.headers["retry-after"]) >= 1
            answers.append((worker.url, answer.status_code))
    return answers


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_flood_over_two_workers_meets_one_shared_allowance(
    pg_schema: str, redis_url: str
) -> None:
    with _workers(pg_schema, redis_url) as workers:
        answers = await _flood(workers, BURST + 2)
        assert [status for _, status in answers] == [201] * BURST + [429, 429]
        # Each worker made only half the burst: counting alone, each would have let as many
        # again through (2 x BURST in all).
        made = Counter(url for url, status in answers if status == 201)
        assert sorted(made.values()) == [BURST // 2, BURST // 2]


@pytest.mark.postgres
async def test_without_redis_each_worker_counts_alone_and_nothing_fails(pg_schema: str) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with _workers(pg_schema, nowhere) as workers:
        answers = await _flood(workers, 2 * BURST + 2)
        assert [status for _, status in answers] == [201] * (2 * BURST) + [429, 429]


def _limits(redis_url: str, tmp_path: Path) -> Limits:
    return Limits(
        Settings(
            database_url=f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
            redis_url=redis_url,
            rooms_burst=2,
            rooms_per_minute=1,
        )
    )


async def _creations(limits_: Limits, tries: int) -> list[str]:
    codes = []
    for _ in range(tries):
        try:
            await limits_.rooms.take("10.0.0.7")
            codes.append("ok")
        except CovenError as exc:
            codes.append(exc.code)
    return codes


async def test_a_redis_outage_counts_in_memory_and_logs_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "REDIS_RETRY_SECONDS", 0.0)  # ask Redis every time
    nowhere = _limits(f"redis://127.0.0.1:{free_port()}/0", tmp_path)
    with caplog.at_level(logging.WARNING, logger="app.limits"):
        assert await _creations(nowhere, 4) == ["ok", "ok", "rate_limited", "rate_limited"]
    assert [r.message for r in caplog.records].count(caplog.records[0].message) == 1
    assert "Redis failed" in caplog.records[0].message
    await nowhere.close()


@pytest.mark.redis
async def test_counts_go_back_to_redis_when_it_returns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "REDIS_RETRY_SECONDS", 0.0)
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        first, second = _limits(server.url, tmp_path), _limits(server.url, tmp_path)
        assert await _creations(first, 1) == ["ok"]
        assert first.counts.shared
        server.stop()
        with caplog.at_level(logging.WARNING, logger="app.limits"):
            # Down: this worker counts alone, from zero.
            assert await _creations(first, 3) == ["ok", "ok", "rate_limited"]
            assert not first.counts.shared
            server.start()  # empty: it keeps nothing on disk
            # Back: one count for both again.
            assert await _creations(second, 3) == ["ok", "ok", "rate_limited"]
            assert await _creations(first, 1) == ["rate_limited"]
            assert first.counts.shared
        messages = [r.message for r in caplog.records]
        assert len(messages) == 2 and "is back" in messages[1]
        await first.close()
        await second.close()
    finally:
        server.stop()
