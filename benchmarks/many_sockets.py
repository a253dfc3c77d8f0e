"""Many open sockets on one worker while tables play (issue 24, item 4).

    python benchmarks/many_sockets.py                          # SQLite, in-process bus
    python benchmarks/many_sockets.py --sockets 20000 --tables 200 --play-seconds 60
    python benchmarks/many_sockets.py --database-url postgresql+asyncpg://postgres@127.0.0.1/test \\
        --redis-url redis://127.0.0.1:6379/0                    # a fresh schema, dropped after

One worker of ``coven serve`` with the benchmark game registered (``benchmarks/games/serve.py``;
``--database-url`` / ``--redis-url``: PostgreSQL + Redis, else a temporary SQLite file and the
in-process bus). Then:

1. ``--sockets`` idle spectator sockets, spread over started rooms of ``--per-room``, opened by
   ``--holders`` separate processes (``--concurrency`` handshakes in flight in all), each from
   its own 127.0.0.x source address (every address has its own ephemeral ports). A held socket
   shakes hands with a browser's headers (Chromium's: origin, user agent, languages, the
   ``coven`` subprotocol, deflate offered; the server keeps it off), answers the server's
   pings, reads everything it is sent and, like the browser client (``static/js/client.js``),
   says ``ping`` every ``--ping-seconds`` (0: never). Memory: the server's resident memory after
   ``--warm`` warm-up sockets and after all of them are open (and ``--settle`` seconds), the
   growth divided by the sockets: KiB per socket. Also how long opening them took, and the
   server's CPU seconds per second over ``--idle-seconds`` with only them open (keepalive).
2. ``--tables`` tables of ``--players`` play meanwhile, for ``--play-seconds`` after
   ``--play-warmup``: hidden picks (``benchmarks/games/hidden_picks.py``), every player picking
   a random card after thinking uniform 0..``--think`` ms, a finished match followed by a new
   room. Move p50 / p99: a pick's send → the moment the last socket of its match holds a state
   showing it (``Tables``). ``--baseline`` plays the same before the idle sockets open (the
   same minutes' machine, for the ratio).

The server, the holders and the players (this script) are separate processes. A process may
hold at most ``RLIMIT_NOFILE``'s hard limit of open files; the script raises the soft limit to
it and, if the server cannot hold ``--sockets`` + the players' sockets, opens fewer and says so
(``sockets_capped_by``). Prints one JSON line (the last line on stdout).

The server runs with ``COVEN_METRICS=1``: the collector's pauses (``coven_gc_pause_seconds``)
are read from ``/metrics`` around each phase, per generation (``gc_opening``, ``gc_idle``,
``gc_play``: collections, seconds, the bucket of the longest). ``--gc-freeze-seconds``: the
server's ``COVEN_GC_FREEZE_SECONDS`` (``0``: freeze at startup only; ``app/gc_tuning.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.typing import Subprotocol
from websockets.uri import parse_uri

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import load, servers  # noqa: E402
from benchmarks.hidden_picks import pg_schema  # noqa: E402
from benchmarks.idle_sockets import started_room  # noqa: E402

# Open files the server needs beside the sockets (listening socket, database, epoll, pipes).
SERVER_FILES = 150
PING = b'{"type":"ping"}'
# ``coven serve`` with the benchmark game (hidden picks) registered.
SERVE = [sys.executable, "-m", "benchmarks.games.serve"]
BROWSER_HEADERS = (
    ("Pragma", "no-cache"),
    ("Cache-Control", "no-cache"),
    (
        "User-Agent",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/131.0.0.0 Safari/537.36",
    ),
    ("Accept-Encoding", "gzip, deflate, br, zstd"),
    ("Accept-Language", "en-US,en;q=0.9,vi;q=0.8,es;q=0.7"),
    ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits"),
)


def raise_open_files() -> int:
    """The soft limit of open files up to the hard one (inherited by every child process)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1_048_576
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# ---------------------------------------------------------------- the holders' side


