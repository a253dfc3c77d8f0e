"""Drive a whole match over real sockets, checking every view for leaks on the way."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from engine.protocol import TO
from tests.support.client import Client

Path = tuple[Any, ...]


def differing_paths(a: Any, b: Any, path: Path = ()) -> Iterator[Path]:
    """The top-most paths where two same-shaped views differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"views differ in shape at {path}: {a.keys() ^ b.keys()}"
        for key in a:
            yield from differing_paths(a[key], b[key], (*path, key))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from differing_paths(x, y, (*path, i))
    elif a != b:
        yield path


def at(view: Any, path: Path) -> Any:
    for key in path:
        view = view[key]
    return view


def assert_no_leak(views: dict[int, dict[str, Any]], spectator: dict[str, Any]) -> None:
    """What seat s sees beyond the spectator must look to every other seat like it looks to
    the spectator (DESIGN.md, "Views are the security boundary")."""
    for seat, view in views.items():
        for path in differing_paths(view, spectator):
            for other, other_view in views.items():
                if other != seat:
                    assert at(other_view, path) == at(spectator, path), (
                        f"seat {other} sees seat {seat}'s secret at {path}"
                    )


def assert_events_addressed(clients: list[Client], spectator: Client) -> None:
    for client in clients:
        for message in client.messages:
            if message.get("type") == "state":
                for event in message["events"]:
                    assert client.seat in event.get(TO, [client.seat]), event
    for message in spectator.messages:
        if message.get("type") == "state":
            assert all(TO not in e for e in message["events"])


async def play_to_end(
    players: list[Client],
    spectator: Client,
    rng: random.Random,
    *,
    max_steps: int = 3000,
    check_leaks: bool = True,
) -> dict[str, Any]:
    """Everyone who owes a decision picks a random legal action and all submit at once,
    against the version they saw; a simultaneous step must accept them all."""
    for _ in range(max_steps):
        # Each client waits for its own version (a private step moves its seat's alone).
        state = await spectator.synced()
        for p in players:
            await p.synced()
        if check_leaks:
            assert_no_leak({p.seat: p.state["view"] for p in players if p.state}, state["view"])  # type: ignore[misc]
        if state["result"] is not None:
            assert_events_addressed(players, spectator)
            return state
        owing = [p for p in players if p.state and p.state["legal"]]
        assert sorted(p.seat for p in owing) == state["to_move"]
        choices = [(p, p.random_legal(rng)) for p in owing]
        # Submit every owed decision at the same moment, each against the version it saw.
        results = await asyncio.gather(
            *(p.act(a, version=p.state["version"]) for p, a in choices if a and p.state)
        )
        for result in results:
            assert result["type"] == "ack", result
    raise AssertionError("the match did not end")


@asynccontextmanager
async def at_table(code: str, clients: Sequence[Client]) -> AsyncIterator[None]:
    """``clients`` connected to room ``code`` for the block, each closed after it (also when
    the block fails)."""
    try:
        for client in clients:
            await client.connect(code)
        yield
    finally:
        for client in clients:
            await client.close()


async def start(host: Client, code: str) -> dict[str, Any]:
    """The host starts room ``code``: the room as the answer shows it."""
    started = await host.http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text
    result: dict[str, Any] = started.json()
    return result


async def played(
    code: str, players: list[Client], spectator: Client, rng: random.Random
) -> dict[str, Any]:
    """A whole match of room ``code``: everyone connects, the first player starts it, all play
    it to the end (``play_to_end``), all close. The last state the spectator saw."""
    async with at_table(code, [*players, spectator]):
        await start(players[0], code)
        return await play_to_end(players, spectator, rng)
