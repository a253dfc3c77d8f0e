"""Load test: R rooms × P random players over real WebSockets against a running server.

    python benchmarks/load.py                      # starts `coven serve` on a temp SQLite file
    python benchmarks/load.py --url http://127.0.0.1:8000 --server-pid 1234
    python benchmarks/load.py --workers 2 --database-url postgresql+asyncpg://… --redis-url redis://…

Prints: actions/s; p50/p99 of "action submitted → every socket in the room holds the new
version"; server memory per idle socket (RSS delta over many idle spectator sockets).

    python benchmarks/load.py --strong-tables 20 --side-by-side --baseline --duration 60
    python benchmarks/load.py --strong-tables 20 --compare-rounds 4 --phase-seconds 15

A thinking bot must not slow people's moves at other tables. ``--strong-tables N`` runs the
people's load beside N tables of ``random`` bots and beside N tables of ``strong`` bots (three
bot seats and one quick player each) and prints both p99s and their ratio. ``--side-by-side``
runs two servers at once, the same people's load on each, one with each fleet (``--baseline``:
a third with no bot tables), so the machine's other load hits both alike; without it one
server alternates the fleets (ABBA, ``--compare-rounds``) and each people's latency counts in
the phase it was submitted in — fair only on an otherwise quiet machine.
Each player answers a state after a random think time (``--think``, uniform 0..N ms; 0 plays
flat out and measures saturation instead). Latencies count in steady state: from ``--warmup``
seconds after the last of the first R rooms has started (the opening rush of R room
creations, 4R sockets and starts is not a table's life).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import servers as fleet  # noqa: E402


def rss_kib(pids: list[int]) -> int:
    """Resident memory of the server processes (and their children: uvicorn workers)."""
    total = 0
    seen: set[int] = set()
    queue = list(pids)
    while queue:
        pid = queue.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += next(
                int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")
            )
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            queue.extend(int(c) for c in children)
        except (OSError, StopIteration):
            continue
    return total


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the server processes and their children so far."""
    total = 0.0
    queue, seen = list(pids), set()
    tick = os.sysconf("SC_CLK_TCK")
    while queue:
        pid = queue.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            queue.extend(
                int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            )
        except OSError:
            continue
    return total


@dataclass
class Room:
    code: str
    players: int
    seen: dict[int, int] = field(default_factory=dict)
    # version → submit time of the action that produced it, until every socket holds it
    pending: dict[int, float] = field(default_factory=dict)
    finished: bool = False
    load: Load | None = None

    def saw(self, seat: int, version: int, latencies: list[float]) -> None:
        self.seen[seat] = max(version, self.seen.get(seat, -1))
        if len(self.seen) < self.players:
            return
        low = min(self.seen.values())
        now = time.perf_counter()
        for v in [v for v in self.pending if v <= low]:
            t0 = self.pending.pop(v)
            if self.load is not None and t0 >= self.load.warm_until:
                latencies.append(now - t0)
                self.load.stamped.append((t0, now - t0))
                if os.environ.get("LOAD_DEBUG") and now - t0 > 0.05:
                    print(
                        f"slow {self.code[:6]} v{v} {now - t0:.3f}s at {t0 % 100:.2f}",
                        file=sys.stderr,
                    )


