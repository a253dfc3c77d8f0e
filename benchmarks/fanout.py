"""Fan-out latency to 4 players, with 0 and with 20 silent spectators in the room.

    python benchmarks/fanout.py                  # starts a server on a temp SQLite file
    python benchmarks/fanout.py --rounds 8 --silent 20

A silent spectator completes its WebSocket handshake and never reads again (a 4 KiB receive
buffer). Before each measured match the room is flooded with big chat lines (several MB per
socket), so every silent socket's kernel buffers are full: from then on a server that waited
for them would stall every push. Then 4 players play a 100-move match of the test game; each
move's latency is "submitted → all 4 players hold the new version". A room with 0 and a room
with ``--silent`` spectators play at the same time on the same server, their moves
interleaved one by one, so the machine's noise falls on both alike. Prints p50/p99 of both and
passes when the p99s are within ``--tolerance`` (20 %) of each other (issue 11).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(ROOT))  # tests.support.client (httpx + websockets only)

from benchmarks import servers as fleet  # noqa: E402
from benchmarks.servers import free_port  # noqa: E402
from tests.support.client import Client, open_room  # noqa: E402

LINE = 15_000


def silent_socket(port: int, path: str) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    return sock


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": "0",
        "COVEN_ROOMS_BURST": "0",
        "COVEN_SOCKETS_PER_CLIENT": "0",
        "COVEN_CHAT_MAX_CHARS": str(LINE),
        "COVEN_CHAT_BURST": "1000000",
        "COVEN_CHAT_CLIENT_BURST": "1000000",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.serve", str(port)], cwd=ROOT, env=env
    )
    fleet.wait_ready(process, f"http://127.0.0.1:{port}", seconds=30)
    return process


class Table:
    """One room of 4 players (and ``silent`` silent spectators) playing the test game."""

    def __init__(self, url: str, port: int, silent: int) -> None:
        self.url, self.port, self.silent = url, port, silent
        self.players: list[Client] = []
        self.quiet: list[socket.socket] = []
        self.version = 0
        self.lags: list[float] = []

    async def open(self, flood: int) -> None:
        code, self.players = await open_room(
            self.url, "test-guess", ["A", "B", "C", "D"], options={"rounds": 20}
        )
        for client in self.players:
            await client.connect(code)
        self.quiet = [silent_socket(self.port, f"/ws/rooms/{code}") for _ in range(self.silent)]
        # Fill every silent socket's buffers (the players read every line).
        first, last = self.players[0], self.players[-1]
        for i in range(flood):
            await first.send({"type": "chat", "text": f"{i:05d}" + "x" * (LINE - 10)})
        await last.until(
            lambda: sum(m["type"] == "chat" for m in last.messages) >= flood, timeout=300
        )
        assert (await first.http.post(f"/api/rooms/{code}/start")).status_code == 200
        for p in self.players:
            await p.at_version(0)

    @property
    def over(self) -> bool:
        state = self.players[0].state
        return state is None or state["result"] is not None

    async def move(self) -> None:
        mover = next(p for p in self.players if p.state and p.state["legal"])
        assert mover.state is not None
        sent = time.perf_counter()
        reply = await mover.act(mover.state["legal"][0], version=self.version)
        assert reply["type"] == "ack", reply
        self.version = reply["version"]
        for p in self.players:
            await p.at_version(self.version)
        self.lags.append(time.perf_counter() - sent)

    def silent_dropped(self) -> int:
        dropped = 0
        for sock in self.quiet:
            sock.settimeout(0.05)
            try:
                while sock.recv(1 << 20):
                    pass
                dropped += 1
            except TimeoutError:
                pass
            except ConnectionError:
                dropped += 1
        return dropped

    async def close(self) -> None:
        for sock in self.quiet:
            sock.close()
        for client in self.players:
            await client.close()


async def one_round(
    url: str, port: int, silent: int, flood: int
) -> tuple[list[float], list[float], int]:
    """Both tables at once, their moves interleaved (so the machine's noise falls on both)."""
    quiet, loud = Table(url, port, 0), Table(url, port, silent)
    try:
        await quiet.open(flood)
        await loud.open(flood)
        while not (quiet.over and loud.over):
            for table in (quiet, loud):
                if not table.over:
                    await table.move()
        dropped = await asyncio.to_thread(loud.silent_dropped)
        return quiet.lags, loud.lags, dropped
    finally:
        await quiet.close()
        await loud.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, port: int) -> dict[str, object]:
    url = f"http://127.0.0.1:{port}"
    lags: dict[int, list[float]] = {0: [], args.silent: []}
    dropped = 0
    await one_round(url, port, 0, 10)  # warm-up
    for _ in range(args.rounds):
        zero, some, gone = await one_round(url, port, args.silent, args.flood)
        lags[0] += zero
        lags[args.silent] += some
        dropped += gone
    p99 = {k: percentile(v, 0.99) * 1000 for k, v in lags.items()}
    ratio = p99[args.silent] / p99[0]
    return {
        "moves_each": len(lags[0]),
        "p50_ms": {k: round(statistics.median(v) * 1000, 2) for k, v in lags.items()},
        "p99_ms": {k: round(v, 2) for k, v in p99.items()},
        "max_ms": {k: round(max(v) * 1000, 2) for k, v in lags.items()},
        "p99_ratio": round(ratio, 3),
        "silent_sockets_cut_by_the_server": f"{dropped} of {args.silent * args.rounds}",
        "pass": abs(ratio - 1) <= args.tolerance,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="matches per scenario")
    parser.add_argument("--silent", type=int, default=20)
    parser.add_argument("--flood", type=int, default=300, help="15 KB chat lines before a match")
    parser.add_argument("--tolerance", type=float, default=0.20)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        process = start_server(port, Path(tmp) / "fanout.db")
        try:
            result = asyncio.run(run(args, port))
        finally:
            process.terminate()
            process.wait(timeout=15)
    print(json.dumps(result))
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
