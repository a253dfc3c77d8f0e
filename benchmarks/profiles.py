"""A profile with 10,000 matches on PostgreSQL: how fast its page's API and a leaderboard answer.

    python benchmarks/profiles.py                      # 10,000 matches, 500 requests each
    python benchmarks/profiles.py --matches 10000 --players 3000 --requests 1000

Fills a fresh PostgreSQL schema directly (COPY, no match is played): ``--players`` listed
profiles rated in every game, and one profile that played ``--matches`` finished matches of the
three games (four seats each: her, another profile, a guest, a bot; the game's own figures in
every seat). Then starts ``coven serve`` on that schema and asks, one request at a time over
one keep-alive connection, for her page (``GET /api/profiles/{id}``: profile, ratings, per-game
figures over all her matches, the newest page of history), a page deep in her history
(``?before=``), and each game's leaderboard. Prints p50/p99 per call (target: p99 < 50 ms) and
the time of the results sweep's query on this database; one JSON line at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Before this script's own folder, whose engine.py (the engine benchmark) would shadow engine/.
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import httpx  # noqa: E402

from app.results.ledger import Ledger  # noqa: E402
from app.results.queries import Queries  # noqa: E402
from app.store.db import make_engine, migrate  # noqa: E402
from benchmarks import servers as fleet  # noqa: E402
from engine import registry  # noqa: E402

DEFAULT_URL = os.environ.get(
    "COVEN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
SERVE = [sys.executable, "-m", "app.cli", "serve", "--log-level", "warning"]
TARGET_P99_MS = 50.0


def _figures(rng: random.Random, names: tuple[str, ...]) -> str:
    return json.dumps({name: rng.randrange(0, 40) for name in names})


async def fill(dsn: str, schema: str, matches: int, players: int, seed: int) -> str:
    """The rows, copied straight into the tables; returns the measured profile's public id."""
    rng = random.Random(seed)
    games = [(g.id, tuple(getattr(g, "statistic_names", ()))) for g in registry.games()]
    now = time.time()
    start = now - matches * 600.0  # one match every ten minutes, up to now
    conn = await asyncpg.connect(dsn, server_settings={"search_path": schema})
    try:
        # Profile 1 is the one measured; 2… are the others, all listed and rated.
        profiles = [
            (i, secrets.token_hex(16), "Benchmark" if i == 1 else f"Player {i}", True, start)
            for i in range(1, players + 2)
        ]
        await conn.copy_records_to_table(
            "profiles", records=profiles,
            columns=["id", "public_id", "name", "listed", "created_at"],
        )
        ratings = []
        for rated_id, *_ in profiles:
            for game_id, _ in games:
                mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
                ratings.append(
                    (rated_id, game_id, mu, sigma, mu - 3 * sigma, rng.randrange(1, 400), now)
                )
        await conn.copy_records_to_table(
            "ratings", records=ratings,
            columns=["profile_id", "game_id", "mu", "sigma", "ordinal", "matches", "updated_at"],
        )
        rooms, match_rows, results, seats = [], [], [], []
        for n in range(1, matches + 1):
            game_id, names = games[n % len(games)]
            finished = start + n * 600.0
            visibility = "public" if n % 3 else "private"
            rooms.append((n, secrets.token_urlsafe(12), game_id, f"Table {n}", visibility, "{}",
                          "finished", 4, None, finished - 1800))
            match_rows.append((n, n, game_id, n, 4, "{}", "{}", 100, "over", finished,
                               True, finished - 1800))
            results.append((n, n, game_id, 4, finished, True))
            places = [1, 2, 3, 4]
            rng.shuffle(places)
            other = rng.randrange(2, players + 2)
            holders: list[tuple[int | None, str, str | None]] = [
                (1, "Benchmark", None), (other, f"Player {other}", None),
                (None, "Guest", None), (None, "Bot", "random"),
            ]
            for seat, ((profile_id, name, bot), place) in enumerate(
                zip(holders, places, strict=True)
            ):
                seats.append((n, seat, profile_id, name, bot, False, place,
                              float(rng.randrange(0, 60)), _figures(rng, names), game_id,
                              finished))
        await conn.copy_records_to_table(
            "rooms", records=rooms,
            columns=["id", "code", "game_id", "name", "visibility", "options", "status",
                     "seat_count", "turn_seconds", "created_at"],
        )
        await conn.copy_records_to_table(
            "matches", records=match_rows,
            columns=["id", "room_id", "game_id", "seed", "players", "options", "snapshot",
                     "version", "stage", "stage_since", "finished", "created_at"],
        )
        await conn.copy_records_to_table(
            "match_results", records=results,
            columns=["match_id", "room_id", "game_id", "players", "finished_at", "rated"],
        )
        await conn.copy_records_to_table(
            "match_players", records=seats,
            columns=["match_id", "seat", "profile_id", "name", "bot_level", "former", "place",
                     "score", "stats", "game_id", "finished_at"],
        )
        for table in ("profiles", "rooms", "matches", "match_players"):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        await conn.execute("ANALYZE")
        return profiles[0][1]
    finally:
        await conn.close()