class BotTables:
    """``count`` Whirling Witchcraft tables of three ``level`` bots and one quick player, kept
    going (a finished table is replaced) until ``stop``; no latency of theirs is counted."""

    def __init__(self, args: argparse.Namespace, url: str, level: str, count: int) -> None:
        self.args = args
        self.url = url
        self.level = level
        self.count = count
        self.stopping = False
        self.versions = 0  # versions the bot tables made (bot and player moves)
        self.started = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def table(self, http: httpx.AsyncClient, index: int) -> None:
        rng = random.Random(f"{self.level}:{index}")
        while not self.stopping:
            created = (
                await http.post(
                    "/api/rooms",
                    json={"game": "whirling-witchcraft", "name": "B0", "visibility": "private"},
                )
            ).json()
            code, token = created["room"]["code"], created["token"]
            auth = {"Authorization": f"Bearer {token}"}
            for _ in range(3):
                await http.post(f"/api/rooms/{code}/bots", json={"level": self.level}, headers=auth)
            ws_url = self.url.replace("http://", "ws://") + f"/ws/rooms/{code}?token={token}"
            async with websockets.connect(ws_url, max_size=None) as ws:
                await http.post(f"/api/rooms/{code}/start", headers=auth)
                self.started += 1
                last = 0
                waiting = False  # an action of ours is in flight: never send a second one
                acted_at = -1  # the version our last action was sent against
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] in ("ack", "error"):
                        waiting = False
                        continue
                    if message["type"] != "state":
                        continue
                    self.versions += max(0, message["version"] - last)
                    last = max(last, message["version"])
                    if message["result"] is not None or self.stopping:
                        break
                    if message["legal"] and not waiting and message["version"] > acted_at:
                        waiting, acted_at = True, message["version"]
                        await asyncio.sleep(self.args.think / 1000 * rng.random())
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "act",
                                    "action": rng.choice(message["legal"]),
                                    "client_id": uuid.uuid4().hex,
                                    "version": message["version"],
                                }
                            )
                        )

    def start(self, http: httpx.AsyncClient) -> None:
        self._tasks = [asyncio.create_task(self.table(http, i)) for i in range(self.count)]

    async def stop(self) -> None:
        """Stop the players; the bots then owe at most one decision each: wait until the bot
        tables stand still, so a queue of thinking bots cannot spill into the next phase."""
        self.stopping = True
        if not self._tasks:
            return
        await asyncio.wait(self._tasks, timeout=5)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def own_cpu_seconds(pids: list[int]) -> float:
    """CPU time of the server processes themselves (all their threads), children left out."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            continue
    return total


def child_cpu_seconds(pids: list[int]) -> float:
    """CPU time of the server processes' descendants only (the bot pool's processes)."""
    children: list[int] = []
    for pid in pids:
        try:
            children += [
                int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            ]
        except OSError:
            continue
    return cpu_seconds(children) if children else 0.0


async def pool_quiet(pids: list[int], seconds: float = 2.0, limit: float = 120.0) -> None:
    """Wait until the bot pool has (almost) stopped thinking: the last phase's queue of strong
    decisions must not spill into the next phase."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = child_cpu_seconds(pids)
        await asyncio.sleep(seconds)
        if child_cpu_seconds(pids) - before < 0.05 * seconds:
            return


