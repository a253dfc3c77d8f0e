"""A room's life up to play: created, seats taken, given up, removed and moved before the start,
filled by bots (or a vanished player's seat handed to one), and the start itself.

Each change is committed, then announced on the bus ("room"): every worker drops its copies
of the room and every page redraws.
"""

from __future__ import annotations

import secrets
from typing import Any

from app.bus import Bus
from app.clock import Clock
from app.errors import CovenError
from app.fairness import seeds
from app.rooms.keys import hash_token, new_room_code, new_token, room_channel, seat_of
from app.rooms.notices import Notices
from app.rooms.tables import Table, Tables, find_game
from app.store.repository import Repository, RoomRecord, SeatsChanged
from engine import registry
from engine.bots import LEVELS
from engine.protocol import IllegalAction, parse_options

# Set-ups of one start against seats that keep changing before it answers ``busy``.
START_RETRIES = 8


def table_name(host: str) -> str:
    """What a new room is called, after its host's name."""
    return f"{host}'s table"


def check_open(room: RoomRecord) -> None:
    if room.status != "open":
        raise CovenError("already_started", "the match has already started")


def check_host(seat: int | None) -> None:
    if seat is None:
        raise CovenError("unauthorized", "this needs the host's bearer token", 401)
    if seat != 0:
        raise CovenError("not_host", "only the host (seat 0) may do this")


def contribution(value: str | None) -> tuple[str, str]:
    """A seat's part of the seed: the one its browser sent (16 bytes, 32 lowercase hex
    digits), or one the server draws when it sent none (a bot, a plain API client)."""
    if value is None:
        return seeds.draw_contribution(), "server"
    if not seeds.is_contribution(value):
        raise CovenError(
            "bad_contribution", "contribution must be 16 random bytes as 32 lowercase hex digits"
        )
    return value, "player"


def check_away(room: RoomRecord, seat: int) -> None:
    """The seat is one a bot plays for because the host handed it over (so it can be taken
    back)."""
    record = room.seat(seat)
    if record is not None and record.for_good:
        raise CovenError("seat_handed_over", "a bot plays this seat for good", 409)
    if record is None or not record.away:
        raise CovenError("not_away", "this seat is yours already: no bot plays for it", 409)


