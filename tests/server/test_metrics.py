"""``GET /metrics`` (issue 23): what real ``coven serve`` processes report after bot matches
played to the end on PostgreSQL and Redis, summed over workers; absent unless
``COVEN_METRICS=1``; the token enforced."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.settings import Settings
from tests.server.conftest import sqlite_settings, worker_env
from tests.server.coven_serve import CovenServe, finished_log, start_bot_match
from tests.support.client import Client
from tests.support.server import ROOT, ThreadServer, both_running

TOKEN = "scrape-secret-1234"
MATCHES = 4


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition: (name, sorted labels) → value."""
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def total(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str) -> float:
    return sum(value for (sample, _), value in found.items() if sample == name)


def scrape(url: str, token: str | None = TOKEN) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{url}/metrics", headers=headers, timeout=30)


def _env(pg_schema: str, redis_url: str, **extra: str) -> dict[str, str]:
    return worker_env(
        pg_schema,
        redis_url,
        COVEN_BOT_PACE="0",
        COVEN_BOT_PROCESSES="1",
        COVEN_METRICS="1",
        COVEN_METRICS_TOKEN=TOKEN,
        **extra,
    )


@pytest.fixture
def two_hosts(
    pg_schema: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[CovenServe, CovenServe]]:
    """Two ``coven serve`` processes as two pods: one deployment, each its own metrics."""
    env = _env(pg_schema, redis_url)
    with both_running(CovenServe(env, tmp_path / "a"), CovenServe(env, tmp_path / "b")) as pair:
        yield pair


async def _play(urls: list[str], matches: int) -> int:
    """``matches`` all-bot matches, opened in turn on each of ``urls``, played to the end;
    the moves they made, counted from their logs."""
    codes = [await start_bot_match(urls[i % len(urls)]) for i in range(matches)]
    logs = await asyncio.gather(*(finished_log(urls[0], code) for code in codes))
    return sum(len(log["replay"]["actions"]) for log in logs)


@pytest.mark.postgres
@pytest.mark.redis
async def test_two_workers_count_every_move_once(two_hosts: tuple[CovenServe, CovenServe]) -> None:
    """The must-show of issue 23: after bot matches on two workers, ``coven_moves_total``
    summed over both scrapes is the number of moves the match logs hold (a move two workers
    both tried to play — a bot's turn seen by each — counts once: only a commit counts)."""
    a, b = two_hosts
    moves = await _play([a.url, b.url], MATCHES)
    assert moves > MATCHES * 20
    scraped = [samples(scrape(w.url).text) for w in (a, b)]
    per_worker = [total(s, "coven_moves_total") for s in scraped]
    assert sum(per_worker) == moves, (per_worker, moves)
    assert all(n > 0 for n in per_worker), per_worker  # each worker did play some
    for found in scraped:
        assert found[("coven_moves_total", (("game", "whirling-witchcraft"),))] > 0
        # Every move committed on a worker was timed to its commit there.
        committed = found[("coven_move_seconds_count", (("stage", "committed"),))]
        assert committed == total({k: v for k, v in found.items()}, "coven_moves_total")
        assert found[("coven_move_seconds_count", (("stage", "applied"),))] >= committed
        assert total(found, "coven_bot_think_seconds_count") >= committed
        assert total(found, "coven_store_errors_total") == 0
        assert total(found, "coven_bus_errors_total") == 0


@pytest.mark.postgres
@pytest.mark.redis
async def test_workers_sharing_a_directory_each_report_the_whole_host(
    pg_schema: str, redis_url: str, tmp_path: Path
) -> None:
    """Two processes on one host sharing PROMETHEUS_MULTIPROC_DIR (what ``coven serve
    --workers 2`` does by itself): a scrape of either reports both — the moves, and the open
    sockets of each (a live sum), which stop counting when a worker stops."""
    shared = tmp_path / "metrics"
    shared.mkdir()
    env = _env(pg_schema, redis_url, PROMETHEUS_MULTIPROC_DIR=str(shared))
    a, b = CovenServe(env, tmp_path / "a"), CovenServe(env, tmp_path / "b")
    watchers: list[Client] = []
    try:
        a.start()
        b.start()
        moves = await _play([a.url, b.url], 2)
        code = await start_bot_match(a.url)
        moves += len((await finished_log(a.url, code))["replay"]["actions"])
        watchers = [await Client(a.url).connect(code), await Client(b.url).connect(code)]
        await asyncio.sleep(0.5)
        seen = [samples(scrape(w.url).text) for w in (a, b)]
        for found in seen:
            assert total(found, "coven_moves_total") == moves
            assert found[("coven_sockets", ())] == 2
            assert found[("coven_rooms_live", ())] == 2  # the room, open on each worker
        for watcher in watchers:
            await watcher.close()
        watchers = []
        b.stop()
        after = samples(scrape(a.url).text)
        assert after[("coven_sockets", ())] == 0
        assert total(after, "coven_moves_total") == moves  # a stopped worker's moves stay
    finally:
        for watcher in watchers:
            await watcher.close()
        a.stop()
        b.stop()


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[ThreadServer]:
    settings: Settings = sqlite_settings(tmp_path, metrics=True, metrics_token=TOKEN)
    with ThreadServer(settings) as server:
        yield server