class Load:
    def __init__(self, args: argparse.Namespace, urls: list[str], pids: list[int]) -> None:
        self.args = args
        self.pids = pids
        self.urls = urls
        self.latencies: list[float] = []
        self.stamped: list[tuple[float, float]] = []  # (submitted at, latency)
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.stop_at = 0.0
        self.warm_until = float("inf")
        self.opened = 0

    async def open_room(self, http: httpx.AsyncClient, index: int) -> tuple[Room, list[str]]:
        created = (
            await http.post(
                "/api/rooms",
                json={"game": self.args.game, "name": "P0", "visibility": "private"},
            )
        ).json()
        code = created["room"]["code"]
        tokens = [created["token"]]
        for p in range(1, self.args.players):
            joined = (await http.post(f"/api/rooms/{code}/join", json={"name": f"P{p}"})).json()
            tokens.append(joined["token"])
        return Room(code, self.args.players, load=self), tokens

    async def player(self, room: Room, seat: int, token: str, ready: asyncio.Event) -> None:
        # One URL per worker (--route room): every socket of a room on one worker.
        url = self.urls[hash(room.code) % len(self.urls)]
        ws_url = url.replace("http://", "ws://") + f"/ws/rooms/{room.code}?token={token}"
        rng = random.Random(f"{room.code}:{seat}")
        async with websockets.connect(ws_url, max_size=None) as ws:
            ready.set()
            latest: dict[str, Any] | None = None
            inflight: tuple[str, float] | None = None
            own_version = -1  # the version our last acknowledged action produced

            thinking = False

            async def send_act() -> None:
                nonlocal inflight, thinking
                thinking = False
                if inflight is not None or latest is None or not latest["legal"]:
                    return
                if latest["version"] < own_version or time.perf_counter() >= self.stop_at:
                    return
                cid = uuid.uuid4().hex
                inflight = (cid, time.perf_counter())
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "action": rng.choice(latest["legal"]),
                            "client_id": cid,
                            "version": latest["version"],
                        }
                    )
                )

            async def think_then_act(delay: float) -> None:
                await asyncio.sleep(delay)
                await send_act()

            async def maybe_act() -> None:
                # Thinking happens beside the reader, so this socket keeps taking messages.
                nonlocal thinking
                if thinking or inflight is not None or latest is None or not latest["legal"]:
                    return
                if self.args.think:
                    thinking = True
                    delay = self.args.think / 1000 * rng.random()
                    pending.add(asyncio.create_task(think_then_act(delay)))
                else:
                    await send_act()

            pending: set[asyncio.Task[None]] = set()
            async for raw in ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "state":
                    if latest is not None and message["version"] < latest["version"]:
                        continue
                    latest = message
                    room.saw(seat, message["version"], self.latencies)
                    if message["result"] is not None:
                        room.finished = True
                        return
                    if time.perf_counter() >= self.stop_at and inflight is None:
                        return
                elif kind == "ack":
                    self.actions += 1
                    if inflight is not None and inflight[0] == message["client_id"]:
                        room.pending.setdefault(message["version"], inflight[1])
                        room.saw(seat, room.seen.get(seat, -1), self.latencies)
                        inflight = None
                    own_version = max(own_version, message["version"])
                elif kind == "error":
                    code = message["code"]
                    self.errors[code] = self.errors.get(code, 0) + 1
                    inflight = None
                await maybe_act()

    async def room_loop(self, http: httpx.AsyncClient, index: int) -> None:
        while time.perf_counter() < self.stop_at:
            room, tokens = await self.open_room(http, index)
            ready = [asyncio.Event() for _ in tokens]
            tasks = [
                asyncio.create_task(self.player(room, seat, token, ready[seat]))
                for seat, token in enumerate(tokens)
            ]
            for event in ready:
                await event.wait()
            await http.post(
                f"/api/rooms/{room.code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
            )
            self.opened += 1
            if self.opened == self.args.rooms:
                # Steady state: latencies count from shortly after the last first room started.
                self.warm_until = time.perf_counter() + self.args.warmup
            # A match ends on its own, or the run's clock stops it (plus time for in-flight
            # actions to land).
            remaining = self.stop_at - time.perf_counter() + 2.0
            _, unfinished = await asyncio.wait(tasks, timeout=max(remaining, 0.1))
            for task in unfinished:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def run(self) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.urls[0], timeout=30) as http:
            self.stop_at = time.perf_counter() + self.args.duration
            started = time.perf_counter()
            cpu = cpu_seconds(self.pids)
            client_cpu = time.process_time()
            await asyncio.gather(*(self.room_loop(http, i) for i in range(self.args.rooms)))
            elapsed = time.perf_counter() - started
            cpu = cpu_seconds(self.pids) - cpu
            client_cpu = time.process_time() - client_cpu
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        return {
            "rooms": self.args.rooms,
            "players": self.args.players,
            "seconds": round(elapsed, 1),
            "actions": self.actions,
            "actions_per_second": round(self.actions / elapsed, 1),
            "fanout_samples": len(lat),
            "fanout_p50_ms": pct(0.50),
            "fanout_p99_ms": pct(0.99),
            "fanout_max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "server_cpu_ms_per_action": round(cpu * 1000 / max(1, self.actions), 2),
            "client_cpu_ms_per_action": round(client_cpu * 1000 / max(1, self.actions), 2),
            "errors": self.errors,
        }


