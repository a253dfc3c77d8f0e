"""Coven's side of the boardgame.io comparison: R matches × P players of "hidden picks".

    python benchmarks/hidden_picks.py --matches 50 --players 4            # SQLite, one worker
    python benchmarks/hidden_picks.py --matches 50 --players 4 --workers 2 \\
        --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test \\
        --redis-url redis://127.0.0.1:6379/0                              # fresh schema
    … --workers 2 --route room …     # two servers; each match's sockets all on one of them

The same game (``benchmarks/games/hidden_picks.py``, rule for rule ``game.js``) and the same
load as ``/work/shared/bench/bgio/load.js``: R rooms of P players are created over HTTP, one
WebSocket per seat connects, every match is started, and when every socket holds version 0
the clock starts and every player picks a random card the instant it may (it holds a state in
which it owes a pick of a round it has not picked in). For every move: latency = send → the
moment the LAST socket of the match holds a state whose events show that move (the public
``picked`` event of that seat and round). Checks: every move is seen by every socket exactly
once; no socket ever holds another seat's hand or pick (each view has one hand and one pick,
they are the seat's own cards — hands at the same version are disjoint across the match's
sockets, a pick is a card the seat held — and a private event reaches only its seat); every
match ends with P × 10 picks at version P × 10. Prints ONE JSON line with the fields of
load.js (``moves_per_s``, ``p50_ms`` … ``max_ms``, ``server_rss_mb``, ``server_cpu_s``,
``checks_ok``, ``checks``). The server's CPU counts every process of it (uvicorn's workers).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import backing_cpu  # noqa: E402
from benchmarks.games.hidden_picks import GAME_ID, ROUNDS  # noqa: E402
from benchmarks.load import cpu_seconds, rss_kib  # noqa: E402
from benchmarks.servers import ROUTES, start_fleet, stop  # noqa: E402

VIEW_KEYS = {
    "round",
    "committed",
    "scores",
    "last_reveal",
    "total_picks",
    "deck_size",
    "hand",
    "pick",
}


def percentile(ordered: list[float], p: float) -> float | None:
    """Nearest rank, as load.js."""
    if not ordered:
        return None
    rank = max(1, -(-p * len(ordered) // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


def r3(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


@dataclass
class Checks:
    hidden_leaks: int = 0
    duplicate_moves_seen: int = 0
    unknown_moves_seen: int = 0
    versions_backwards: int = 0
    bad_final_states: int = 0
    errors: int = 0
    moves_dispatched: int = 0
    moves_confirmed: int = 0
    state_messages_received: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)


@dataclass
class Match:
    index: int
    code: str
    tokens: list[str]
    players: int
    url: str  # the worker its sockets and calls go to
    # (round, seat) → [send time, sockets that have seen it]
    pending: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    hands_at: dict[int, dict[int, frozenset[int]]] = field(default_factory=dict)
    done_clients: int = 0


class Run:
    def __init__(self, args: argparse.Namespace, urls: list[str], pids: list[int]) -> None:
        self.args = args
        self.urls = urls  # one (uvicorn's workers share its port) or one per worker
        self.pids = pids
        self.checks = Checks()
        self.latencies: list[float] = []
        self.go = asyncio.Event()
        self.synced = 0
        self.all_synced = asyncio.Event()
        self.finished = asyncio.Event()
        self.matches_done = 0
        self.t_last_done = 0.0
        self.expected = args.matches * args.players * ROUNDS
        self.starters: list[Callable[[], Awaitable[None]]] = []
        self.profile_to: Path | None = None  # py-spy samples the server during play only

    def start_profiler(self) -> subprocess.Popen[bytes] | None:
        if self.profile_to is None:
            return None
        spy = Path(sys.executable).with_name("py-spy")
        command = [str(spy), "record", "--threads", "--function", "--nonblocking"]
        command += ["-f", "raw", "-r", str(PROFILE_HZ), "-o", str(self.profile_to)]
        command += ["--pid", str(self.pids[0])]
        if self.args.workers > 1 and self.args.route == "spread":
            command.append("--subprocesses")  # uvicorn's workers are the supervisor's children
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def create(self, http: httpx.AsyncClient, index: int) -> Match:
        # --route room: every request and socket of a match goes to one worker, as a proxy
        # hashing /ws/rooms/{code} sends them (deploy/Caddyfile).
        url = self.urls[index % len(self.urls)]
        created = (
            await http.post(
                f"{url}/api/rooms",
                json={
                    "game": GAME_ID,
                    "name": "P0",
                    "visibility": "private",
                    "seats": self.args.players,
                },
            )
        ).json()
        code = created["room"]["code"]
        tokens = [created["token"]]
        for p in range(1, self.args.players):
            joined = await http.post(f"{url}/api/rooms/{code}/join", json={"name": f"P{p}"})
            tokens.append(joined.json()["token"])
        return Match(index, code, tokens, self.args.players, url)

    def leak(self, why: str) -> None:
        self.checks.hidden_leaks += 1
        if self.checks.hidden_leaks <= 5:
            print(f"leak: {why}", file=sys.stderr)

    def inspect(self, match: Match, seat: int, message: dict[str, Any], mine: set[int]) -> None:
        """The leak checks on one ``state`` message of ``seat``."""
        view = message["view"]
        if set(view) != VIEW_KEYS:
            self.leak(f"view keys {sorted(view)}")
            return
        hand = view["hand"]
        if not isinstance(hand, list) or not all(type(c) is int for c in hand):
            self.leak("hand is not a list of cards")
            return
        pick = view["pick"]
        own = frozenset(hand) | ({pick} if pick is not None else set())
        mine.update(hand)
        if pick is not None and pick not in mine:
            self.leak(f"seat {seat} holds pick {pick}, never in its hand")
        if bool(view["committed"][seat]) != (pick is not None):
            self.leak("own pick and committed disagree")
        at = match.hands_at.setdefault(message["version"], {})
        for other, cards in at.items():
            if other != seat and cards & own:
                self.leak(f"seat {seat} holds seat {other}'s cards {sorted(cards & own)}")
        at[seat] = own
        for event in message["events"]:
            if "@to" in event:
                if event["@to"] != [seat]:
                    self.leak(f"seat {seat} got an event addressed to {event['@to']}")
            elif event["type"] == "you_picked":
                self.leak("a private event reached a socket without its address")
            if event["type"] == "you_picked" and event["card"] not in mine:
                self.leak(f"seat {seat} told of pick {event['card']}, never in its hand")

    async def player(self, match: Match, seat: int) -> None:
        ws_url = match.url.replace("http://", "ws://") + f"/ws/rooms/{match.code}"
        rng = random.Random(self.args.seed * 1000003 + match.index * 101 + seat)
        seen: set[tuple[int, int]] = set()
        mine: set[int] = set()
        last_version = -1
        picked_round = 0
        latest: dict[str, Any] | None = None
        synced = False
        checks = self.checks
        async with websockets.connect(
            f"{ws_url}?token={match.tokens[seat]}", max_size=None, compression=None
        ) as ws:

            async def maybe_act() -> None:
                nonlocal picked_round
                if latest is None or not self.go.is_set() or latest["result"] is not None:
                    return
                view = latest["view"]
                if view["round"] <= picked_round or not latest["legal"]:
                    return
                picked_round = view["round"]
                action = rng.choice(latest["legal"])
                match.pending[(view["round"], seat)] = [time.perf_counter(), 0]
                checks.moves_dispatched += 1
                await ws.send(
                    orjson.dumps(
                        {
                            "type": "act",
                            "action": action,
                            "client_id": uuid.uuid4().hex,
                            "version": latest["version"],
                        }
                    ).decode()
                )

            self.starters.append(maybe_act)
            async for raw in ws:
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "error":
                    checks.errors += 1
                    code = message.get("code", "?")
                    checks.error_codes[code] = checks.error_codes.get(code, 0) + 1
                    continue
                if kind != "state":
                    continue
                checks.state_messages_received += 1
                if message["version"] < last_version:
                    checks.versions_backwards += 1
                    continue
                last_version = message["version"]
                self.inspect(match, seat, message, mine)
                now = time.perf_counter()
                for event in message["events"]:
                    if event["type"] != "picked":
                        continue
                    key = (event["round"], event["seat"])
                    if key in seen:
                        checks.duplicate_moves_seen += 1
                        continue
                    seen.add(key)
                    entry = match.pending.get(key)
                    if entry is None:
                        checks.unknown_moves_seen += 1
                        continue
                    entry[1] += 1
                    if entry[1] == match.players:
                        checks.moves_confirmed += 1
                        self.latencies.append(now - entry[0])
                        del match.pending[key]
                if not synced:
                    synced = True
                    self.synced += 1
                    if self.synced == self.args.matches * self.args.players:
                        self.all_synced.set()
                latest = message
                if message["result"] is not None:
                    view = message["view"]
                    if (
                        view["total_picks"] != match.players * ROUNDS
                        or message["version"] != match.players * ROUNDS
                        or len(seen) != match.players * ROUNDS
                    ):
                        checks.bad_final_states += 1
                    match.done_clients += 1
                    if match.done_clients == match.players:
                        self.matches_done += 1
                        self.t_last_done = now
                        if self.matches_done == self.args.matches:
                            self.finished.set()
                    return
                await maybe_act()

    async def run(self) -> dict[str, Any]:
        t_setup = time.perf_counter()
        limits = httpx.Limits(max_connections=self.args.setup_concurrency)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            gate = asyncio.Semaphore(self.args.setup_concurrency)

            async def one(i: int) -> Match:
                async with gate:
                    return await self.create(http, i)

            matches = await asyncio.gather(*(one(i) for i in range(self.args.matches)))
            players = [
                asyncio.create_task(self.player(m, seat))
                for m in matches
                for seat in range(m.players)
            ]
            # Every socket holds the room before its match starts (version 0 then reaches all).
            await asyncio.sleep(0.2)
            for m in matches:
                async with gate:
                    started = await http.post(
                        f"{m.url}/api/rooms/{m.code}/start",
                        headers={"Authorization": f"Bearer {m.tokens[0]}"},
                    )
                    started.raise_for_status()
        complete = True
        reason = None
        try:
            await asyncio.wait_for(self.all_synced.wait(), self.args.timeout)
        except TimeoutError:
            complete, reason = False, f"only {self.synced} sockets synced"
        setup_s = time.perf_counter() - t_setup
        profiler = self.start_profiler()
        if profiler is not None:
            await asyncio.sleep(1.0)  # py-spy attached and sampling before the clock starts
        cpu0 = cpu_seconds(self.pids) if self.pids else None
        backing0 = backing_cpu.snapshot(self.pids)
        machine0 = machine_ticks()
        self_cpu0 = time.process_time()
        t_start = time.perf_counter()
        if complete:
            self.go.set()
            await asyncio.gather(*(start() for start in self.starters))
            try:
                await asyncio.wait_for(self.finished.wait(), self.args.timeout)
            except TimeoutError:
                complete = False
                reason = f"timeout ({self.matches_done}/{self.args.matches} matches done)"
        t_end = self.t_last_done if complete else time.perf_counter()
        cpu1 = cpu_seconds(self.pids) if self.pids else None
        backing1 = backing_cpu.snapshot(self.pids)
        machine1 = machine_ticks()
        if profiler is not None:
            profiler.send_signal(signal.SIGINT)
            await asyncio.to_thread(profiler.wait, 30)
        # What the moves set off but did not wait for (the results recording of the matches
        # that ended, notices): counted too, until the server goes quiet.
        cpu_settled = await settle(self.pids, cpu1) if self.pids and cpu1 is not None else None
        backing_settled = backing_cpu.snapshot(self.pids)
        rss = rss_kib(self.pids) if self.pids else None
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        wall = t_end - t_start
        ordered = sorted(x * 1000 for x in self.latencies)
        c = self.checks
        ok = (
            complete
            and c.moves_confirmed == self.expected
            and c.moves_dispatched == self.expected
            and c.hidden_leaks == 0
            and c.duplicate_moves_seen == 0
            and c.unknown_moves_seen == 0
            and c.versions_backwards == 0
            and c.bad_final_states == 0
            and c.errors == 0
        )
        server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
        out: dict[str, Any] = {
            "matches": self.args.matches,
            "players": self.args.players,
            "moves": c.moves_confirmed,
            "wall_s": r3(wall),
            "moves_per_s": r3(c.moves_confirmed / wall) if wall > 0 else None,
            "p50_ms": r3(percentile(ordered, 50)),
            "p95_ms": r3(percentile(ordered, 95)),
            "p99_ms": r3(percentile(ordered, 99)),
            "max_ms": r3(ordered[-1] if ordered else None),
            "server_rss_mb": r3(rss / 1024) if rss is not None else None,
            "rounds": ROUNDS,
            "expected_moves": self.expected,
            "complete": complete,
            "checks_ok": ok,
            "mean_ms": r3(sum(ordered) / len(ordered)) if ordered else None,
            "server_cpu_s": r3(server_cpu),
            "server_cpu_ms_per_move": r3(server_cpu * 1000 / c.moves_confirmed)
            if server_cpu is not None and c.moves_confirmed
            else None,
            # The same from the first move until the server went quiet after the last one
            # (the recordings of the finished matches included).
            "server_cpu_settled_ms_per_move": r3((cpu_settled - cpu0) * 1000 / c.moves_confirmed)
            if cpu_settled is not None and cpu0 is not None and c.moves_confirmed
            else None,
            "pg_backends_cpu_settled_ms_per_move": backing_cpu.per_move(
                backing0, backing_settled, c.moves_confirmed
            ).get("pg_backends_cpu_ms_per_move"),
            "loadgen_cpu_s": r3(time.process_time() - self_cpu0),
            # PostgreSQL's backends serving this server, its shared processes, Redis.
            **backing_cpu.per_move(backing0, backing1, c.moves_confirmed),
            # Every process of the machine (PostgreSQL, Redis, this load generator included):
            # near 1.0, no core is left for another worker to use.
            "machine_busy": r3((machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1])),
            "setup_s": r3(setup_s),
            "storage": self.args.storage_label,
            "workers": self.args.workers,
            "route": self.args.route,
            "checks": {k: v for k, v in vars(c).items()},
        }
        if reason:
            out["reason"] = reason
        return out


PROFILE_HZ = 250
SETTLE_POLL_S = 0.25
SETTLE_MAX_S = 20.0


async def settle(pids: list[int], cpu_end: float) -> float:
    """The server's CPU seconds once it has gone quiet after the last move: two polls in a
    row that add at most one clock tick (its idle sweeps add about that), or ``SETTLE_MAX_S``."""
    last, quiet = cpu_end, 0
    deadline = time.perf_counter() + SETTLE_MAX_S
    tick = 1 / os.sysconf("SC_CLK_TCK")
    while time.perf_counter() < deadline and quiet < 2:
        await asyncio.sleep(SETTLE_POLL_S)
        now = cpu_seconds(pids)
        quiet = quiet + 1 if now - last <= tick * len(pids) + 1e-9 else 0
        last = now
    return last


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, every core (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


CATEGORIES = (
    # (label, substring of a frame's file): a sample counts for every label in its stack
    ("SQLAlchemy", "sqlalchemy/"),
    ("aiosqlite", "aiosqlite/"),
    ("asyncpg", "asyncpg/"),
    ("redis client", "redis/"),
    ("websockets library", "websockets/"),
    ("uvicorn", "uvicorn/"),
    ("starlette + fastapi", "starlette/"),
    ("pydantic", "pydantic"),
    ("asyncio event loop", "asyncio/"),
    ("app/rooms/moves.py", "app/rooms/moves.py"),
    ("app/rooms/tables.py", "app/rooms/tables.py"),
    ("app/rooms/hub.py", "app/rooms/hub.py"),
    ("app/store/repository.py", "app/store/repository.py"),
    ("app/api/ws.py", "app/api/ws.py"),
    ("app/wire.py (orjson)", "app/wire.py"),
    ("engine/ (protocol, registry)", "(engine/"),
    ("the game (hidden_picks.py)", "benchmarks/games/hidden_picks.py"),
)


def thread_kind(frames: list[str]) -> str:
    """Which thread a stack ran on, from its outermost frames (py-spy's raw stacks carry no
    thread names)."""
    if not frames[0].startswith("Thread._bootstrap"):
        return "event loop thread"
    if any(f.startswith("_connection_worker_thread (aiosqlite/") for f in frames[:6]):
        return "aiosqlite threads"
    return "SQLite writer thread (executor)"


def summarise_profile(raw: str, moves: int, top: int = 25) -> str:
    """py-spy's raw (collapsed) stacks, on-CPU samples only, as a short text report."""
    total = 0
    by_thread: dict[str, int] = {}
    by_category: dict[str, int] = {}
    own: dict[str, int] = {}
    own_by_thread: dict[str, dict[str, int]] = {}
    inclusive: dict[str, int] = {}
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if not f.startswith(("thread ", "process "))]
        if not frames:
            continue
        total += count
        kind = thread_kind(frames)
        by_thread[kind] = by_thread.get(kind, 0) + count
        text = ";".join(frames)
        for label, needle in CATEGORIES:
            if needle in text:
                by_category[label] = by_category.get(label, 0) + count
        own[frames[-1]] = own.get(frames[-1], 0) + count
        mine = own_by_thread.setdefault(kind, {})
        mine[frames[-1]] = mine.get(frames[-1], 0) + count
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + count

    def pct(n: int) -> str:
        return f"{100 * n / max(1, total):5.1f} %"

    lines = [
        f"{total} on-CPU samples (py-spy, {PROFILE_HZ} Hz, every thread, play only), {moves} moves",
        "(uvloop runs the loop in C: samples whose innermost frame is Runner.run are the loop's",
        "own work — polling, socket reads and writes, callbacks' scheduling)",
        "",
    ]
    lines.append("by thread:")
    lines += [f"  {pct(n)}  {k}" for k, n in sorted(by_thread.items(), key=lambda x: -x[1])]
    for kind, functions in sorted(own_by_thread.items(), key=lambda x: -by_thread[x[0]]):
        lines.append(f"top own time in the {kind}:")
        ranked = sorted(functions.items(), key=lambda x: -x[1])[:8]
        lines += [f"  {pct(n)}  {k}" for k, n in ranked]
    lines.append("inclusive, by layer (a sample counts for every layer in its stack):")
    lines += [f"  {pct(n)}  {k}" for k, n in sorted(by_category.items(), key=lambda x: -x[1])]
    lines.append(f"top {top} functions by own time:")
    lines += [f"  {pct(n)}  {k}" for k, n in sorted(own.items(), key=lambda x: -x[1])[:top]]
    lines.append(f"top {top} functions by inclusive time:")
    lines += [f"  {pct(n)}  {k}" for k, n in sorted(inclusive.items(), key=lambda x: -x[1])[:top]]
    return "\n".join(lines) + "\n"


