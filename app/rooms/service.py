"""RoomService: the room layer as the handlers see it, one per app.

It owns the parts and hands each call to the one that does it:

- ``tables.Tables``: this worker's copies of rooms and matches (load, catch up, release);
- ``seating.Seating``: rooms and seats, bots, the start;
- ``moves.Moves``: ``act``, the one write path of a match;
- ``match_log``: the log, and a finished match's replay record;
- ``notices.Notices``: what a commit here tells the rest of this worker (the bot runner);
- ``room_changes.RoomChanges``: a started room's seats changed: every worker drops its copies.

The hub and the bot runner work with ``tables``, ``moves`` and ``notices`` directly.
"""

from __future__ import annotations

from typing import Any

from app.bus import Bus
from app.clock import Clock, SystemClock
from app.rooms import keys
from app.rooms.match_log import LogPage, match_log
from app.rooms.moves import Ack, Moves
from app.rooms.notices import Notices
from app.rooms.room_changes import RoomChanges
from app.rooms.seating import Seating
from app.rooms.tables import Table, Tables, find_game
from app.store.repository import Repository, RoomRecord


class RoomService:
    def __init__(self, repo: Repository, bus: Bus, clock: Clock | None = None) -> None:
        self.repo = repo
        self.bus = bus
        # What turn clocks count in (app/clock.py): injectable, so tests can let days pass.
        self.clock = clock or SystemClock()
        self.notices = Notices()
        self.tables = Tables(repo)
        self.seating = Seating(repo, bus, self.tables, self.notices, self.clock)
        self.moves = Moves(repo, bus, self.tables, self.notices, self.clock)
        self.changes = RoomChanges(bus, self.tables)

    game = staticmethod(find_game)
    seat_of = staticmethod(keys.seat_of)

    async def room(self, code: str, *, cached: bool = False) -> RoomRecord:
        return await self.tables.room(code, cached=cached)

    async def seat_for(self, code: str, token: str | None) -> tuple[RoomRecord, int | None]:
        return await self.tables.seat_for(code, token)

    async def table(self, code: str) -> Table:
        return await self.tables.table(code)

    async def create_room(
        self,
        *,
        game_id: str,
        visibility: str,
        options: dict[str, Any],
        name: str,
        turn_seconds: float | None,
        seats: int | None,
        rematch_by: str = "host",
        clock_rule: str = "move",
        contribution: str | None = None,
    ) -> tuple[RoomRecord, int, str]:
        return await self.seating.create_room(
            game_id=game_id,
            visibility=visibility,
            options=options,
            name=name,
            turn_seconds=turn_seconds,
            seats=seats,
            rematch_by=rematch_by,
            clock_rule=clock_rule,
            contribution_hex=contribution,
        )

    async def join(
        self, code: str, name: str, contribution: str | None = None
    ) -> tuple[RoomRecord, int, str]:
        return await self.seating.join(code, name, contribution)

    async def contribute(self, code: str, token: str | None, value: str) -> RoomRecord:
        return await self.seating.contribute(code, token, value)

    async def add_bot(
        self, code: str, token: str | None, level: str, seat: int | None, connected: set[int]
    ) -> tuple[RoomRecord, int]:
        return await self.seating.add_bot(code, token, level, seat, connected)

    async def remove_seat(
        self, code: str, token: str | None, seat: int, connected: set[int]
    ) -> RoomRecord:
        return await self.seating.remove_seat(code, token, seat, connected)

    async def leave(self, code: str, token: str | None) -> RoomRecord:
        return await self.seating.leave(code, token)

    async def move_seat(self, code: str, token: str | None, seat: int, to: int) -> RoomRecord:
        return await self.seating.move_seat(code, token, seat, to)

    async def take_back(self, code: str, token: str | None) -> RoomRecord:
        return await self.seating.take_back(code, token)

    async def start(self, code: str, token: str | None) -> Table:
        return await self.seating.start(code, token)

    async def act(
        self, code: str, seat: int | None, action: Any, client_id: str, version: int | None = None
    ) -> Ack:
        """A person's action (bots submit through ``moves.bot_act``)."""
        return await self.moves.act(code, seat, action, client_id, version)

    async def log(
        self, code: str, page: LogPage | None = None, viewer: int | None = None
    ) -> dict[str, Any]:
        return await match_log(self.repo, await self.tables.room(code), page, viewer)