class HeldSocket(asyncio.Protocol):
    """One idle room socket, as light as a client can be: the ``websockets`` sans-I/O protocol
    on a bare asyncio transport (it answers pings), every message read and dropped."""

    def __init__(self, uri: str, origin: str, opened: asyncio.Future[None]) -> None:
        self.protocol = ClientProtocol(
            parse_uri(uri), subprotocols=[Subprotocol("coven")], max_size=None
        )
        self.origin = origin
        self.opened = opened
        self.transport: asyncio.Transport | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        request = self.protocol.connect()
        # What a browser's handshake carries (Chromium's, as the room page opens it).
        for name, value in BROWSER_HEADERS:
            if name in request.headers:
                del request.headers[name]
            request.headers[name] = value
        request.headers["Origin"] = self.origin
        self.protocol.send_request(request)
        self.flush()

    def flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            data = self.protocol.data_to_send()
            if data:
                self.transport.write(b"".join(data))

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response) and not self.opened.done():
                if event.status_code == 101 and self.protocol.handshake_exc is None:
                    self.opened.set_result(None)
                else:
                    self.opened.set_exception(
                        ConnectionError(f"handshake answered {event.status_code}")
                    )
            elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                self.closed = True
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"lost during the handshake: {exc}"))

    def ping(self) -> None:
        if not self.closed and self.transport is not None and not self.transport.is_closing():
            self.protocol.send_text(PING)
            self.flush()


async def hold(args: argparse.Namespace) -> None:
    """A holder process: says ``{"ready": true}``, reads the rooms (a JSON list) from stdin,
    opens ``--count`` sockets into them, says ``{"opened": …}``, keeps them (pinging) until
    stdin closes, then says how many the server closed meanwhile."""
    loop = asyncio.get_running_loop()
    print(json.dumps({"ready": True}), flush=True)
    codes: list[str] = orjson.loads(await loop.run_in_executor(None, sys.stdin.readline))
    base = args.hold.replace("http://", "ws://")
    host, port = args.hold.split("//", 1)[1].split(":")
    gate = asyncio.Semaphore(args.concurrency)
    held: list[HeldSocket] = []
    failed: dict[str, int] = {}

    async def one(index: int) -> None:
        code = codes[(args.offset + index) % len(codes)]
        async with gate:
            opened: asyncio.Future[None] = loop.create_future()
            uri = f"{base}/ws/rooms/{code}"
            try:
                _, protocol = await loop.create_connection(
                    lambda: HeldSocket(uri, args.hold, opened),
                    host,
                    int(port),
                    local_addr=(args.source, 0),
                )
                await asyncio.wait_for(opened, 120)
            except Exception as exc:
                failed[type(exc).__name__] = failed.get(type(exc).__name__, 0) + 1
                return
        held.append(protocol)

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(args.count)))
    seconds = time.perf_counter() - started
    print(json.dumps({"opened": len(held), "failed": failed, "seconds": seconds}), flush=True)

    stop = asyncio.Event()
    loop.add_reader(sys.stdin.fileno(), stop.set)  # stdin closed (or a line): the end
    if args.ping_seconds > 0 and held:
        # Every socket pings once a period at its own phase: a slice of them every tick.
        order = held[:]
        random.Random(args.offset).shuffle(order)
        tick = 0.1
        ticks = max(1, round(args.ping_seconds / tick))
        n = 0
        while not stop.is_set():
            for held_socket in order[n % ticks :: ticks]:
                held_socket.ping()
            n += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), tick)
    else:
        await stop.wait()
    closed = sum(1 for h in held if h.closed)
    for held_socket in held:
        if held_socket.transport is not None:
            held_socket.transport.abort()
    print(json.dumps({"closed_by_server": closed}), flush=True)


# ---------------------------------------------------------------- the measuring side