def measure(http: httpx.Client, path: str, requests: int) -> dict[str, float]:
    """p50/p99 in ms of ``requests`` sequential GETs of ``path`` (after a short warm-up)."""
    for _ in range(10):
        http.get(path).raise_for_status()
    times = []
    for _ in range(requests):
        began = time.perf_counter()
        answer = http.get(path)
        times.append((time.perf_counter() - began) * 1000)
        answer.raise_for_status()
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "max_ms": round(times[-1], 2),
        "bytes": len(answer.content),
    }


async def queries_ms(url: str, schema: str, tries: int = 20) -> dict[str, float]:
    """Median times, straight on the database, of the results sweep's query (finished matches
    without a result) and of summing the measured profile's figures from scratch (what her
    page costs the first time a worker shows it after one of her matches)."""
    engine = make_engine(url, schema)
    try:
        ledger, queries = Ledger(engine), Queries(engine, registry.games)
        timed: dict[str, list[float]] = {"sweep query": [], "figures from scratch": []}
        async with queries.session() as session:
            for _ in range(tries + 1):
                began = time.perf_counter()
                await ledger.unrecorded()
                middle = time.perf_counter()
                await queries._sum_figures(session, 1)
                timed["sweep query"].append((middle - began) * 1000)
                timed["figures from scratch"].append((time.perf_counter() - middle) * 1000)
        return {name: round(statistics.median(t[1:]), 2) for name, t in timed.items()}
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=3_000, help="other listed profiles")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    args = parser.parse_args()
    dsn = args.database_url.replace("postgresql+asyncpg://", "postgresql://")
    schema = f"coven_bench_profiles_{uuid.uuid4().hex[:8]}"
    asyncio.run(_execute(dsn, f'CREATE SCHEMA "{schema}"'))
    try:
        migrate(args.database_url, schema)
        began = time.perf_counter()
        public_id = asyncio.run(fill(dsn, schema, args.matches, args.players, args.seed))
        filled = time.perf_counter() - began
        print(f"filled {schema}: {args.matches} matches of one profile, "
              f"{args.players} other profiles, in {filled:.1f} s")
        direct = asyncio.run(queries_ms(args.database_url, schema))
        env = {
            **os.environ,
            "COVEN_DATABASE_URL": args.database_url,
            "COVEN_DATABASE_SCHEMA": schema,
            "COVEN_MIGRATE_ON_START": "0",
        }
        process, url = fleet.start(SERVE, env, 1)
        load_before = os.getloadavg()[0]
        try:
            report = run(url, public_id, args.requests)
        finally:
            fleet.stop(process)
        # The machine's other work shows in every figure: say how busy it was.
        load = {"before": round(load_before, 2), "after": round(os.getloadavg()[0], 2),
                "cores": os.cpu_count()}
    finally:
        if not args.keep:
            asyncio.run(_execute(dsn, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    for name, ms in direct.items():
        print(f"{name + ', on the database':32} median {ms:7.2f} ms")
    print(f"load average (1 min) {load['before']} before, {load['after']} after, "
          f"on {load['cores']} cores")
    worst = max(r["p99_ms"] for r in report.values() if "p99_ms" in r)
    print(f"worst p99: {worst} ms (target < {TARGET_P99_MS:.0f} ms): "
          + ("met" if worst < TARGET_P99_MS else "MISSED"))
    print(json.dumps({"matches": args.matches, "players": args.players,
                      "requests": args.requests, "calls": report, "direct_ms": direct, "load": load,
                      "target_p99_ms": TARGET_P99_MS, "met": worst < TARGET_P99_MS}))


def run(url: str, public_id: str, requests: int) -> dict[str, dict[str, Any]]:
    report: dict[str, dict[str, Any]] = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        began = time.perf_counter()
        page = http.get(f"/api/profiles/{public_id}").json()
        first = round((time.perf_counter() - began) * 1000, 2)
        print(f"{'profile page, first view':32} {first:7.2f} ms (her figures summed)")
        report["profile page, first view"] = {"ms": first}
        assert sum(g["matches"] for g in page["games"]) >= 1, "the profile has no match"
        deep = _deep_cursor(http, public_id)
        calls = {
            "profile page": f"/api/profiles/{public_id}",
            "history, deep page": f"/api/profiles/{public_id}/matches?limit=20&before={deep}",
            **{f"leaderboard {g.id}": f"/api/leaderboard/{g.id}" for g in registry.games()},
        }
        for name, path in calls.items():
            report[name] = measure(http, path, requests)
            figures = report[name]
            print(f"{name:32} p50 {figures['p50_ms']:7.2f} ms   p99 {figures['p99_ms']:7.2f} ms"
                  f"   max {figures['max_ms']:7.2f} ms   {figures['bytes']} bytes")
    return report


def _deep_cursor(http: httpx.Client, public_id: str) -> str:
    """The ``next`` of the page about 5,000 matches back (two big pages there)."""
    first = http.get(f"/api/profiles/{public_id}/matches", params={"limit": 100}).json()
    cursor: str = first["next"]
    for _ in range(49):
        older = http.get(f"/api/profiles/{public_id}/matches",
                         params={"limit": 100, "before": cursor}).json()
        if older["next"] is None:
            break
        cursor = older["next"]
    return cursor


async def _execute(dsn: str, sql: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


if __name__ == "__main__":
    main()