def percentile(values: list[float], p: float) -> float | None:
    ordered = sorted(values)
    return (
        round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1) if ordered else None
    )


async def compare(args: argparse.Namespace, url: str, pids: list[int]) -> dict[str, Any]:
    """People's load runs throughout; beside it, ``--strong-tables`` tables of random bots and
    of strong bots take turns (``--compare-rounds`` rounds, ABBA order against drift), each
    for ``--phase-seconds`` after ``--bot-warmup``. People's latencies are attributed to the
    phase their action was submitted in (nothing counts while a fleet starts or drains)."""
    args.duration = 1e9  # the load stops when the phases are done
    load = Load(args, [url], pids)
    people = asyncio.create_task(load.run())
    while time.perf_counter() < load.warm_until + 1.0:
        await asyncio.sleep(0.2)
    windows: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for round_ in range(args.compare_rounds):
            order = ("random", "strong") if round_ % 2 == 0 else ("strong", "random")
            for level in order:
                await pool_quiet(pids)
                fleet = BotTables(args, url, level, args.strong_tables)
                fleet.start(http)
                await asyncio.sleep(args.bot_warmup)
                start, moves = time.perf_counter(), fleet.versions
                pool_cpu, server_cpu = child_cpu_seconds(pids), own_cpu_seconds(pids)
                people_actions = load.actions
                await asyncio.sleep(args.phase_seconds)
                end = time.perf_counter()
                server_cpu = own_cpu_seconds(pids) - server_cpu
                samples = [lat for t0, lat in load.stamped if start <= t0 < end]
                window = {
                    "bot_level": level,
                    "people_samples": len(samples),
                    "people_p50_ms": percentile(samples, 0.5),
                    "people_p99_ms": percentile(samples, 0.99),
                    "bot_tables": fleet.started,
                    "bot_table_moves": fleet.versions - moves,
                    "pool_cpu_seconds": round(child_cpu_seconds(pids) - pool_cpu, 1),
                    # The server's own CPU (bot pool excluded), per move made in the phase.
                    "server_cpu_ms_per_move": round(
                        server_cpu
                        * 1000
                        / max(1, load.actions - people_actions + fleet.versions - moves),
                        2,
                    ),
                    "_start": start,
                    "_end": end,
                }
                windows.append(window)
                print(json.dumps({k: v for k, v in window.items() if k[0] != "_"}), file=sys.stderr)
                await fleet.stop()
    load.stop_at = time.perf_counter()
    # Tables mid-turn wait for a player who no longer acts: give in-flight moves a moment.
    await asyncio.wait([people], timeout=5)
    people.cancel()
    await asyncio.gather(people, return_exceptions=True)

    def pooled(level: str) -> list[float]:
        spans = [(w["_start"], w["_end"]) for w in windows if w["bot_level"] == level]
        return [lat for t0, lat in load.stamped if any(a <= t0 < b for a, b in spans)]

    p99 = {level: percentile(pooled(level), 0.99) for level in ("random", "strong")}
    ratio = (
        round(p99["strong"] / p99["random"], 3)
        if p99["strong"] is not None and p99["random"]
        else None
    )
    return {
        "compare": "people's p99 beside strong-bot tables / beside random-bot tables",
        "bot_tables": args.strong_tables,
        "people_rooms": args.rooms,
        "p99_ms_random": p99["random"],
        "p99_ms_strong": p99["strong"],
        "p50_ms_random": percentile(pooled("random"), 0.5),
        "p50_ms_strong": percentile(pooled("strong"), 0.5),
        "ratio": ratio,
        "within_20_percent": ratio is not None and ratio <= 1.2,
        "phases": [{k: v for k, v in w.items() if k[0] != "_"} for w in windows],
        "people_errors": load.errors,
    }


