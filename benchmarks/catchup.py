"""Catch-up per match: how often a table's clients see a gap in ``version``, why, and how many
``GET …/log`` requests the room page makes for them (issue 24, item 3).

    python benchmarks/catchup.py                      # 3 Witch's Brew matches, SQLite
    python benchmarks/catchup.py --matches 4 --tables 4 --postgres --redis

Starts ``coven serve`` and plays whole Witch's Brew matches: two seated people (socket clients
playing a random legal action as soon as they owe one), two ``random`` bots, and two spectators,
one there from the start and one arriving half-way. Every client follows ``static/js/client.js``
to the letter: a ``state`` of an older or equal version is dropped; one more than a version
ahead is a gap; a ``presence`` naming a newer version than its own, or an ``ack`` whose state
has not come 1.5 s later, re-syncs over HTTP (``GET …/state``). For each gap it records where
it came from (a catch-up push that carried every missed event, ``since``; a push without it;
an HTTP re-sync) and counts the log requests of two versions of the room page:

- ``before``: the page as it was: the whole log when it arrives (``?since=0``) and a request
  at every gap;
- ``after``: ``static/js/room.js`` now: nothing when it arrives (the log reads history when
  asked), nothing for a gap a catch-up push covered, one ``?since=`` request otherwise.

The ``after`` requests are made for real and checked (each returns the events of the missed
versions). Prints one JSON line per match and one with the totals.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before benchmarks/ itself: engine is the package, not engine.py

from benchmarks import servers as fleet  # noqa: E402
from benchmarks.hidden_picks import pg_schema  # noqa: E402

GAME = "witchs-brew"
PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"
ACK_WAIT = 1.5  # client.js: a committed move whose state has not come re-syncs after this


@dataclass
class Watcher:
    """One tab's socket, as client.js handles it; ``seat`` None: a spectator."""

    url: str
    code: str
    name: str
    token: str | None = None
    seat: int | None = None
    version: int | None = None
    state: dict[str, Any] | None = None
    gaps: Counter[str] = field(default_factory=Counter)
    resyncs: Counter[str] = field(default_factory=Counter)
    log_before: int = 0  # requests of the page as it was
    log_after: int = 0  # requests of the page now (made)
    checked: int = 0  # of those, answers holding every missed version
    acted: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    http: httpx.AsyncClient | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def resync(self, why: str) -> None:
        assert self.http is not None
        self.resyncs[why] += 1
        answer = await self.http.get(f"/api/rooms/{self.code}/state")
        if answer.status_code == 200:
            self.apply(answer.json(), "http")

    def apply(self, message: dict[str, Any], way: str) -> None:
        previous = self.version
        version = int(message["version"])
        if previous is not None and version <= previous:
            return
        self.version = version
        self.state = message
        if previous is None:
            if version > 0:
                self.log_before += 1  # the old page read the whole log on arrival
        elif version > previous + 1:
            since = message.get("since")
            covered = way == "socket" and isinstance(since, int) and since <= previous
            self.gaps["push with since" if covered else f"{way} without since"] += 1
            self.log_before += 1
            if not covered:
                self.later(self.fill(previous, version))
        self.changed.set()

    async def fill(self, seen: int, upto: int) -> None:
        assert self.http is not None
        self.log_after += 1
        read = (await self.http.get(f"/api/rooms/{self.code}/log", params={"since": seen})).json()
        versions = {e["version"] for e in read["events"]}
        if all(v > seen for v in versions) and read["version"] >= upto - 1:
            self.checked += 1

    async def run(self, done: asyncio.Event, rng: random.Random) -> None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        self.http = httpx.AsyncClient(base_url=self.url, headers=headers, timeout=30)
        query = f"?token={self.token}" if self.token else ""
        ws_url = self.url.replace("http://", "ws://") + f"/ws/rooms/{self.code}{query}"
        async with websockets.connect(ws_url, max_size=None) as socket:
            self.connected.set()
            if self.seat is not None:
                self.later(self.play(socket, done, rng))
            while not done.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), 1.0)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    self.apply(message, "socket")
                elif kind == "presence":
                    newer = message.get("version")
                    if isinstance(newer, int) and self.version is not None and newer > self.version:
                        self.later(self.resync("presence"))
                elif kind == "ack":
                    self.later(self.after_ack(int(message["version"])))
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.http.aclose()

    async def final(self) -> int:
        """The version this client's state ends at, read over HTTP."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        async with httpx.AsyncClient(base_url=self.url, headers=headers, timeout=30) as http:
            version: int = (await http.get(f"/api/rooms/{self.code}/state")).json()["version"]
        return version

    async def after_ack(self, version: int) -> None:
        await asyncio.sleep(ACK_WAIT)
        if self.version is not None and self.version < version:
            await self.resync("ack")

    async def play(self, socket: Any, done: asyncio.Event, rng: random.Random) -> None:
        """A person who answers at once: a random legal action at each version she owes."""
        played = -1
        while not done.is_set():
            await self.changed.wait()
            self.changed.clear()
            state = self.state
            if state is None or state["version"] == played or not state["legal"]:
                continue
            played = state["version"]
            action = rng.choice(state["legal"])
            await asyncio.sleep(rng.uniform(0.0, 0.05))  # a person's hand, roughly
            await socket.send(
                json.dumps(
                    {
                        "type": "act",
                        "action": action,
                        "client_id": f"{self.name}-{played}-{rng.random()}",
                        "version": played,
                    }
                )
            )
            self.acted += 1


async def one_match(url: str, rng: random.Random, timeout: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = (
            await http.post(
                "/api/rooms", json={"game": GAME, "name": "Ada", "visibility": "private"}
            )
        ).json()
        code = created["room"]["code"]
        host = {"Authorization": f"Bearer {created['token']}"}
        joined = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bea"})).json()
        for _ in range(2):
            await http.post(f"/api/rooms/{code}/bots", json={"level": "random"}, headers=host)
        people = [
            Watcher(url, code, "Ada", created["token"], created["seat"]),
            Watcher(url, code, "Bea", joined["token"], joined["seat"]),
        ]
        early = Watcher(url, code, "early spectator")
        late = Watcher(url, code, "late spectator")
        done = asyncio.Event()
        running = [asyncio.create_task(w.run(done, rng)) for w in (*people, early)]
        for w in (*people, early):
            await asyncio.wait_for(w.connected.wait(), 30)  # every socket in before the start
        started_at = time.monotonic()
        answer = await http.post(f"/api/rooms/{code}/start", headers=host)
        assert answer.status_code == 200, answer.text
        last = 0
        while True:
            log = (await http.get(f"/api/rooms/{code}/log", params={"limit": 1})).json()
            last = log["version"]
            if len(running) == 3 and last >= 40 and not log["finished"]:
                running.append(asyncio.create_task(late.run(done, rng)))
            if log["finished"]:
                break
            if time.monotonic() - started_at > timeout:
                raise SystemExit(f"the match in {code} did not end in {timeout} s (at {last})")
            await asyncio.sleep(0.25)
        seconds = time.monotonic() - started_at
        watchers = [*people, early, late]
        # Each at its own last version (a seat's numbering counts its own private steps).
        finals = [await w.final() for w in watchers]
        deadline = time.monotonic() + 20
        while any(w.version != v for w, v in zip(watchers, finals, strict=True)):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(ACK_WAIT + 0.5)  # the last re-syncs and log requests land
        done.set()
        await asyncio.gather(*running)
    gaps: Counter[str] = Counter()
    resyncs: Counter[str] = Counter()
    for w in watchers:
        gaps.update(w.gaps)
        resyncs.update(w.resyncs)
    return {
        "room": code,
        "versions": last,
        "seconds": round(seconds, 1),
        "clients": len(watchers),
        "person_moves": sum(w.acted for w in people),
        "gaps": dict(gaps),
        "resyncs": dict(resyncs),
        "log_requests_before": sum(w.log_before for w in watchers),
        "log_requests_after": sum(w.log_after for w in watchers),
        "after_answers_complete": sum(w.checked for w in watchers),
        "all_at_the_end": all(w.version == v for w, v in zip(watchers, finals, strict=True)),
    }


def schema_name() -> str:
    return f"catchup_{os.getpid()}"


def server_env(args: argparse.Namespace, db: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": PG_URL if args.postgres else f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": str(args.bot_delay),
        "COVEN_BOT_BUDGET_MS": str(args.bot_budget_ms),
        "COVEN_DRAIN_SECONDS": "0",
        "COVEN_ROOMS_BURST": "0",
    }
    if args.postgres:
        env["COVEN_DATABASE_SCHEMA"] = schema_name()
    if args.redis:
        env["COVEN_REDIS_URL"] = REDIS_URL
    return env


async def main_async(args: argparse.Namespace, url: str) -> None:
    rng = random.Random(args.seed)
    totals: Counter[str] = Counter()
    played = 0
    while played < args.matches:
        at_once = min(args.tables, args.matches - played)
        rounds = await asyncio.gather(
            *(one_match(url, random.Random(rng.random()), args.timeout) for _ in range(at_once))
        )
        played += at_once
        for figures in rounds:
            print(json.dumps(figures), flush=True)
            add_up(totals, figures)
    per_match = {k: round(v / args.matches, 1) for k, v in sorted(totals.items())}
    print(json.dumps({"matches": args.matches, "per_match": per_match}), flush=True)


def add_up(totals: Counter[str], figures: dict[str, Any]) -> None:
    for key in ("versions", "log_requests_before", "log_requests_after", "clients"):
        totals[key] += figures[key]
    for why, n in figures["gaps"].items():
        totals[f"gaps: {why}"] += n
    for why, n in figures["resyncs"].items():
        totals[f"resyncs: {why}"] += n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--tables", type=int, default=1, help="matches played at the same time")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--bot-budget-ms", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--postgres", action="store_true", help=f"on {PG_URL} (a fresh schema)")
    parser.add_argument("--redis", action="store_true", help=f"the bus on {REDIS_URL}")
    args = parser.parse_args()
    if args.postgres:
        asyncio.run(pg_schema(PG_URL, f'CREATE SCHEMA "{schema_name()}"'))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = server_env(args, Path(tmp) / "catchup.db")
            process, url = fleet.start([sys.executable, "-m", "app.cli", "serve"], env, 1)
            try:
                asyncio.run(main_async(args, url))
            finally:
                fleet.stop(process)
    finally:
        if args.postgres:
            asyncio.run(pg_schema(PG_URL, f'DROP SCHEMA IF EXISTS "{schema_name()}" CASCADE'))


if __name__ == "__main__":
    main()