class Holder:
    """A holder process and the lines it has said."""

    def __init__(self, url: str, count: int, offset: int, source: str, args: argparse.Namespace):
        command = [sys.executable, str(Path(__file__).resolve()), "--hold", url]
        command += ["--count", str(count), "--offset", str(offset), "--source", source]
        command += ["--concurrency", str(args.hold_concurrency)]
        command += ["--ping-seconds", str(args.ping_seconds)]
        self.count = count
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def said(self, timeout: float) -> dict[str, Any]:
        """The holder's next line (``None`` lines and exits raise)."""
        assert self.process.stdout is not None
        line = _readline(self.process.stdout, timeout)
        if not line:
            raise RuntimeError(f"a holder exited (code {self.process.poll()})")
        said: dict[str, Any] = json.loads(line)
        return said

    def go(self, codes: list[str]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(orjson.dumps(codes) + b"\n")
        self.process.stdin.flush()

    def finish(self) -> int | None:
        """Close its sockets; how many the server had closed before."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
            closed = self.said(60).get("closed_by_server")
            return int(closed) if closed is not None else None
        except (OSError, RuntimeError, ValueError):
            return None
        finally:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=30)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def _readline(stream: Any, timeout: float) -> bytes:
    import select

    ready, _, _ = select.select([stream], [], [], timeout)
    if not ready:
        raise RuntimeError(f"no word from a holder within {timeout:.0f} s")
    line: bytes = stream.readline()
    return line


def open_all(
    holders: list[Holder], codes: list[str], timeout: float
) -> tuple[float, int, dict[str, int]]:
    """Tell every (ready) holder to open its sockets at once: the seconds until all have."""
    for holder in holders:
        holder.said(120)  # ready: imported, waiting for the rooms
    started = time.perf_counter()
    for holder in holders:
        holder.go(codes)
    opened, failed = 0, dict[str, int]()
    for holder in holders:
        report = holder.said(timeout)
        opened += report["opened"]
        for name, count in report["failed"].items():
            failed[name] = failed.get(name, 0) + count
    return time.perf_counter() - started, opened, failed


async def started_rooms(url: str, count: int, concurrency: int = 16) -> list[str]:
    """``count`` rooms of hidden picks, three seats taken and the match started."""
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:

        async def one() -> str:
            async with gate:
                return (await started_room(http))[0]

        return list(await asyncio.gather(*(one() for _ in range(count))))


class Tables:
    """``--tables`` tables of hidden picks (the benchmark game: every round each player picks
    a card at once; who picked is public), each player thinking uniform 0..``--think`` ms
    before its pick; a finished match is followed by a new room. Latency of a move: its send →
    the moment the last socket of its match holds a state whose events show it (the public
    ``picked`` event of that seat and round; a catch-up push carries every missed event).
    Versions are not compared: each reader counts only the actions visible to her."""

    def __init__(self, args: argparse.Namespace, url: str) -> None:
        self.args = args
        self.url = url
        self.stop_at = 0.0
        self.count_from = 0.0
        self.latencies: list[float] = []
        self.moves = 0
        self.matches = 0
        self.errors: dict[str, int] = {}
        self.unfinished = 0  # moves sent whose events not every socket received
        self.open_failures: dict[str, int] = {}  # rooms or sockets of a table that failed
        self.play_failures: dict[str, int] = {}  # matches cut short

    async def player(
        self,
        ws: websockets.ClientConnection,
        seat: int,
        pending: dict[tuple[int, int], list[float]],
        ready: asyncio.Barrier,
        rng: random.Random,
    ) -> None:
        seen: set[tuple[int, int]] = set()
        picked_round = 0
        latest: dict[str, Any] | None = None
        players = self.args.players

        async def pick(state: dict[str, Any]) -> None:
            await asyncio.sleep(self.args.think / 1000 * rng.random())
            now = time.perf_counter()
            if now >= self.stop_at:
                return
            current = latest or state
            pending[(current["view"]["round"], seat)] = [now, 0]
            self.moves += 1
            await ws.send(
                orjson.dumps(
                    {
                        "type": "act",
                        "action": rng.choice(current["legal"]),
                        "client_id": uuid.uuid4().hex,
                        "version": current["version"],
                    }
                ).decode()
            )

        picks: set[asyncio.Task[None]] = set()
        synced = False
        async for raw in ws:
            message = orjson.loads(raw)
            kind = message["type"]
            if kind == "error":
                code = message.get("code", "?")
                self.errors[code] = self.errors.get(code, 0) + 1
                continue
            if kind != "state":
                continue
            now = time.perf_counter()
            for event in message["events"]:
                if event["type"] != "picked":
                    continue
                key = (event["round"], event["seat"])
                if key in seen:
                    continue
                seen.add(key)
                entry = pending.get(key)
                if entry is None:
                    continue
                entry[1] += 1
                if entry[1] == players:
                    del pending[key]
                    if entry[0] >= self.count_from:
                        self.latencies.append(now - entry[0])
            latest = message
            if not synced:
                synced = True
                await ready.wait()  # every socket holds the match before anyone picks
            if message["result"] is not None:
                return
            if message["view"]["round"] > picked_round and message["legal"]:
                picked_round = message["view"]["round"]  # one pick a round, after thinking
                task = asyncio.create_task(pick(message))
                picks.add(task)
                task.add_done_callback(picks.discard)

    async def table(self, http: httpx.AsyncClient, index: int) -> None:
        rng = random.Random(index)
        ws_base = self.url.replace("http://", "ws://")
        while time.perf_counter() < self.stop_at:
            try:
                code, tokens = await started_room(http, self.args.players)
                sockets = [
                    await websockets.connect(
                        f"{ws_base}/ws/rooms/{code}?token={token}",
                        max_size=None,
                        compression=None,
                        open_timeout=120,
                    )
                    for token in tokens
                ]
            except Exception as exc:  # a table that could not open is counted, not fatal
                name = type(exc).__name__
                self.open_failures[name] = self.open_failures.get(name, 0) + 1
                continue
            pending: dict[tuple[int, int], list[float]] = {}
            ready = asyncio.Barrier(self.args.players)
            try:
                players = [
                    self.player(ws, seat, pending, ready, rng) for seat, ws in enumerate(sockets)
                ]
                remaining = self.stop_at - time.perf_counter() + 5.0
                done = await asyncio.wait_for(asyncio.gather(*players), max(remaining, 1.0))
                del done
                self.matches += 1
            except Exception as exc:  # cut, or the match not over in time: counted
                name = type(exc).__name__
                self.play_failures[name] = self.play_failures.get(name, 0) + 1
            finally:
                self.unfinished += sum(1 for t0, _ in pending.values() if t0 >= self.count_from)
                await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)

    async def run(self, pid: int) -> dict[str, Any]:
        limits = httpx.Limits(max_connections=20)
        async with httpx.AsyncClient(base_url=self.url, timeout=120, limits=limits) as http:
            started = time.perf_counter()
            self.stop_at = started + self.args.play_warmup + self.args.play_seconds
            self.count_from = started + self.args.play_warmup
            cpu0 = load.cpu_seconds([pid])
            await asyncio.gather(*(self.table(http, i) for i in range(self.args.tables)))
            cpu = load.cpu_seconds([pid]) - cpu0
        ordered = sorted(self.latencies)

        def ms(p: float) -> float | None:
            return round(percentile(ordered, p) * 1000, 1) if ordered else None

        return {
            "moves": self.moves,
            "moves_per_s": round(self.moves / (time.perf_counter() - started), 1),
            "counted": len(ordered),
            "p50_ms": ms(50),
            "p99_ms": ms(99),
            "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
            "not_seen_by_all": self.unfinished,
            "matches": self.matches,
            "errors": self.errors,
            "table_open_failures": self.open_failures,
            "matches_cut": self.play_failures,
            "server_cpu_ms_per_move": round(cpu * 1000 / max(1, self.moves), 2),
        }


def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank."""
    rank = max(1, -(-p * len(ordered) // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


def play(args: argparse.Namespace, url: str, pid: int) -> dict[str, Any]:
    return asyncio.run(Tables(args, url).run(pid))


def server_env(args: argparse.Namespace, tmp: str) -> dict[str, str]:
    env = {
        **os.environ,
        "COVEN_BOT_DELAY": "0",
        # Every socket comes from this machine: the per-address limits are off.
        "COVEN_ROOMS_BURST": "0",
        "COVEN_SOCKETS_PER_CLIENT": "0",
        "COVEN_REFUSED_BURST": "0",
        "COVEN_REFUSED_CLIENT_BURST": "0",
        "COVEN_CHAT_CLIENT_BURST": "0",
        "COVEN_DATABASE_URL": args.database_url or f"sqlite+aiosqlite:///{tmp}/coven.db",
        # GET /metrics: the collector's pauses (coven_gc_pause_seconds) per phase.
        "COVEN_METRICS": "1",
    }
    if args.gc_freeze_seconds is not None:
        env["COVEN_GC_FREEZE_SECONDS"] = str(args.gc_freeze_seconds)
    if args.database_url and args.schema:
        env["COVEN_DATABASE_SCHEMA"] = args.schema
    if args.redis_url:
        env["COVEN_REDIS_URL"] = args.redis_url
    return env


def gc_histogram(url: str) -> dict[str, dict[str, float]]:
    """``coven_gc_pause_seconds`` from the server's /metrics: per generation, ``count``,
    ``sum`` and each bucket's cumulative count (by its ``le``)."""
    text = httpx.get(f"{url}/metrics", timeout=60).text
    out: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if not line.startswith("coven_gc_pause_seconds"):
            continue
        name_labels, _, value = line.rpartition(" ")
        name, _, labels = name_labels.partition("{")
        fields = dict(
            part.split("=", 1) for part in labels.rstrip("}").replace('"', "").split(",") if part
        )
        series = out.setdefault(fields.get("generation", "?"), {})
        key = name.removeprefix("coven_gc_pause_seconds_")
        series[f"le {fields['le']}" if key == "bucket" else key] = float(value)
    return out


def gc_pauses(
    before: dict[str, dict[str, float]], after: dict[str, dict[str, float]]
) -> dict[str, Any]:
    """The collections between two scrapes, per generation: how many, their seconds in all,
    and the bucket the longest fell in (``longest_s``: "lower..upper")."""
    out: dict[str, Any] = {}
    for generation, series in sorted(after.items()):
        old = before.get(generation, {})
        count = series.get("count", 0) - old.get("count", 0)
        if count <= 0:
            continue
        bounds = sorted(
            (float(key[3:]), series[key] - old.get(key, 0))
            for key in series
            if key.startswith("le ")
        )
        lower, longest = 0.0, "?"
        for bound, cumulative in bounds:
            if cumulative >= count:
                longest = f"{lower}..{bound}"
                break
            lower = bound
        out[f"gen{generation}"] = {
            "count": int(count),
            "total_s": round(series.get("sum", 0) - old.get("sum", 0), 3),
            "longest_s": longest,
        }
    return out


def measure(args: argparse.Namespace, url: str, pid: int, files: int) -> dict[str, Any]:
    result: dict[str, Any] = {}
    player_sockets = args.tables * args.players
    room_for = files - SERVER_FILES - player_sockets - args.warm
    sockets = min(args.sockets, room_for)
    if sockets < args.sockets:
        result["sockets_capped_by"] = f"RLIMIT_NOFILE hard limit {files}"
    rooms = -(-(sockets + args.warm) // args.per_room)
    t0 = time.perf_counter()
    codes = asyncio.run(started_rooms(url, rooms))
    result["rooms_setup_s"] = round(time.perf_counter() - t0, 1)
    if args.baseline:
        result["play_before"] = play(args, url, pid)
    gc_start = gc_histogram(url)
    holders = [Holder(url, args.warm, 0, "127.0.0.2", args)]
    _, warm_opened, _ = open_all(holders, codes, 300)
    time.sleep(args.settle)
    before = load.rss_kib([pid])
    share = -(-sockets // args.holders)
    main_holders = [
        Holder(
            url, min(share, sockets - k * share), args.warm + k * share, f"127.0.0.{3 + k}", args
        )
        for k in range(args.holders)
    ]
    holders += main_holders
    try:
        seconds, opened, failed = open_all(main_holders, codes, args.open_timeout)
        time.sleep(args.settle)
        after = load.rss_kib([pid])
        # What the open sockets alone cost the server (pings both ways, presence): no table
        # plays yet.
        gc_open = gc_histogram(url)
        cpu0, t0 = load.cpu_seconds([pid]), time.perf_counter()
        time.sleep(args.idle_seconds)
        idle_cpu = (load.cpu_seconds([pid]) - cpu0) / (time.perf_counter() - t0)
        gc_idle = gc_histogram(url)
        result.update(
            {
                "sockets": opened,
                "sockets_asked": args.sockets,
                "warm_sockets": warm_opened,
                "open_failed": failed,
                "open_s": round(seconds, 1),
                "rss_before_kib": before,
                "rss_after_kib": after,
                "kib_per_socket": round((after - before) / max(1, opened), 2),
                "idle_server_cpu_s_per_s": round(idle_cpu, 3),
                "gc_opening": gc_pauses(gc_start, gc_open),
                "gc_idle": gc_pauses(gc_open, gc_idle),
            }
        )
        print(json.dumps(result), file=sys.stderr, flush=True)
        result["play"] = play(args, url, pid)
        result["gc_play"] = gc_pauses(gc_idle, gc_histogram(url))
        result["rss_after_play_kib"] = load.rss_kib([pid])
        result["server_sockets_during_play"] = opened + warm_opened + player_sockets
    finally:
        closed = [holder.finish() for holder in holders]
    result["closed_by_server"] = sum(c for c in closed if c is not None)
    return result


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=20_000, help="idle sockets to open")
    parser.add_argument("--per-room", type=int, default=50, help="idle sockets per room")
    parser.add_argument("--warm", type=int, default=200, help="sockets opened before 'before'")
    parser.add_argument("--holders", type=int, default=2, help="processes holding the sockets")
    parser.add_argument("--concurrency", type=int, default=100, help="handshakes in flight")
    parser.add_argument("--ping-seconds", type=float, default=25.0)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument(
        "--idle-seconds", type=float, default=30.0, help="server CPU measured with no play"
    )
    parser.add_argument("--open-timeout", type=float, default=900.0)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, help="per table, 3..5")
    parser.add_argument("--think", type=float, default=2000.0, help="ms, uniform 0..THINK")
    parser.add_argument("--play-seconds", type=float, default=60.0)
    parser.add_argument("--play-warmup", type=float, default=10.0)
    parser.add_argument("--baseline", action="store_true", help="play before the sockets too")
    parser.add_argument("--database-url", help="PostgreSQL URL (default: a temp SQLite file)")
    parser.add_argument("--redis-url")
    parser.add_argument(
        "--gc-freeze-seconds",
        type=float,
        help="the server's COVEN_GC_FREEZE_SECONDS (0: freeze at startup only; default: its own)",
    )
    # A holder process (started by this script).
    parser.add_argument("--hold", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--source", default="127.0.0.1", help=argparse.SUPPRESS)
    parser.add_argument("--hold-concurrency", type=int, default=50, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold is not None:
        args.concurrency = args.hold_concurrency
    else:
        args.hold_concurrency = max(1, args.concurrency // max(1, args.holders))
    args.schema = None
    return args


def main() -> int:
    args = parse()
    files = raise_open_files()
    if args.hold is not None:
        asyncio.run(hold(args))
        return 0
    result: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "storage": "postgresql+redis" if args.database_url else "sqlite",
        "tables": args.tables,
        "players": args.players,
        "game": "hidden picks",
        "think_ms": args.think,
        "ping_s": args.ping_seconds,
        "gc_freeze_seconds": args.gc_freeze_seconds,
    }
    with tempfile.TemporaryDirectory(prefix="coven-many-") as tmp:
        if args.database_url:
            args.schema = f"bench_{uuid.uuid4().hex[:10]}"
            asyncio.run(pg_schema(args.database_url, f'CREATE SCHEMA "{args.schema}"'))
        try:
            process, url = servers.start(SERVE, server_env(args, tmp), workers=1)
            try:
                result.update(measure(args, url, process.pid, files))
            finally:
                servers.stop(process)
        finally:
            if args.schema:
                drop = f'DROP SCHEMA IF EXISTS "{args.schema}" CASCADE'
                asyncio.run(pg_schema(args.database_url, drop))
    result["load_average"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # Stopped from outside: the server, the holders and a fresh schema still go (``finally``).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