async def pg_schema(url: str, sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def server_env(args: argparse.Namespace, tmp: str) -> dict[str, str]:
    env = {
        **os.environ,
        "COVEN_BOT_DELAY": "0",
        # The whole load comes from one address: the per-address limits are off.
        "COVEN_ROOMS_BURST": "0",
        "COVEN_SOCKETS_PER_CLIENT": "0",
        "COVEN_REFUSED_BURST": "0",
        "COVEN_REFUSED_CLIENT_BURST": "0",
        "COVEN_CHAT_CLIENT_BURST": "0",
        "COVEN_BOT_PROCESSES": "0",
    }
    if args.database_url:
        env["COVEN_DATABASE_URL"] = args.database_url
        if args.schema:
            env["COVEN_DATABASE_SCHEMA"] = args.schema
    else:
        env["COVEN_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp}/coven.db"
    if args.redis_url:
        env["COVEN_REDIS_URL"] = args.redis_url
    return env


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", "-R", type=int, default=10)
    parser.add_argument("--players", "-P", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--route",
        choices=ROUTES,
        default="spread",
        help="spread: a match's sockets land on any worker; room: all on one worker, as the "
        "proxy's hash of /ws/rooms/{code} routes them (deploy/Caddyfile)",
    )
    parser.add_argument("--database-url", help="PostgreSQL URL (default: a temp SQLite file)")
    parser.add_argument("--redis-url")
    parser.add_argument("--schema", help="PostgreSQL schema (default: a fresh one, dropped)")
    parser.add_argument("--url", help="a running server (with the game registered)")
    parser.add_argument("--server-pid", type=int, action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--setup-concurrency", type=int, default=8)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="attach py-spy to the server while the matches play (every thread, on-CPU samples, "
        "250 Hz) and write its top items to FILE (the raw stacks beside it, FILE.raw)",
    )
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 5:
        parser.error("--players must be 3..5")
    args.storage_label = "postgresql" if args.database_url else "sqlite"
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start a fresh server (unless ``--url``), run the load, stop the server."""
    if args.url:
        return asyncio.run(Run(args, [args.url], args.server_pid).run())
    with tempfile.TemporaryDirectory(prefix="coven-hp-") as tmp:
        fresh_schema = None
        if args.database_url and not args.schema:
            fresh_schema = args.schema = f"bench_{uuid.uuid4().hex[:10]}"
            asyncio.run(pg_schema(args.database_url, f'CREATE SCHEMA "{fresh_schema}"'))
        raw = Path(tmp) / "profile.txt"
        try:
            command = [sys.executable, "-m", "benchmarks.games.serve"]
            processes, urls = start_fleet(command, server_env(args, tmp), args.workers, args.route)
            load = Run(args, urls, [p.pid for p in processes])
            if args.profile:
                load.profile_to = raw
            try:
                result = asyncio.run(load.run())
            finally:
                for process in processes:
                    stop(process)
            if args.profile:
                text = raw.read_text()
                Path(args.profile).with_suffix(".raw").write_text(text)
                Path(args.profile).write_text(summarise_profile(text, result["moves"]))
            return result
        finally:
            if fresh_schema:
                asyncio.run(
                    pg_schema(args.database_url, f'DROP SCHEMA IF EXISTS "{fresh_schema}" CASCADE')
                )
                args.schema = None


def main() -> int:
    gc.disable()  # the load generator's collector pauses would count as server latency
    args = parse()
    result = run(args)
    print(json.dumps(result))
    return 0 if result["checks_ok"] else 2


if __name__ == "__main__":
    sys.exit(main())