async def side_by_side(
    args: argparse.Namespace, servers: dict[str, tuple[str, list[int]]]
) -> dict[str, Any]:
    """Two servers at once, the same people's load on each: one beside ``--strong-tables``
    tables of random bots, the other beside as many tables of strong bots. Whatever else the
    machine does hits both at the same moments, so the ratio of their p99s is not at the
    mercy of the machine's other load (the sequential ``compare`` is)."""
    fleets: dict[str, BotTables] = {}
    clients = {
        level: httpx.AsyncClient(base_url=url, timeout=60) for level, (url, _) in servers.items()
    }
    try:
        for level, (url, _) in servers.items():
            count = 0 if level == "none" else args.strong_tables
            fleets[level] = BotTables(args, url, level, count)
            fleets[level].start(clients[level])
        await asyncio.sleep(args.bot_warmup)
        loads = {level: Load(args, [url], pids) for level, (url, pids) in servers.items()}
        before = {
            level: (own_cpu_seconds(pids), child_cpu_seconds(pids), fleets[level].versions)
            for level, (_, pids) in servers.items()
        }
        reports = await asyncio.gather(*(load.run() for load in loads.values()))
        for (level, (_, pids)), report in zip(servers.items(), reports, strict=True):
            server_cpu, pool_cpu, moves = before[level]
            report["bot_level"] = level
            report["bot_tables"] = fleets[level].started
            report["bot_table_moves"] = fleets[level].versions - moves
            report["server_cpu_seconds"] = round(own_cpu_seconds(pids) - server_cpu, 1)
            report["pool_cpu_seconds"] = round(child_cpu_seconds(pids) - pool_cpu, 1)
        for fleet in fleets.values():
            await fleet.stop()
    finally:
        for client in clients.values():
            await client.aclose()
    by_level = dict(zip(servers, reports, strict=True))
    p99 = {level: r["fanout_p99_ms"] for level, r in by_level.items()}
    ratio = round(p99["strong"] / p99["random"], 3) if p99["strong"] and p99["random"] else None
    baseline = {}
    if p99.get("none"):
        baseline = {
            "p99_ms_no_bots": p99["none"],
            "ratio_strong_to_no_bots": round(p99["strong"] / p99["none"], 3),
        }
    return {
        "compare": "side by side: people's p99 beside strong-bot tables / beside random-bot tables",
        "bot_tables": args.strong_tables,
        "people_rooms": args.rooms,
        "p99_ms_random": p99["random"],
        "p99_ms_strong": p99["strong"],
        "ratio": ratio,
        "within_20_percent": ratio is not None and ratio <= 1.2,
        **baseline,
        "servers": by_level,
    }


