"""One-click rematch: "Play again" on a finished table opens a new room for the same people and
brings them there, with no link to share.

- **Who may press it**: the host (seat 0), whose choice then applies, or any seated player if
  the room's ``rematch_by`` is "anyone" (the host's standing choice stored on the room applies).
- **The new room** copies the game, options, visibility, name, turn clock, seat count, circle
  and rematch rules. Each old seat is copied — kept in its place or moved one on — with its
  name, profile and the *same token hash*, so her browser's old token holds the new seat too and
  no secret travels anywhere. A bot stays a bot of the same level. The finished room's row is
  the rematch's primary key: a second press (or two at once) gets the same new room.
- **Coming over**: the press is announced on the old room's channel (``{"type": "rematch",
  "code"}``, public); each page then ``arrive``s with its token (seated players) and opens the
  new room. The match starts by itself once every person the rematch invited has arrived.
- **The deadline** (``COVEN_REMATCH_SECONDS`` after the press, kept in the database): who has
  not come is replaced by a bot or left out, as the host chose, and the match starts. A sweep
  in every worker enforces it, so it survives restarts; the start itself happens once
  (``already_started`` for the others).

The finished match, its replay and its history stay as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Sequence

from app.bus import Bus
from app.errors import CovenError
from app.rooms.keys import hash_token, new_room_code, room_channel, seat_of
from app.rooms.seating import check_host, contribution
from app.rooms.service import RoomService
from app.rooms.tables import find_game
from app.settings import Settings
from app.store.rematches import Rematch, RematchRules, RematchStore, SeatCopy
from app.store.repository import RoomRecord

log = logging.getLogger(__name__)

# The level of a bot that takes the seat of a player who did not come in time.
STAND_IN_LEVEL = "greedy"


def arrange(seats: Sequence[SeatCopy], *, rotate: bool) -> list[SeatCopy]:
    """The new room's seats. Kept: each in its place. Rotated: everyone moves one seat on (the
    last seat becomes the first), so somebody else begins; seat 0 also holds the host's tools,
    so the rotation never hands it to a bot — it goes on round to the next person. Bots are
    named after their new seat, as the room names them ("Bot n")."""
    ordered = sorted(seats, key=lambda s: s.seat)
    count = len(ordered)
    shift = 0
    if rotate and count > 1:
        # Moved on by k, the seat landing on 0 is the old seat count - k.
        shift = next((k for k in range(1, count + 1) if ordered[-k].bot_level is None), 0)
    moved = [
        dataclasses.replace(
            s,
            seat=(index + shift) % count,
            name=f"Bot {(index + shift) % count + 1}" if s.bot_level is not None else s.name,
        )
        for index, s in enumerate(ordered)
    ]
    return sorted(moved, key=lambda s: s.seat)


def _unauthorized() -> CovenError:
    return CovenError("unauthorized", "this needs your seat's bearer token", 401)


class Rematches:
    def __init__(self, service: RoomService, store: RematchStore, settings: Settings) -> None:
        self.service = service
        self.tables = service.tables
        self.bus: Bus = service.bus
        self.store = store
        self.wait_seconds = settings.rematch_seconds
        self.sweep_seconds = settings.sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="rematch-sweep")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper

    # -- what a page reads -----------------------------------------------------------------------

    async def look(self, code: str) -> tuple[RematchRules, Rematch | None, Rematch | None]:
        """The room's rematch rules, its rematch once "Play again" was pressed, and the rematch
        that opened it while that one still waits for its players."""
        room = await self.tables.room(code)
        waiting = await self.store.into(room.id) if room.status == "open" else None
        if waiting is not None and waiting.started:
            waiting = None
        return await self.store.rules(room.id), await self.new_room(room), waiting

    async def new_room(self, room: RoomRecord) -> Rematch | None:
        if room.status != "finished":
            return None  # only a finished room has a rematch: no look-up for the others
        return await self.store.of_room(room.id)

    # -- the host's rules -------------------------------------------------------------------------

    async def change_rules(
        self, code: str, token: str | None, *, by: str | None, seats: str | None, absent: str | None
    ) -> RematchRules:
        """The host changes who may press "Play again" and her standing choice for it."""
        room = await self.tables.room(code)
        check_host(seat_of(room, token))
        current = await self.store.rules(room.id)
        rules = RematchRules(by or current.by, seats or current.seats, absent or current.absent)
        if rules != current:
            await self.store.set_rules(room.id, rules)
            self.tables.room_changed(code)
            await self.bus.publish(
                room_channel(code),
                {
                    "type": "rematch_rules",
                    "rematch_by": rules.by,
                    "seats": rules.seats,
                    "absent": rules.absent,
                },
            )
        return rules

    # -- "Play again" -----------------------------------------------------------------------------

    async def press(
        self, code: str, token: str | None, *, seats: str | None, absent: str | None
    ) -> Rematch:
        """Open the rematch of finished room ``code`` (or find the one already opened)."""
        room = await self.tables.room(code)
        seat = seat_of(room, token)
        if seat is None:
            raise _unauthorized()
        opened = await self.new_room(room)
        if opened is not None:
            return opened
        if room.status != "finished":
            raise CovenError("not_finished", "a rematch opens once the match is over", 409)
        rules = await self.store.rules(room.id)
        if seat == 0:
            rules = dataclasses.replace(
                rules, seats=seats or rules.seats, absent=absent or rules.absent
            )
        elif rules.by != "anyone":
            raise CovenError("not_host", "only the host may start a rematch at this table")
        now = time.time()
        opened = await self.store.open(
            room,
            code=self.store.code_beside(room.id, new_room_code),
            rules=rules,
            seats=arrange(await self.store.seats(room.id), rotate=rules.seats == "rotate"),
            now=now,
            deadline=now + self.wait_seconds,
        )
        if opened is None:
            # Somebody pressed at the same moment and opened it first: theirs is the rematch.
            opened = await self.store.of_room(room.id)
            if opened is None:
                raise CovenError("busy", "the rematch could not be opened; try again")
            return opened
        await self.bus.publish(room_channel(code), {"type": "rematch", "code": opened.new_code})
        return opened

    async def arrive(self, code: str, token: str | None, part: str | None = None) -> int:
        """A player of the finished table comes to its rematch ``code``: her seat there. The
        last person to come starts the match. ``part``: her browser's part of the new room's
        shuffle (docs/FAIRNESS.md), set before her arrival can start the match."""
        room = await self.tables.room(code)
        seat = seat_of(room, token)
        if seat is None:
            raise _unauthorized()
        assert token is not None
        if part is not None:
            # (no "room" message for it: the arrival's own redraw, or the start, shows it)
            await self.service.repo.set_contribution(room, seat, *contribution(part))
        arrival = await self.store.arrive(room.id, hash_token(token))
        if arrival is None:
            raise CovenError("no_rematch", "this table is not a rematch", 404)
        if arrival.seat is None:
            raise CovenError("bad_token", "this token holds no seat in this room")
        if arrival.everyone:
            await self._begin(code, arrival.room_id)
        return arrival.seat

    async def _begin(self, new_code: str, old_room_id: int) -> None:
        """Start the new match: once, whoever gets here first (an arrival, a sweep, another
        worker, the host's own Start button)."""
        try:
            await self.service.seating.set_up_match(new_code)
        except CovenError as exc:
            if exc.code == "busy":
                return  # seats were moving: the sweep tries again at the deadline
            if exc.code != "already_started":
                # Left to the host, who can change the seats and press Start herself.
                log.warning("rematch %s did not start: %s", new_code, exc)
        await self.store.finish(old_room_id)

    # -- the deadline -----------------------------------------------------------------------------

    async def settle_due(self) -> None:
        """Every rematch past its deadline: who has not come is replaced or left out, then the
        match starts."""
        for rematch in await self.store.due(time.time()):
            try:
                await self._settle(rematch)
            except Exception:
                log.exception("rematch %s could not be settled", rematch.new_code)

    async def _settle(self, rematch: Rematch) -> None:
        try:
            game = find_game(rematch.game_id)
        except CovenError:
            await self.store.finish(rematch.room_id)  # a game no longer installed
            return
        if not await self.store.settle(rematch, level=STAND_IN_LEVEL, min_players=game.min_players):
            return
        self.tables.room_changed(rematch.new_code)
        await self.bus.publish(room_channel(rematch.new_code), {"type": "room"})
        await self._begin(rematch.new_code, rematch.room_id)

    async def _sweep(self) -> None:
        while True:
            try:
                await self.settle_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rematch sweep failed")
            await asyncio.sleep(self.sweep_seconds)