class Seating:
    def __init__(
        self, repo: Repository, bus: Bus, tables: Tables, notices: Notices, clock: Clock
    ) -> None:
        self.clock = clock
        self.repo = repo
        self.bus = bus
        self.tables = tables
        self.notices = notices

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
        contribution_hex: str | None = None,
    ) -> tuple[RoomRecord, int, str]:
        game = find_game(game_id)
        host_contribution = contribution(contribution_hex)
        try:
            parsed = parse_options(game, options)
        except IllegalAction as exc:
            raise CovenError.from_illegal(exc) from None
        seat_count = seats if seats is not None else game.max_players
        if not game.min_players <= seat_count <= game.max_players:
            raise CovenError(
                "bad_options",
                f"seats must be within {game.min_players}–{game.max_players} for {game.title}",
            )
        token = new_token()
        room = await self.repo.create_room(
            code=new_room_code(),
            game_id=game.id,
            name=table_name(name),
            visibility=visibility,
            options=parsed.model_dump(mode="json"),
            seat_count=seat_count,
            turn_seconds=turn_seconds,
            host_name=name,
            host_token_hash=hash_token(token),
            rematch_by=rematch_by,
            clock_rule=clock_rule,
            secret=seeds.draw_secret(),  # its commitment is public from this moment on
            host_contribution=host_contribution,
        )
        return room, 0, token

    async def join(
        self, code: str, name: str, contribution_hex: str | None = None
    ) -> tuple[RoomRecord, int, str]:
        part = contribution(contribution_hex)
        room = await self.tables.room(code)
        check_open(room)
        token = new_token()
        seat = await self.repo.take_seat(
            room, name=name, token_hash=hash_token(token), bot_level=None, contribution=part
        )
        if seat is None:
            room = await self.tables.room(code)
            check_open(room)
            raise CovenError("room_full", "every seat is taken")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.tables.room(code), seat, token

    async def add_bot(
        self, code: str, token: str | None, level: str, seat: int | None, connected: set[int]
    ) -> tuple[RoomRecord, int]:
        """Fill a free seat with a bot, or (with ``seat``) let a bot play for a vanished player
        until they come back and act."""
        room = await self.tables.room(code)
        check_host(seat_of(room, token))
        if level not in LEVELS:
            raise CovenError("unknown_bot", f"no bot level {level!r}; known: {', '.join(LEVELS)}")
        if seat is not None:
            record = room.seat(seat)
            if record is None:
                raise CovenError("no_such_seat", f"seat {seat} is empty")
            if record.bot_level is None:
                if seat in connected:
                    raise CovenError("seat_connected", f"seat {seat} is still connected")
                await self.repo.set_away(room.id, seat, True, level)
                self.tables.seats_changed(code)
                await self.bus.publish(room_channel(code), {"type": "room"})
                self.notices.changed(code)
            return await self.tables.room(code), seat
        check_open(room)
        # Named after the seat it will most likely take (the lowest free one: a seat emptied
        # before the start fills first), so two bots never share a name.
        free = [n for n in range(room.seat_count) if room.seat(n) is None]
        number = free[0] if free else len(room.seats)
        taken = await self.repo.take_seat(
            room,
            name=f"Bot {number + 1}",
            token_hash=None,
            bot_level=level,
            contribution=contribution(None),
        )
        if taken is None:
            room = await self.tables.room(code)
            check_open(room)
            raise CovenError("room_full", "every seat is taken")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.tables.room(code), taken

    async def contribute(self, code: str, token: str | None, value: str | None) -> RoomRecord:
        """Before the start, a player gives her seat her browser's part of the seed (a seat
        taken without one, a rematch's seat); it replaces the one it had."""
        part = contribution(value) if value is not None else None
        if part is None:
            raise CovenError("bad_contribution", "send a contribution")
        room = await self.tables.room(code)
        seat = seat_of(room, token)
        if seat is None:
            raise CovenError("unauthorized", "this needs your seat's bearer token", 401)
        check_open(room)
        if not await self.repo.set_contribution(room, seat, *part):
            check_open(await self.tables.room(code))
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.tables.room(code)

    async def take_back(self, code: str, token: str | None) -> RoomRecord:
        """A player whose seat the host handed to a bot takes it back in one click: it is hers
        again at once, and if she owes a decision her turn clock starts afresh. Never a seat
        the turn clock handed over for good."""
        room = await self.tables.room(code)
        seat = seat_of(room, token)
        if seat is None:
            raise CovenError("unauthorized", "this needs your seat's bearer token", 401)
        check_away(room, seat)
        if not await self.repo.take_seat_back(room.id, seat):
            check_away(await self.tables.room(code), seat)  # changed meanwhile: say how
        if room.status == "playing":
            async with self.tables.lock(code):  # no move of this worker's in between
                await self.tables.settle(code)
                for _ in range(2):  # the match moved meanwhile: read it again, once
                    head = await self.repo.match_head(room.id)
                    if head is None or await self.repo.restart_clock(
                        head[0], seat, self.clock.now(), room.turn_seconds
                    ):
                        break
                self.tables.room_changed(code)
        await self.bus.publish(room_channel(code), {"type": "room"})
        self.notices.changed(code)
        return await self.tables.room(code)

    async def remove_seat(
        self, code: str, token: str | None, seat: int, connected: set[int]
    ) -> RoomRecord:
        """Before the start, the host empties a bot's seat or that of a player who is not
        here (never her own, never a connected player's)."""
        room = await self.tables.room(code)
        check_host(seat_of(room, token))
        check_open(room)
        record = room.seat(seat)
        if record is None:
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        if seat == 0:
            raise CovenError("host_seat", "the host's seat cannot be removed")
        if record.bot_level is None and seat in connected:
            raise CovenError("seat_connected", f"seat {seat} is still connected")
        return await self._free(code, room, seat)

    async def leave(self, code: str, token: str | None) -> RoomRecord:
        """Before the start, a player gives up her seat (the host cannot: she holds the
        room's tools, and the room would have nobody to start it)."""
        room = await self.tables.room(code)
        seat = seat_of(room, token)
        if seat is None:
            raise CovenError("unauthorized", "this needs your seat's bearer token", 401)
        check_open(room)
        if seat == 0:
            raise CovenError("host_cannot_leave", "the host cannot leave her own table")
        return await self._free(code, room, seat)

    async def move_seat(self, code: str, token: str | None, seat: int, to: int) -> RoomRecord:
        """Before the start, the host changes the seat order: ``seat`` and ``to`` exchange
        places (``to`` may be free). The host's own seat 0 stays hers."""
        room = await self.tables.room(code)
        check_host(seat_of(room, token))
        check_open(room)
        if room.seat(seat) is None:
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        if 0 in (seat, to) or not 0 <= to < room.seat_count:
            raise CovenError("bad_seat", f"seat {seat} can move to seats 1–{room.seat_count - 1}")
        if seat != to and not await self.repo.swap_seats(room, seat, to):
            raise CovenError("already_started", "the match has already started")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.tables.room(code)

    async def _free(self, code: str, room: RoomRecord, seat: int) -> RoomRecord:
        if not await self.repo.free_seat(room, seat):
            room = await self.tables.room(code)
            check_open(room)
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.tables.room(code)

    async def start(self, code: str, token: str | None) -> Table:
        check_host(seat_of(await self.tables.room(code), token))
        return await self.set_up_match(code)

    async def set_up_match(self, code: str) -> Table:
        """The start itself, for whoever may start: the host (``start``), or a rematch once its
        players are in (app/rooms/rematch.py). Once only: a second call is ``already_started``."""
        # A join (or a bot) landing while the match is set up makes the start set it up
        # again for the seats the room has then: a seat is in the match or refused.
        for _ in range(START_RETRIES):
            room = await self.tables.room(code)
            check_open(room)
            game = find_game(room.game_id)
            players = len(room.seats)
            if players < game.min_players:
                raise CovenError(
                    "not_enough_players", f"{game.title} needs at least {game.min_players} players"
                )
            secret = await self.repo.room_secret(room.id) if room.commitment else None
            parts: list[str] | None = None
            if secret is None:  # a room from before the seed proof (migration 0008)
                seed = secrets.randbits(52)  # exact in JavaScript numbers too
            else:
                # A seat without a part (a rematch's, before its player came) gets one the
                # server draws, written with the start; the match numbers its seats 0…n-1 in
                # seat order (start_match closes gaps).
                parts = [s.contribution or seeds.draw_contribution() for s in room.seats]
                seed = seeds.match_seed(secret.server_seed, list(enumerate(parts)))
            try:
                state = game.setup(players, seed, room.options)
            except IllegalAction as exc:
                raise CovenError.from_illegal(exc) from None
            try:
                match = await self.repo.start_match(
                    room,
                    seed=seed,
                    players=players,
                    options=room.options,
                    snapshot=game.dump(state),
                    stage=game.stage(state),
                    to_move=game.to_move(state),
                    now=self.clock.now(),
                    rules_version=registry.rules_version(game),
                    secret=secret,
                    contributions=parts,
                )
            except SeatsChanged:
                continue
            break
        else:
            raise CovenError("busy", "seats keep changing; try again")
        if match is None:
            raise CovenError("already_started", "the match has already started")
        table = await self.tables.table(code)
        await self.bus.publish(room_channel(code), {"type": "room"})
        await self.bus.publish(room_channel(code), {"type": "version", "version": 0, "events": []})
        self.notices.changed(code)
        return table