def test_metrics_absent_unless_switched_on(sqlite_server: ThreadServer) -> None:
    answer = httpx.get(f"{sqlite_server.url}/metrics", timeout=10)
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_the_token_is_enforced(guarded: ThreadServer) -> None:
    for token in (None, "wrong", TOKEN + "x"):
        refused = scrape(guarded.url, token)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "unauthorized"
        assert "coven_" not in refused.text
    basic = httpx.get(f"{guarded.url}/metrics", auth=("prometheus", TOKEN), timeout=10)
    assert basic.status_code == 401
    allowed = scrape(guarded.url)
    assert allowed.status_code == 200
    assert allowed.headers["content-type"].startswith("text/plain")
    assert ("coven_sockets", ()) in samples(allowed.text)


def test_refusals_are_counted_by_code(guarded: ThreadServer) -> None:
    before = samples(scrape(guarded.url).text)
    key = ("coven_refusals_total", (("code", "room_not_found"),))
    for _ in range(3):
        missing = httpx.post(
            f"{guarded.url}/api/rooms/NoSuchRoom123/join", json={"name": "x"}, timeout=10
        )
        assert missing.status_code == 404
    after = samples(scrape(guarded.url).text)
    assert after[key] - before.get(key, 0) == 3


def test_the_dashboard_charts_what_coven_exports(guarded: ThreadServer) -> None:
    """deploy/grafana/coven.json asks only for metrics a scrape has (a renamed metric would
    leave a panel silently empty), and charts every one of them."""
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "coven.json").read_text())
    asked = {
        re.sub(r"_(total|bucket)$", "", name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"coven_[a-z_]+", target["expr"])
    }
    exported = {
        family.name
        for family in text_string_to_metric_families(scrape(guarded.url).text)
        if family.name.startswith("coven_")
    }
    assert asked == exported


def test_database_and_bus_failures_are_counted(tmp_path: Path) -> None:
    """Redis unreachable (a port nobody listens on): the bus's failed reads count; a table
    gone from under the server: the failed query counts (and the client gets 503)."""
    settings: Settings = sqlite_settings(tmp_path, metrics=True, redis_url="redis://127.0.0.1:1/0")
    with ThreadServer(settings) as server:
        deadline = time.monotonic() + 20
        while total(samples(scrape(server.url, None).text), "coven_bus_errors_total") < 1:
            assert time.monotonic() < deadline, "no bus error counted"
            time.sleep(0.2)
        before = total(samples(scrape(server.url, None).text), "coven_store_errors_total")
        with sqlite3.connect(tmp_path / "coven.db") as db:
            db.execute("ALTER TABLE rooms RENAME TO rooms_away")
        failed = httpx.get(f"{server.url}/api/rooms/AbCdEfGh1234/log", timeout=10)
        assert failed.status_code == 503
        after = total(samples(scrape(server.url, None).text), "coven_store_errors_total")
        assert after - before >= 1


@pytest.mark.postgres
@pytest.mark.redis
async def test_coven_serve_workers_add_up_by_themselves(
    pg_schema: str, redis_url: str, tmp_path: Path
) -> None:
    """``coven serve --workers 2`` with nothing but ``COVEN_METRICS=1``: it sets up the
    directory its workers share, so every scrape (the kernel hands it to either worker) is
    the whole server, and the directory is gone once it stops."""
    env = _env(pg_schema, redis_url)
    env.pop("COVEN_METRICS_TOKEN")
    server = CovenServe(env, tmp_path / "logs", workers=2)
    try:
        server.start()
        await asyncio.sleep(2)  # both workers up, not just the first
        moves = await _play([server.url], 4)
        for _ in range(6):
            assert total(samples(scrape(server.url, None).text), "coven_moves_total") == moves
    finally:
        server.stop()
    made = [p for p in Path(tempfile.gettempdir()).glob("coven-metrics-*") if p.is_dir()]
    assert all(p.stat().st_mtime < server.started_at for p in made), made


def test_the_directory_coven_serve_makes_goes_when_it_stops(tmp_path: Path) -> None:
    """SIGTERM (what an orchestrator sends) stops ``coven serve`` and removes the metrics
    directory it made for its run: nothing piles up in the temporary directory."""
    server = CovenServe(
        {
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
            "COVEN_METRICS": "1",
        },
        tmp_path / "logs",
    )

    def made() -> list[Path]:
        found = Path(tempfile.gettempdir()).glob("coven-metrics-*")
        return [p for p in found if p.is_dir() and p.stat().st_mtime >= server.started_at - 1]

    try:
        server.start()
        assert scrape(server.url, None).status_code == 200
        assert len(made()) == 1
    finally:
        server.stop()
    assert server.process is not None and server.process.returncode is not None
    assert made() == []
