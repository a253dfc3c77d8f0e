"""Moves in flight: a room takes its next move while its last one's commit is still out.

On PostgreSQL a move's commit is a round trip, and the room's lock used to be held through it,
so the picks of one round went to the database one after another. Now the lock is held only
while the move is applied and its commit queued (``Repository.send_action``): the next move of
the room is applied to the table *after* the one in flight and queued behind it, and the group
commit sends the two together or the second once the first landed
(``app/store/group_commit.py``). Each is acknowledged only once it is durable, and a move whose
predecessor did not land never lands (it goes the careful way, ``Moves``' retry loop).

A room's last flight is what its next move starts from; the copy the worker shows
(``Tables.cached``) stays the last *committed* version, so no viewer sees a move before it is
durable.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.store.group_commit import landed

T = TypeVar("T")

Sent = asyncio.Future[bool | None]  # a queued commit's answer: ``None`` if it did not land


@dataclass(slots=True, eq=False)
class Flight(Generic[T]):
    table: T  # the room's table after the move
    sent: Sent


class Flights(Generic[T]):
    """The last move in flight of each room (the ones before it are in its chain)."""

    def __init__(self) -> None:
        self._last: dict[str, Flight[T]] = {}

    def last(self, code: str) -> Flight[T] | None:
        return self._last.get(code)

    def add(self, code: str, flight: Flight[T]) -> None:
        self._last[code] = flight

    def done(self, code: str, flight: Flight[T]) -> None:
        """``flight`` answered and its mover took it in: it is no longer what the room's next
        move starts from (unless a later one is)."""
        if self._last.get(code) is flight:
            del self._last[code]

    async def settled(self, code: str) -> Flight[T] | None:
        """Wait until the room's moves in flight have answered (the last one answers after
        every one before it); the last one if it landed and its mover has not taken it in."""
        flight = self._last.get(code)
        if flight is None:
            return None
        await asyncio.wait([flight.sent])
        if self._last.get(code) is not flight:
            return None
        del self._last[code]
        return flight if landed(flight.sent) else None

    def __len__(self) -> int:
        return len(self._last)
