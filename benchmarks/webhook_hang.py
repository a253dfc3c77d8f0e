"""A chat webhook that never answers must not slow the move path (issue 20, item 5).

Two servers, started side by side with the benchmark's game (``benchmarks.games.serve``):
**hooked**, where every room has a webhook pointing at a receiver on 127.0.0.1 that accepts each
connection, reads the post and never answers (so every post waits out the sender's 5 s time-out,
then is retried with back-off while new ones keep coming), and **plain**, without webhooks.
Each plays the same matches of "hidden picks" (3 seats, 10 rounds: a new turn, and so a post,
every round, and one for the end), every seat played by this script as fast as the server
answers. Blocks of matches alternate between the two servers (order shuffled per block), so
both see the same moments of a busy machine.

Timed: each action's ``POST /api/rooms/{code}/actions``, from the request sent to the answer
read (client side, one keep-alive connection per server). Printed: p50/p99/max per server,
the ratio of the p99s (goal: hooked within 10 % of plain), how many posts the hanging receiver
was sent, and the hooked server's outbox at the end. ``--receiver ok``: a receiver that answers
200 at once instead (what webhooks cost when the chat is well). The receiver runs in a process
of its own (tests/support/webhook_receiver.py), off this client's GIL.

    nice .venv/bin/python benchmarks/webhook_hang.py [--matches 40] [--rooms 2] [--blocks 8]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import servers as fleet  # noqa: E402

GAME = "bench-hidden-picks"
SEATS = 3
SERVE = [sys.executable, "-m", "benchmarks.games.serve"]


def server_env(db: Path) -> dict[str, str]:
    return {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": "0",
        # The receiver is on 127.0.0.1 (the plain server never posts: no webhook is set there).
        "COVEN_WEBHOOK_ALLOW_PRIVATE": "1",
        # The whole load comes from one address: lift the per-client limits.
        "COVEN_ROOMS_BURST": "1000000",
        "COVEN_ROOMS_PER_MINUTE": "1000000",
        "COVEN_SOCKETS_PER_CLIENT": "1000000",
        "COVEN_REFUSED_BURST": "1000000",
        "COVEN_REFUSED_CLIENT_BURST": "1000000",
    }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


class Side:
    """One server and what was measured on it."""

    def __init__(self, name: str, url: str, hook: str | None) -> None:
        self.name = name
        self.url = url
        self.hook = hook  # the webhook every room gets (None: the plain server)
        self.http = httpx.AsyncClient(base_url=url, timeout=60)
        self.latencies: list[float] = []
        self.matches = 0

    async def match(self, rng: random.Random) -> None:
        created = await self.http.post(
            "/api/rooms",
            json={"game": GAME, "name": "P0", "visibility": "private", "options": {}},
        )
        created.raise_for_status()
        code = created.json()["room"]["code"]
        tokens = [created.json()["token"]]
        for n in range(1, SEATS):
            joined = await self.http.post(f"/api/rooms/{code}/join", json={"name": f"P{n}"})
            joined.raise_for_status()
            tokens.append(joined.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        if self.hook is not None:
            put = await self.http.put(
                f"/api/rooms/{code}/webhook",
                json={"url": self.hook, "format": "discord"},
                headers=auth[0],
            )
            put.raise_for_status()
        (await self.http.post(f"/api/rooms/{code}/start", headers=auth[0])).raise_for_status()
        while True:
            moved = False
            for seat in range(SEATS):
                state = (await self.http.get(f"/api/rooms/{code}/state", headers=auth[seat])).json()
                if state["result"] is not None:
                    self.matches += 1
                    return
                if not state["legal"]:
                    continue
                body = {
                    "action": rng.choice(state["legal"]),
                    "client_id": uuid.uuid4().hex,
                    "version": state["version"],
                }
                started = time.perf_counter()
                answer = await self.http.post(
                    f"/api/rooms/{code}/actions", json=body, headers=auth[seat]
                )
                self.latencies.append((time.perf_counter() - started) * 1000)
                answer.raise_for_status()
                moved = True
            if not moved:
                await asyncio.sleep(0.005)

    def figures(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "actions": len(self.latencies),
            "p50_ms": round(percentile(self.latencies, 0.5), 2),
            "p99_ms": round(percentile(self.latencies, 0.99), 2),
            "max_ms": round(max(self.latencies), 2),
        }


def start_receiver(hang: bool) -> tuple[subprocess.Popen[str], str]:
    """tests/support/webhook_receiver.py in a process of its own (its threads off this
    client's GIL, which times the moves); its origin."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.webhook_receiver", *(["--hang"] if hang else [])],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def outbox(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT coalesce(outcome, 'pending'), count(*) FROM notifications GROUP BY 1"
        ).fetchall()
    return {str(k): int(v) for k, v in rows}


