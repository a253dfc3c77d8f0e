"""Soak: many finished bot matches on one worker; its memory must stay flat.

    python benchmarks/soak.py                       # 2,000 matches of the test game, SQLite
    python benchmarks/soak.py --matches 500 --game whirling-witchcraft --players 2

Each match is a room whose host adds bots, starts, and hands their own seat to a bot, so
bots play it to the end with no socket open. The server's resident memory is read after
the first ``--baseline`` matches have finished and again after the last one; the run passes
when the end is within ``--tolerance`` (10 %) of the baseline: rooms and matches are
released when they end (issue 11).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import servers as fleet  # noqa: E402
from benchmarks.servers import free_port  # noqa: E402


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": "0",
        "COVEN_SWEEP_SECONDS": "1",
        "COVEN_ROOMS_BURST": "0",  # one address creates every room here
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.serve", str(port)], cwd=ROOT, env=env
    )
    fleet.wait_ready(process, f"http://127.0.0.1:{port}", seconds=30)
    return process


async def one_match(
    http: httpx.AsyncClient, game: str, players: int, options: dict[str, object]
) -> None:
    created = await http.post(
        "/api/rooms",
        json={"game": game, "name": "Soak", "visibility": "private", "options": options},
    )
    created.raise_for_status()
    code = created.json()["room"]["code"]
    auth = {"Authorization": f"Bearer {created.json()['token']}"}
    for _ in range(players - 1):
        (
            await http.post(f"/api/rooms/{code}/bots", json={"level": "random"}, headers=auth)
        ).raise_for_status()
    (await http.post(f"/api/rooms/{code}/start", headers=auth)).raise_for_status()
    handed = await http.post(
        f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0}, headers=auth
    )
    handed.raise_for_status()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        room = (await http.get(f"/api/rooms/{code}")).json()
        if room["status"] == "finished":
            return
        await asyncio.sleep(0.05)
    raise RuntimeError(f"match {code} did not finish")


async def soak(args: argparse.Namespace, port: int, pid: int) -> dict[str, object]:
    options = json.loads(args.options)
    done = 0
    baseline = 0
    samples: list[tuple[int, int]] = []
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(args.matches):
        queue.put_nowait(i)
    started = time.monotonic()

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:

        async def worker() -> None:
            nonlocal done, baseline
            while not queue.empty():
                queue.get_nowait()
                await one_match(http, args.game, args.players, options)
                done += 1
                if done == args.baseline:
                    await asyncio.sleep(1.0)  # let the bot runner's tasks end
                    baseline = rss_kib(pid)
                if done % max(1, args.matches // 10) == 0:
                    samples.append((done, rss_kib(pid)))
                    print(f"{done} matches, RSS {samples[-1][1] / 1024:.1f} MiB", flush=True)

        await asyncio.gather(*(worker() for _ in range(args.concurrency)))
    await asyncio.sleep(2.0)
    end = rss_kib(pid)
    growth = (end - baseline) / baseline
    return {
        "matches": args.matches,
        "game": args.game,
        "seconds": round(time.monotonic() - started, 1),
        "rss_after_baseline_mib": round(baseline / 1024, 1),
        "rss_at_end_mib": round(end / 1024, 1),
        "growth_percent": round(100 * growth, 1),
        "samples_mib": [(n, round(k / 1024, 1)) for n, k in samples],
        "pass": growth <= args.tolerance,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--baseline", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--game", default="test-guess")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", default='{"rounds": 1}')
    parser.add_argument("--tolerance", type=float, default=0.10)
    args = parser.parse_args()
    if args.game != "test-guess" and args.options == '{"rounds": 1}':
        args.options = "{}"
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        process = start_server(port, Path(tmp) / "soak.db")
        try:
            result = asyncio.run(soak(args, port, process.pid))
        finally:
            process.terminate()
            process.wait(timeout=15)
    print(json.dumps(result))
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
