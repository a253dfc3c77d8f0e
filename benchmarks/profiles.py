"""A profile with 10,000 matches on PostgreSQL: how fast its page's API and a leaderboard answer.

    python benchmarks/profiles.py                      # 10,000 matches, 500 requests each
    python benchmarks/profiles.py --matches 10000 --players 3000 --requests 1000

Fills a fresh PostgreSQL schema directly (COPY, no match is played): ``--players`` listed
profiles rated in every game, and one profile that played ``--matches`` finished matches of the
three games (four seats each: her, another profile, a guest, a bot; the game's own figures in
every seat), with her running totals per game as the results ledger keeps them. Then starts
``coven serve`` on that schema and asks, one request at a time over one keep-alive connection,
for her page (``GET /api/profiles/{id}``: profile, ratings, per-game figures, the newest page of
history), a page deep in her history (``?before=``), and each game's leaderboard. Then, a
``--new-matches`` times, records one more match of hers through the results ledger (rows,
totals, ratings) and times the first view of her page after it. Prints p50/p99 per call
(target: p99 < 50 ms), the ledger's time per match, the times of the results sweep's query
and of reading her totals on the database with the sweep's plan, and the machine's load; one
JSON line at the end.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Before this script's own folder, whose engine.py (the engine benchmark) would shadow engine/.
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import httpx  # noqa: E402

from app.results import totals  # noqa: E402
from app.results.ledger import Ledger  # noqa: E402
from app.results.queries import Queries  # noqa: E402
from app.results.records import MatchOutcome, SeatScore  # noqa: E402
from app.store.database import Database  # noqa: E402
from app.store.db import make_engine, migrate  # noqa: E402
from benchmarks import servers as fleet  # noqa: E402
from engine import registry  # noqa: E402

DEFAULT_URL = os.environ.get(
    "COVEN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
SERVE = [sys.executable, "-m", "app.cli", "serve", "--log-level", "warning"]
TARGET_P99_MS = 50.0


def _figures(rng: random.Random, names: tuple[str, ...]) -> dict[str, int | float]:
    return {name: rng.randrange(0, 40) for name in names}


@dataclass(frozen=True)
class Filled:
    public_id: str
    players: int  # profile ids: 1 (measured), 2 … players + 1
    matches: int


async def fill(dsn: str, schema: str, matches: int, players: int, seed: int) -> Filled:
    """The rows, copied straight into the tables, and her totals as the ledger keeps them."""
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
        rooms, match_rows, results, seats, actions = [], [], [], [], []
        played: list[totals.PlayedSeat] = []
        for n in range(1, matches + 1):
            game_id, names = games[n % len(games)]
            finished = start + n * 600.0
            visibility = "public" if n % 3 else "private"
            rooms.append((n, secrets.token_urlsafe(12), game_id, f"Table {n}", visibility, "{}",
                          "finished", 4, None, finished - 1800))
            match_rows.append((n, n, game_id, n, 4, "{}", "{}", 100, "over", finished,
                               True, finished - 1800, True))
            results.append((n, n, game_id, 4, finished, True))
            actions.append((n, 100, 0, "{}", f"last-{n}", "over", "[]", False, finished))
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
                figures = _figures(rng, names)
                seats.append((n, seat, profile_id, name, bot, False, place,
                              float(rng.randrange(0, 60)), json.dumps(figures), game_id,
                              finished))
                if profile_id is not None:
                    played.append(totals.PlayedSeat(profile_id, game_id, place, figures))
        await conn.copy_records_to_table(
            "rooms", records=rooms,
            columns=["id", "code", "game_id", "name", "visibility", "options", "status",
                     "seat_count", "turn_seconds", "created_at"],
        )
        await conn.copy_records_to_table(
            "matches", records=match_rows,
            columns=["id", "room_id", "game_id", "seed", "players", "options", "snapshot",
                     "version", "stage", "stage_since", "finished", "created_at", "recorded"],
        )
        # Only each match's last action (the sweep's query joins it for the finishing time).
        await conn.copy_records_to_table(
            "actions", records=actions,
            columns=["match_id", "version", "seat", "action", "client_id", "stage", "events",
                     "by_bot", "created_at"],
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
        await conn.copy_records_to_table(
            "profile_game_totals",
            records=[
                (p, g, t.matches, t.wins, t.place_sum, json.dumps(t.figure_sums),
                 json.dumps(t.figure_counts))
                for (p, g), t in totals.tallies(played).items()
            ],
            columns=["profile_id", "game_id", "matches", "wins", "place_sum", "figure_sums",
                     "figure_counts"],
        )
        for table in ("profiles", "rooms", "matches", "match_players", "seats"):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce((SELECT max(id) FROM {table}), 1))"
            )
        await conn.execute("ANALYZE")
        return Filled(profiles[0][1], players, matches)
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


async def queries_ms(url: str, schema: str, tries: int = 20) -> dict[str, Any]:
    """Median times, straight on the database, of the results sweep's query (finished matches
    not recorded yet) and of reading the measured profile's totals (what her page's figures
    cost), and the plan PostgreSQL picks for the sweep."""
    engine = make_engine(url, schema)
    try:
        db = Database(engine)
        ledger, queries = Ledger(db), Queries(db, registry.games)
        timed: dict[str, list[float]] = {"sweep query": [], "her totals": []}
        async with queries.session() as session:
            for _ in range(tries + 1):
                began = time.perf_counter()
                await ledger.unrecorded()
                middle = time.perf_counter()
                await queries.game_summaries(session, 1)
                timed["sweep query"].append((middle - began) * 1000)
                timed["her totals"].append((time.perf_counter() - middle) * 1000)
        async with engine.connect() as conn:
            compiled = ledger.unrecorded_query(20, None).compile(
                engine, compile_kwargs={"literal_binds": True}
            )
            plan = (await conn.exec_driver_sql(f"EXPLAIN {compiled}")).scalars().all()
        result: dict[str, Any] = {
            name: round(statistics.median(t[1:]), 2) for name, t in timed.items()
        }
        result["sweep plan"] = " / ".join(line.strip() for line in plan)
        return result
    finally:
        await engine.dispose()


async def first_views(
    url: str, database_url: str, schema: str, dsn: str, filled: Filled, count: int, seed: int
) -> dict[str, dict[str, Any]]:
    """``count`` times: one more match of hers recorded through the ledger (its rows, her
    totals, two ratings), then her page once; the times of both."""
    rng = random.Random(seed + 1)
    games = [(g.id, tuple(getattr(g, "statistic_names", ()))) for g in registry.games()]
    engine = make_engine(database_url, schema)
    conn = await asyncpg.connect(dsn, server_settings={"search_path": schema})
    recording: list[float] = []
    viewing: list[float] = []
    again: list[float] = []
    try:
        ledger = Ledger(Database(engine))
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            before = sum(g["matches"] for g in
                         (await http.get(f"/api/profiles/{filled.public_id}")).json()["games"])
            for i in range(1, count + 1):
                outcome = await _new_match(conn, rng, games, filled, filled.matches + i)
                began = time.perf_counter()
                assert await ledger.write(outcome) is not None
                recording.append((time.perf_counter() - began) * 1000)
                # The first view after it, then the next one at once: the same moment's load on
                # the machine for both, so the two columns differ only by what the match did.
                for took in (viewing, again):
                    began = time.perf_counter()
                    answer = await http.get(f"/api/profiles/{filled.public_id}")
                    took.append((time.perf_counter() - began) * 1000)
                    answer.raise_for_status()
                page = answer.json()
                # Her page shows the match just recorded: in her figures and first in history.
                assert sum(g["matches"] for g in page["games"]) == before + i
                assert page["history"]["matches"][0]["finished_at"] == outcome.finished_at
    finally:
        await conn.close()
        await engine.dispose()
    return {"profile page, first view after a new match": _figures_of(viewing),
            "profile page, the view after that": _figures_of(again),
            "recording a match (ledger)": _figures_of(recording)}


async def _new_match(
    conn: Any, rng: random.Random, games: list[tuple[str, tuple[str, ...]]], filled: Filled,
    n: int,
) -> MatchOutcome:
    """Room, finished match and seats of one more match of hers, as the room layer leaves
    them when a match ends; its outcome as the game would tell it."""
    game_id, names = games[n % len(games)]
    now = time.time()
    other = rng.randrange(2, filled.players + 2)
    room_id = await conn.fetchval(
        "INSERT INTO rooms (code, game_id, name, visibility, options, status, seat_count, "
        "created_at) VALUES ($1, $2, $3, 'public', '{}', 'finished', 4, $4) RETURNING id",
        secrets.token_urlsafe(12), game_id, f"Table {n}", now - 1800,
    )
    match_id = await conn.fetchval(
        "INSERT INTO matches (room_id, game_id, seed, players, options, snapshot, version, "
        "stage, stage_since, finished, created_at) "
        "VALUES ($1, $2, $3, 4, '{}', '{}', 100, 'over', $4, true, $5) RETURNING id",
        room_id, game_id, n, now, now - 1800,
    )
    holders = [(1, "Benchmark", None), (other, f"Player {other}", None),
               (None, "Guest", None), (None, "Bot", "random")]
    await conn.executemany(
        "INSERT INTO seats (room_id, seat, name, bot_level, away, profile_id, former) "
        "VALUES ($1, $2, $3, $4, false, $5, false)",
        [(room_id, seat, name, bot, profile_id)
         for seat, (profile_id, name, bot) in enumerate(holders)],
    )
    places = [1, 2, 3, 4]
    rng.shuffle(places)
    return MatchOutcome(
        match_id, room_id, game_id, now,
        [SeatScore(seat, place, float(rng.randrange(0, 60)), _figures(rng, names))
         for seat, place in enumerate(places)],
    )


def _figures_of(times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    return {
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "max_ms": round(ordered[-1], 2),
        "slowest_ms": [round(t, 1) for t in ordered[-5:]],
        "count": len(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=3_000, help="other listed profiles")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--new-matches", type=int, default=200,
                        help="matches recorded one by one, her page viewed after each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    args = parser.parse_args()
    dsn = args.database_url.replace("postgresql+asyncpg://", "postgresql://")
    schema = f"coven_bench_profiles_{uuid.uuid4().hex[:8]}"
    asyncio.run(_execute(dsn, f'CREATE SCHEMA "{schema}"'))
    try:
        migrate(args.database_url, schema)
        began = time.perf_counter()
        filled = asyncio.run(fill(dsn, schema, args.matches, args.players, args.seed))
        took = time.perf_counter() - began
        print(f"filled {schema}: {args.matches} matches of one profile, "
              f"{args.players} other profiles, in {took:.1f} s")
        direct = asyncio.run(queries_ms(args.database_url, schema))
        env = {
            **os.environ,
            "COVEN_DATABASE_URL": args.database_url,
            "COVEN_DATABASE_SCHEMA": schema,
            "COVEN_MIGRATE_ON_START": "0",
            # The new matches are recorded by this script's ledger, not the server's sweep.
            "COVEN_RESULTS_SWEEP_SECONDS": "3600",
        }
        process, url = fleet.start(SERVE, env, 1)
        load_before = os.getloadavg()
        try:
            report = run(url, filled.public_id, args.requests)
            report |= asyncio.run(first_views(
                url, args.database_url, schema, dsn, filled, args.new_matches, args.seed
            ))
        finally:
            fleet.stop(process)
        # The machine's other work shows in every figure: say how busy it was.
        load_after = os.getloadavg()
        load = {"before": [round(x, 2) for x in load_before],
                "after": [round(x, 2) for x in load_after], "cores": os.cpu_count()}
    finally:
        if not args.keep:
            asyncio.run(_execute(dsn, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    for name in ("profile page, first view after a new match",
                 "profile page, the view after that", "recording a match (ledger)"):
        figures = report[name]
        print(f"{name:44} p50 {figures['p50_ms']:7.2f} ms   p99 {figures['p99_ms']:7.2f} ms"
              f"   max {figures['max_ms']:7.2f} ms   ({figures['count']} matches; slowest "
              f"{figures['slowest_ms']})")
    for name, value in direct.items():
        if isinstance(value, float):
            print(f"{name + ', on the database':44} median {value:7.2f} ms")
    print(f"sweep's plan: {direct['sweep plan']}")
    print(f"load average (1, 5, 15 min) {load['before']} before, {load['after']} after, "
          f"on {load['cores']} cores")
    pages = [r for n, r in report.items() if "p99_ms" in r and not n.startswith("recording")]
    worst = max(r["p99_ms"] for r in pages)
    print(f"worst p99 of the pages: {worst} ms (target < {TARGET_P99_MS:.0f} ms): "
          + ("met" if worst < TARGET_P99_MS else "MISSED"))
    print(json.dumps({"matches": args.matches, "players": args.players,
                      "requests": args.requests, "new_matches": args.new_matches,
                      "calls": report, "direct_ms": direct, "load": load,
                      "target_p99_ms": TARGET_P99_MS, "met": worst < TARGET_P99_MS}))


def run(url: str, public_id: str, requests: int) -> dict[str, dict[str, Any]]:
    report: dict[str, dict[str, Any]] = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        began = time.perf_counter()
        page = http.get(f"/api/profiles/{public_id}").json()
        first = round((time.perf_counter() - began) * 1000, 2)
        print(f"{'profile page, a fresh server':44} {first:7.2f} ms (its first request)")
        report["profile page, a fresh server"] = {"ms": first}
        assert sum(g["matches"] for g in page["games"]) >= 1, "the profile has no match"
        deep = _deep_cursor(http, public_id)
        calls = {
            "profile page, repeated views": f"/api/profiles/{public_id}",
            "history, deep page": f"/api/profiles/{public_id}/matches?limit=20&before={deep}",
            **{f"leaderboard {g.id}": f"/api/leaderboard/{g.id}" for g in registry.games()},
        }
        for name, path in calls.items():
            report[name] = measure(http, path, requests)
            figures = report[name]
            print(f"{name:44} p50 {figures['p50_ms']:7.2f} ms   p99 {figures['p99_ms']:7.2f} ms"
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
