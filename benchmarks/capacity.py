"""The figures of docs/CAPACITY.md: CPU per move of a worker, of PostgreSQL and of Redis, per
game, and the moves a table makes in a match (issue 24, item 5).

    python benchmarks/capacity.py                          # the three games, 20 s each
    python benchmarks/capacity.py --games seasons --seconds 40 --think 1000
    python benchmarks/capacity.py --room-databases 2 --redis-sharded   # the sharded setup

For each game: one ``coven serve`` worker on PostgreSQL (a fresh schema of the test database,
dropped after) and Redis, ``--rooms`` tables of ``--players`` random players over real
WebSockets (benchmarks/load.py: each decision after uniform 0..``--think`` ms, finished tables
replaced by new ones, so room creation, joins and starts are in the cost too). Before and after
the play it reads utime + stime from /proc of the worker (and its children), of the PostgreSQL
backends connected to it, of PostgreSQL's shared processes (WAL writer, checkpointer…: shared
with whatever else uses that PostgreSQL, an upper bound) and of ``redis-server``
(benchmarks/backing_cpu.py), and divides by the acknowledged moves.

Then the moves of a whole match, from the engine (``--sim-games`` matches of ``greedy`` bots,
the same player count): what a table costs over a match, and — with the box's playing time —
per minute at a real table's pace.

Prints one JSON line: per game the CPU ms per move of each part and the table figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import backing_cpu  # noqa: E402
from benchmarks import servers as fleet  # noqa: E402
from benchmarks.load import SERVE, Load, cpu_seconds  # noqa: E402

PG_URL = os.environ.get(
    "COVEN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("COVEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
GAMES = ("whirling-witchcraft", "seasons", "witchs-brew")
# Minutes a match takes at a real table, as the boxes say (Whirling Witchcraft: its README,
# "30 minutes"; Seasons 60; Witch's Brew 45): the pace of a quick table of people. Online
# tables are often slower; a faster pace only makes a table cost more, so this errs high.
BOX_MINUTES = {"whirling-witchcraft": 30.0, "seasons": 60.0, "witchs-brew": 45.0}


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def _connect(schema: str | None = None) -> Any:
    """A connection of this script's own, waiting while PostgreSQL has none free (on a
    shared machine other programs may hold all of them for a while)."""
    import asyncpg  # type: ignore[import-untyped]

    deadline = time.monotonic() + 120
    while True:
        try:
            return await asyncpg.connect(
                PG_URL.replace("postgresql+asyncpg://", "postgresql://"),
                server_settings={"search_path": schema} if schema else None,
            )
        except asyncpg.TooManyConnectionsError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def _admin(sql: str) -> None:
    conn = await _connect()
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _pg_value(sql: str, schema: str | None = None, *args: Any) -> Any:
    conn = await _connect(schema)
    try:
        return await conn.fetchval(sql, *args)
    finally:
        await conn.close()


async def wal_position() -> int:
    """Bytes of WAL PostgreSQL has written so far (the whole server's: other users' writes
    count too, so a difference is an upper bound)."""
    return int(await _pg_value("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')"))


async def row_sizes(schema: str, game: str) -> dict[str, float | None]:
    """Mean stored bytes (after PostgreSQL's compression) of this game's snapshots and of
    its action rows, in the default database."""
    snapshot = await _pg_value(
        "SELECT avg(pg_column_size(snapshot)) FROM matches WHERE game_id = $1", schema, game
    )
    action = await _pg_value(
        "SELECT avg(pg_column_size(a.*)) FROM actions a JOIN matches m ON m.id = a.match_id "
        "WHERE m.game_id = $1",
        schema,
        game,
    )
    return {
        "snapshot_bytes": round(float(snapshot)) if snapshot is not None else None,
        "action_row_bytes": round(float(action)) if action is not None else None,
    }


def _url_of(database: str) -> str:
    return f"{PG_URL.rpartition('/')[0]}/{database}"


def server_env(args: argparse.Namespace, schema: str, room_urls: list[str]) -> dict[str, str]:
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": PG_URL,
        "COVEN_DATABASE_SCHEMA": schema,
        "COVEN_REDIS_URL": args.redis_url,
        "COVEN_BOT_DELAY": "0",
        # The whole load comes from one address: lift the per-client limits.
        "COVEN_ROOMS_BURST": "1000000",
        "COVEN_ROOMS_PER_MINUTE": "1000000",
        "COVEN_SOCKETS_PER_CLIENT": "1000000",
        "COVEN_REFUSED_BURST": "1000000",
        "COVEN_REFUSED_CLIENT_BURST": "1000000",
    }
    if room_urls:
        env["COVEN_ROOM_DATABASE_URLS"] = ",".join(room_urls)
    if args.redis_sharded:
        env["COVEN_REDIS_SHARDED"] = "1"
    return env


async def _windows(load: Load, pids: list[int], redis_port: int) -> dict[str, Any]:
    """Two windows of one load: the opening (every table created, joined, its sockets opened
    and started: a table's setup) and the steady play after it, to the end of the run."""
    run = asyncio.create_task(load.run())
    start_worker, start_backing = cpu_seconds(pids), backing_cpu.snapshot(pids, 5432, redis_port)
    while time.perf_counter() < load.warm_until and not run.done():
        await asyncio.sleep(0.1)
    opened, opening_moves = load.opened, load.actions
    mid_worker, mid_backing = cpu_seconds(pids), backing_cpu.snapshot(pids, 5432, redis_port)
    mid_wal = await wal_position()
    while time.perf_counter() < load.stop_at and not run.done():
        await asyncio.sleep(0.1)
    moves = load.actions - opening_moves
    end_worker, end_backing = cpu_seconds(pids), backing_cpu.snapshot(pids, 5432, redis_port)
    wal = await wal_position() - mid_wal
    report = await run
    seconds = load.stop_at - load.warm_until
    return {
        "steady_seconds": round(seconds, 1),
        "moves": moves,
        "moves_per_second": round(moves / seconds, 1),
        "fanout_p99_ms": report["fanout_p99_ms"],
        "errors": report["errors"],
        "worker_cpu_ms_per_move": round((end_worker - mid_worker) * 1000 / max(moves, 1), 3),
        **backing_cpu.per_move(mid_backing, end_backing, moves),
        "wal_bytes_per_move_at_most": round(wal / max(moves, 1)),
        # The opening's CPU less its moves' (at the steady rate), per table opened.
        "tables_opened": opened,
        "_opening": (start_worker, mid_worker, start_backing, mid_backing, opening_moves),
    }


def measure_game(args: argparse.Namespace, game: str, env: dict[str, str]) -> dict[str, Any]:
    process, url = fleet.start(SERVE, env, 1)
    pids = [process.pid]
    try:
        load_args = argparse.Namespace(
            rooms=args.rooms,
            players=args.players,
            game=game,
            duration=args.seconds + args.opening,
            think=args.think,
            warmup=1.0,
        )
        time.sleep(1.0)  # the worker's start (migrations, pools) is not a move's cost
        measured = asyncio.run(_windows(Load(load_args, [url], pids), pids, args.redis_port))
    finally:
        fleet.stop(process)
    start_worker, mid_worker, start_backing, mid_backing, opening_moves = measured.pop("_opening")
    opening = backing_cpu.per_move(start_backing, mid_backing, 1)
    worker_ms = measured["worker_cpu_ms_per_move"]
    opened = max(measured["tables_opened"], 1)
    measured["worker_cpu_ms_per_table_opened"] = round(
        ((mid_worker - start_worker) * 1000 - opening_moves * worker_ms) / opened, 2
    )
    pg_ms = opening["pg_backends_cpu_ms_per_move"]  # the whole opening's ms (1 "move")
    if pg_ms is not None and measured["pg_backends_cpu_ms_per_move"] is not None:
        measured["pg_backends_cpu_ms_per_table_opened"] = round(
            (pg_ms - opening_moves * measured["pg_backends_cpu_ms_per_move"]) / opened, 2
        )
    return measured


def moves_per_match(game: str, players: int, matches: int) -> float:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app.cli",
            "simulate",
            game,
            "--players",
            str(players),
            "--games",
            str(matches),
            "--seed",
            "1",
            "--bot",
            "greedy",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    return float(summary["mean_actions"])


def table_figures(game: str, players: int, matches: int, ms: dict[str, Any]) -> dict[str, Any]:
    """A table's moves per match and per minute, and what one costs per minute, by part."""
    per_match = moves_per_match(game, players, matches)
    per_minute = per_match / BOX_MINUTES[game]
    out: dict[str, Any] = {
        "moves_per_match": round(per_match, 1),
        "box_minutes": BOX_MINUTES[game],
        "moves_per_table_minute": round(per_minute, 2),
    }
    for part in ("worker", "pg_backends", "pg_shared", "redis"):
        cost = ms.get(f"{part}_cpu_ms_per_move")
        if cost:
            # One core gives 60,000 ms of CPU a minute.
            out[f"tables_per_{part}_core"] = int(60_000 / (cost * per_minute))
    return out


def main() -> int:
    gc.disable()  # the load generator's own collector pauses would count as server latency
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--rooms", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think", type=float, default=1000.0, help="each decision after uniform 0..THINK ms"
    )
    parser.add_argument(
        "--opening",
        type=float,
        default=8.0,
        help="seconds allowed for every table to open and start",
    )
    parser.add_argument("--sim-games", type=int, default=10)
    parser.add_argument("--redis-url", default=REDIS_URL)
    parser.add_argument("--redis-sharded", action="store_true")
    parser.add_argument(
        "--room-databases", type=int, default=0, help="rooms in N databases made for the run"
    )
    args = parser.parse_args()
    args.redis_port = int(args.redis_url.rsplit(":", 1)[1].split("/")[0])

    suffix = uuid.uuid4().hex[:8]
    schema = f"coven_capacity_{suffix}"
    databases = [f"coven_capacity_{suffix}_{n}" for n in range(args.room_databases)]
    asyncio.run(_admin(f'CREATE SCHEMA "{schema}"'))
    for name in databases:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    env = server_env(args, schema, [_url_of(name) for name in databases])
    results: dict[str, Any] = {}
    try:
        for game in args.games.split(","):
            log(f"{game}: {args.rooms} tables x {args.players}, think {args.think} ms")
            measured = measure_game(args, game, env)
            measured.update(table_figures(game, args.players, args.sim_games, measured))
            if not databases:
                measured.update(asyncio.run(row_sizes(schema, game)))
            log(json.dumps(measured))
            results[game] = measured
    finally:
        for cleanup in (
            f'DROP SCHEMA IF EXISTS "{schema}" CASCADE',
            *(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)' for name in databases),
        ):
            try:
                asyncio.run(_admin(cleanup))
            except Exception as exc:
                log(f"left behind, drop it by hand: {cleanup} ({exc})")
    print(
        json.dumps(
            {
                "load_average": "/".join(Path("/proc/loadavg").read_text().split()[:3]),
                "rooms": args.rooms,
                "players": args.players,
                "think_ms": args.think,
                "seconds": args.seconds,
                "opening_seconds": args.opening,
                "room_databases": args.room_databases,
                "redis_sharded": args.redis_sharded,
                "games": results,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