async def idle_memory(url: str, pids: list[int], sockets: int) -> dict[str, Any]:
    """Open many idle spectator sockets (spread over rooms) and divide the RSS growth."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        codes = []
        for _ in range(max(1, sockets // 50)):
            created = await http.post(
                "/api/rooms", json={"game": "whirling-witchcraft", "name": "idle"}
            )
            codes.append(created.json()["room"]["code"])
    ws_base = url.replace("http://", "ws://")
    # Warm up allocator arenas and per-room structures, then measure the marginal sockets.
    warm = [
        await websockets.connect(f"{ws_base}/ws/rooms/{codes[i % len(codes)]}") for i in range(50)
    ]
    await asyncio.sleep(1)
    before = rss_kib(pids)
    opened = []
    for i in range(sockets):
        opened.append(await websockets.connect(f"{ws_base}/ws/rooms/{codes[i % len(codes)]}"))
    await asyncio.sleep(2)
    after = rss_kib(pids)
    for ws in opened + warm:
        await ws.close()
    return {
        "idle_sockets": sockets,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_idle_socket": round((after - before) / sockets, 1),
    }


def server_env(args: argparse.Namespace) -> dict[str, str]:
    env = {
        **os.environ,
        "COVEN_BOT_DELAY": str(args.bot_delay),
        # The whole load comes from one address: lift the per-client limits.
        "COVEN_ROOMS_BURST": "1000000",
        "COVEN_ROOMS_PER_MINUTE": "1000000",
        "COVEN_SOCKETS_PER_CLIENT": "1000000",
        "COVEN_REFUSED_BURST": "1000000",
        "COVEN_REFUSED_CLIENT_BURST": "1000000",
        "COVEN_CHAT_CLIENT_BURST": "1000000",
    }
    if args.database_url:
        env["COVEN_DATABASE_URL"] = args.database_url
    else:
        env["COVEN_DATABASE_URL"] = (
            f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='coven-bench-')}/coven.db"
        )
    if args.redis_url:
        env["COVEN_REDIS_URL"] = args.redis_url
    return env


SERVE = [sys.executable, "-m", "app.cli", "serve", "--log-level", "warning"]


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    return fleet.start(SERVE, server_env(args), args.workers)


def main() -> None:
    gc.disable()  # the load generator's own collector pauses would count as server latency
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--server-pid", type=int, action="append", default=[])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="whirling-witchcraft")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument(
        "--think",
        type=float,
        default=2000.0,
        help="each decision waits uniform 0..THINK ms (2000: a quick human); 0 = flat out",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=1.0,
        help="latencies count from this long after every room has started",
    )
    parser.add_argument("--idle-sockets", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--route",
        choices=fleet.ROUTES,
        default="spread",
        help="spread: a room's sockets on any worker; room: all on one (benchmarks/servers.py)",
    )
    parser.add_argument(
        "--strong-tables",
        type=int,
        default=0,
        help="compare people's p99 beside N tables of strong bots with N of random bots",
    )
    parser.add_argument("--compare-rounds", type=int, default=2)
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="with --strong-tables: two servers at once (random-bot and strong-bot tables)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="with --side-by-side: a third server with the same people and no bot tables",
    )
    parser.add_argument(
        "--phase-seconds", type=float, default=20.0, help="measured seconds of each phase"
    )
    parser.add_argument(
        "--bot-warmup", type=float, default=5.0, help="seconds for the bot tables to start"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help="COVEN_BOT_DELAY of a started server (default 0, or 0.3 with --strong-tables)",
    )
    parser.add_argument("--database-url")
    parser.add_argument("--redis-url")
    args = parser.parse_args()
    if args.bot_delay is None:
        args.bot_delay = 0.3 if args.strong_tables else 0.0

    if args.strong_tables and args.side_by_side:
        levels = ("random", "strong", "none") if args.baseline else ("random", "strong")
        started = {level: start_server(args) for level in levels}
        try:
            servers = {level: (url, [proc.pid]) for level, (proc, url) in started.items()}
            print(json.dumps(asyncio.run(side_by_side(args, servers))))
        finally:
            for proc, _ in started.values():
                fleet.stop(proc)
        return
    processes: list[subprocess.Popen[bytes]] = []
    if args.url:
        urls, pids = [args.url], args.server_pid
    else:
        processes, urls = fleet.start_fleet(SERVE, server_env(args), args.workers, args.route)
        pids = [p.pid for p in processes]
    try:
        if args.strong_tables:
            print(json.dumps(asyncio.run(compare(args, urls[0], pids))))
            return
        report = asyncio.run(Load(args, urls, pids).run())
        if pids and args.idle_sockets:
            report.update(asyncio.run(idle_memory(urls[0], pids, args.idle_sockets)))
        print(json.dumps(report))
    finally:
        for process in processes:
            fleet.stop(process)


if __name__ == "__main__":
    main()
