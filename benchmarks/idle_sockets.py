"""Idle sockets and a crowd of spectators, on one worker (issue 12).

    python benchmarks/idle_sockets.py                    # 2,000 of each, SQLite, one worker
    python benchmarks/idle_sockets.py --sockets 2000 --spectators 2000

1. Memory: ``--sockets`` idle spectator sockets spread over rooms of 50 (rooms of the
   benchmark game, matches started); the server's resident memory before (after 50 warm-up
   sockets) and after, divided by the sockets: KiB per idle socket.
2. Spectators: a fresh room with a started match and one seated player; ``--spectators``
   sockets open at once (``--concurrency`` handshakes in flight). Prints the seconds until
   every spectator holds the match's state, and until the seated player's presence counts
   them all (every join is announced to the room).
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks.games.hidden_picks import GAME_ID  # noqa: E402
from benchmarks.hidden_picks import server_env  # noqa: E402
from benchmarks.load import rss_kib  # noqa: E402
from benchmarks.servers import start, stop  # noqa: E402

Ws = websockets.ClientConnection


async def started_room(http: httpx.AsyncClient, players: int = 3) -> tuple[str, list[str]]:
    created = (
        await http.post(
            "/api/rooms",
            json={"game": GAME_ID, "name": "H", "visibility": "private", "seats": players},
        )
    ).json()
    code, tokens = created["room"]["code"], [created["token"]]
    for p in range(1, players):
        tokens.append(
            (await http.post(f"/api/rooms/{code}/join", json={"name": f"P{p}"})).json()["token"]
        )
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    (await http.post(f"/api/rooms/{code}/start", headers=headers)).raise_for_status()
    return code, tokens


DRAINS: set[asyncio.Task[None]] = set()


async def drain(ws: Ws) -> None:
    """A spectator reads what it is sent (presence of every later join): a socket that stops
    reading is dropped by the server once its queue is full, as it should be."""
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass


async def spectator(url: str, code: str) -> Ws:
    ws = await websockets.connect(
        f"{url}/ws/rooms/{code}", max_size=None, compression=None, open_timeout=120
    )
    while True:  # until the state (the chat history and presence may come first)
        if orjson.loads(await ws.recv())["type"] == "state":
            task = asyncio.create_task(drain(ws))
            DRAINS.add(task)
            task.add_done_callback(DRAINS.discard)
            return ws


async def memory(url: str, pids: list[int], sockets: int) -> dict[str, Any]:
    ws_base = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        codes = [(await started_room(http))[0] for _ in range(max(1, sockets // 50))]
    warm = [await spectator(ws_base, codes[i % len(codes)]) for i in range(50)]
    await asyncio.sleep(2)
    before = rss_kib(pids)
    opened = [await spectator(ws_base, codes[i % len(codes)]) for i in range(sockets)]
    await asyncio.sleep(3)
    after = rss_kib(pids)
    await asyncio.gather(*(ws.close() for ws in opened + warm), return_exceptions=True)
    return {
        "idle_sockets": sockets,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_idle_socket": round((after - before) / sockets, 1),
    }


async def crowd(url: str, spectators: int, concurrency: int, limit: float) -> dict[str, Any]:
    ws_base = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        code, tokens = await started_room(http)
    player = await websockets.connect(
        f"{ws_base}/ws/rooms/{code}?token={tokens[0]}", max_size=None, compression=None
    )
    counted = asyncio.Event()
    presence_messages = 0

    async def watch() -> None:
        nonlocal presence_messages
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in player:
                message = orjson.loads(raw)
                if message["type"] == "presence":
                    presence_messages += 1
                    if message["spectators"] >= spectators:
                        counted.set()

    watcher = asyncio.create_task(watch())
    gate = asyncio.Semaphore(concurrency)

    crowd_sockets: list[Ws] = []
    joined_at: list[float] = []
    failed: dict[str, int] = {}

    async def one() -> None:
        async with gate:
            try:
                crowd_sockets.append(await spectator(ws_base, code))
                joined_at.append(time.perf_counter() - t0)
            except Exception as exc:
                failed[type(exc).__name__] = failed.get(type(exc).__name__, 0) + 1

    t0 = time.perf_counter()
    joining = [asyncio.create_task(one()) for _ in range(spectators)]
    _, late = await asyncio.wait(joining, timeout=limit)
    all_state = time.perf_counter() - t0 if not late and not failed else None
    all_counted: float | None = None
    if all_state is not None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(counted.wait(), max(1.0, limit - all_state))
            all_counted = time.perf_counter() - t0
    for task in late:
        task.cancel()
    watcher.cancel()
    await asyncio.gather(*(ws.close() for ws in crowd_sockets), return_exceptions=True)
    await player.close()
    return {
        "spectators": spectators,
        "spectators_joined_in_limit": len(crowd_sockets),
        "spectators_joined_within_5s": sum(1 for t in joined_at if t <= 5.0),
        "spectators_failed": failed,
        "spectators_limit_s": limit,
        "spectators_all_hold_state_s": round(all_state, 2) if all_state is not None else None,
        "spectators_all_counted_s": round(all_counted, 2) if all_counted is not None else None,
        "presence_messages_to_one_player": presence_messages,
    }


def main() -> int:
    gc.disable()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--limit", type=float, default=120, help="seconds the crowd may take")
    args = parser.parse_args()
    args.workers, args.database_url, args.redis_url, args.schema = 1, None, None, None
    result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    with tempfile.TemporaryDirectory(prefix="coven-idle-") as tmp:
        command = [sys.executable, "-m", "benchmarks.games.serve"]
        process, url = start(command, server_env(args, tmp), workers=1)
        try:
            if args.sockets:
                result.update(asyncio.run(memory(url, [process.pid], args.sockets)))
                print(json.dumps(result), file=sys.stderr, flush=True)
            if args.spectators:
                result.update(
                    asyncio.run(crowd(url, args.spectators, args.concurrency, args.limit))
                )
        finally:
            stop(process)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