async def run(args: argparse.Namespace, sides: list[Side]) -> None:
    rng = random.Random(args.seed)
    per_block = max(1, args.matches // args.blocks)
    for _ in range(args.blocks):
        order = sides[:]
        rng.shuffle(order)
        for side in order:
            left = per_block
            while left > 0:
                batch = min(args.rooms, left)
                await asyncio.gather(*(side.match(rng) for _ in range(batch)))
                left -= batch


def main() -> None:
    gc.disable()  # the client's own collector pauses would count as server latency
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=40, help="per server")
    parser.add_argument("--rooms", type=int, default=2, help="matches played at once")
    parser.add_argument("--blocks", type=int, default=8, help="alternations between servers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--receiver",
        choices=("hang", "ok"),
        default="hang",
        help="hang: never answers (the benchmark); ok: answers 200 at once (what webhooks cost "
        "when the chat is well)",
    )
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="coven-webhook-hang-"))
    hooked_db, plain_db = folder / "hooked.db", folder / "plain.db"
    receiver, origin = start_receiver(args.receiver == "hang")
    processes = []
    try:
        hooked_process, hooked_url = fleet.start(SERVE, server_env(hooked_db), 1)
        processes.append(hooked_process)
        plain_process, plain_url = fleet.start(SERVE, server_env(plain_db), 1)
        processes.append(plain_process)
        hooked = Side("hooked", hooked_url, f"{origin}/api/webhooks/1/secret")
        plain = Side("plain", plain_url, None)
        began = time.monotonic()
        asyncio.run(run(args, [hooked, plain]))
        seconds = time.monotonic() - began
        posts = int(httpx.get(f"{origin}/_count", timeout=10).text)
    finally:
        for process in processes:
            fleet.stop(process)
        receiver.terminate()
        receiver.wait(timeout=10)
    a, b = hooked.figures(), plain.figures()
    ratio = round(a["p99_ms"] / b["p99_ms"], 3) if b["p99_ms"] else None
    report = {
        "benchmark": "webhook_hang",
        "receiver": args.receiver,
        "hooked": a,
        "plain": b,
        "p99_ratio": ratio,
        "p50_ratio": round(a["p50_ms"] / b["p50_ms"], 3) if b["p50_ms"] else None,
        "goal_p99_within_10_percent": ratio is not None and ratio <= 1.10,
        "posts_to_receiver": posts,
        "hooked_outbox": outbox(hooked_db),
        "seconds": round(seconds, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    hooked_name = "hooked (webhook hangs)" if args.receiver == "hang" else "hooked (webhook ok)"
    for name, figures in ((hooked_name, a), ("plain (no webhook)", b)):
        print(
            f"{name:24} actions {figures['actions']:5}  p50 {figures['p50_ms']:7.2f} ms  "
            f"p99 {figures['p99_ms']:7.2f} ms  max {figures['max_ms']:7.2f} ms",
            file=sys.stderr,
        )
    print(f"p99 hooked / plain: {ratio}", file=sys.stderr)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
