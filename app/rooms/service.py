"""RoomService: load → ``game.apply`` → persist (one transaction, version-guarded) → publish.

Humans over HTTP, humans over WebSocket, bots and the turn clock all go through ``act``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app import wire
from app.bus import Bus
from app.errors import CovenError
from app.store.repository import (
    ClientIdTaken,
    Committed,
    MatchRecord,
    NewAction,
    Repository,
    RoomRecord,
    SeatsChanged,
)
from engine import registry
from engine.bots import LEVELS
from engine.protocol import (
    Action,
    Event,
    Game,
    IllegalAction,
    Step,
    events_for,
    parse_options,
    public_events,
)

MAX_RETRIES = 8


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_room_code() -> str:
    # 12 bytes = 96 bits: a private room is reachable by its link alone.
    return secrets.token_urlsafe(12)


def room_channel(code: str) -> str:
    return f"room:{code}"


STAGES_KEPT = 64


def match_stages(table: Table, match: MatchRecord) -> dict[int, str]:
    """The recent stage history of ``table``, with ``match``'s own version, bounded."""
    stages = {v: st for v, st in table.stages.items() if v > match.version - STAGES_KEPT}
    stages[match.version] = match.stage
    return stages


def recent_history(table: Table, version: int, events: list[Event]) -> dict[int, list[Event]]:
    """``table``'s recent events with ``version``'s own, bounded like the stages."""
    history = {v: e for v, e in table.history.items() if v > version - STAGES_KEPT}
    history[version] = events
    return history


def bot_seed(match_seed: int, seat: int, version: int) -> int:
    """The same (match, seat, version) always makes the same bot choice, so two workers that
    both play a bot's turn submit the same action under the same client_id."""
    digest = hashlib.sha256(f"{match_seed}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# Bots and the turn clock submit under this prefix; a person's client_id may not start with
# it, so a person can never take the id a bot will use (and make the bot's move look like a
# duplicate of theirs, or refuse it as another seat's).
BOT_PREFIX = "bot:"


def bot_client_id(seat: int, version: int) -> str:
    return f"{BOT_PREFIX}{seat}:{version}"


def owing_after(
    before: frozenset[int],
    after: frozenset[int],
    since: tuple[float | None, ...],
    now: float,
    restart: frozenset[int] = frozenset(),
) -> list[float | None]:
    """The turn clock: a seat's clock starts when it begins to owe a decision and keeps
    running while it goes on owing one, its own sub-actions and other seats' moves included;
    a seat that owes nothing has no clock. A seat in ``restart`` (a player taking her seat
    back from a bot) starts afresh."""
    return [
        (since[seat] if seat in before and seat not in restart and since[seat] is not None else now)
        if seat in after
        else None
        for seat in range(len(since))
    ]


@dataclass(slots=True)
class Ack:
    client_id: str
    version: int
    duplicate: bool = False


@dataclass(slots=True)
class Table:
    """One committed version of a match, as this worker holds it in memory."""

    room: RoomRecord
    match: MatchRecord
    game: Game
    state: Any
    events: list[Event]
    to_move: frozenset[int]
    result: dict[str, Any] | None
    # The stage at each recent version this worker saw (the stale-version check).
    stages: dict[int, str] = field(default_factory=dict)
    # The events of each recent version this worker committed or saw, in order: a socket
    # that missed versions catches up from here without reading the actions back.
    history: dict[int, list[Event]] = field(default_factory=dict)
    _rendered: dict[int | None, str] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.match.version

    def events_since(self, seen: int) -> list[Event] | None:
        """Every event of versions ``seen + 1`` … now, if this copy still holds them all."""
        if all(v in self.history for v in range(seen + 1, self.version + 1)):
            return [e for v in range(seen + 1, self.version + 1) for e in self.history[v]]
        return None

    def message(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: spectator)."""
        legal = (
            self.game.legal_actions(self.state, seat)
            if seat is not None and seat in self.to_move
            else []
        )
        return {
            "type": "state",
            "version": self.version,
            "seat": seat,
            "view": self.game.view(self.state, seat),
            "to_move": sorted(self.to_move),
            "legal": legal,
            "events": events_for(self.events, seat),
            "result": self.result,
        }

    def catch_up_text(self, seat: int | None, events: list[Event]) -> str:
        """The ``state`` message for a socket that missed versions: ``events`` holds every
        event since its last version, so the table log has no holes."""
        message = self.message(seat)
        message["events"] = events_for(events, seat)
        return wire.dumps(message)

    def message_text(self, seat: int | None) -> str:
        text = self._rendered.get(seat)
        if text is None:
            text = wire.dumps(self.message(seat))
            self._rendered[seat] = text
        return text


class RoomService:
    def __init__(self, repo: Repository, bus: Bus) -> None:
        self.repo = repo
        self.bus = bus
        self._locks: dict[str, asyncio.Lock] = {}
        self._tables: dict[str, Table] = {}
        self._rooms: dict[str, RoomRecord] = {}
        # Called with a room code after this worker committed a change (the bot runner).
        self.on_change: list[Callable[[str], None]] = []

    def lock(self, code: str) -> asyncio.Lock:
        lock = self._locks.get(code)
        if lock is None:
            lock = self._locks[code] = asyncio.Lock()
        return lock

    def _changed(self, code: str) -> None:
        for callback in self.on_change:
            callback(code)

    # -- rooms ------------------------------------------------------------------------------

    @staticmethod
    def game(game_id: str) -> Game:
        try:
            return registry.get(game_id)
        except IllegalAction as exc:
            raise CovenError.from_illegal(exc) from None

    async def room(self, code: str, *, cached: bool = False) -> RoomRecord:
        """The room and its seats; with ``cached``, this worker's copy when it has one (seats
        change rarely, and every change is announced on the bus: see ``room_changed``)."""
        if cached and (room := self._rooms.get(code)) is not None:
            return room
        room = await self.repo.room(code)
        if room is None:
            raise CovenError("room_not_found", f"no room {code!r}")
        self._rooms[code] = room
        return room

    def room_status(self, code: str, status: str) -> None:
        """The room's status changed and nothing else (a match ended): update the copies."""
        room = self._rooms.get(code)
        if room is not None:
            self._rooms[code] = room = dataclasses.replace(room, status=status)
        table = self._tables.get(code)
        if table is not None and room is not None:
            table.room = room

    def room_changed(self, code: str) -> None:
        """Seats changed (joined, bot, away): drop this worker's copies of the room and of the
        match that holds it, so the next look reads both."""
        self._rooms.pop(code, None)
        self._tables.pop(code, None)

    async def seat_for(self, code: str, token: str | None) -> tuple[RoomRecord, int | None]:
        """The room and the seat ``token`` holds, from this worker's copy when it knows the
        token (a seat taken through another worker makes it look again)."""
        room = await self.room(code, cached=True)
        if token and room.seat_for_token_hash(hash_token(token)) is None:
            room = await self.room(code)
        return room, self.seat_of(room, token)

    def seat_of(self, room: RoomRecord, token: str | None) -> int | None:
        """The seat a token holds; ``None`` for no token (a spectator). A wrong token is an
        error, never a silent downgrade to spectator."""
        if not token:
            return None
        seat = room.seat_for_token_hash(hash_token(token))
        if seat is None:
            raise CovenError("bad_token", "this token holds no seat in this room")
        return seat.seat

    async def create_room(
        self,
        *,
        game_id: str,
        visibility: str,
        options: dict[str, Any],
        name: str,
        turn_seconds: float | None,
        seats: int | None,
    ) -> tuple[RoomRecord, int, str]:
        game = self.game(game_id)
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
            name=f"{name}'s table",
            visibility=visibility,
            options=parsed.model_dump(mode="json"),
            seat_count=seat_count,
            turn_seconds=turn_seconds,
            host_name=name,
            host_token_hash=hash_token(token),
        )
        return room, 0, token

    async def join(self, code: str, name: str) -> tuple[RoomRecord, int, str]:
        room = await self.room(code)
        self._check_open(room)
        token = new_token()
        seat = await self.repo.take_seat(
            room, name=name, token_hash=hash_token(token), bot_level=None
        )
        if seat is None:
            room = await self.room(code)
            self._check_open(room)
            raise CovenError("room_full", "every seat is taken")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.room(code), seat, token

    @staticmethod
    def _check_open(room: RoomRecord) -> None:
        if room.status != "open":
            raise CovenError("already_started", "the match has already started")

    @staticmethod
    def _check_host(seat: int | None) -> None:
        if seat is None:
            raise CovenError("unauthorized", "this needs the host's bearer token", 401)
        if seat != 0:
            raise CovenError("not_host", "only the host (seat 0) may do this")

    async def add_bot(
        self, code: str, token: str | None, level: str, seat: int | None, connected: set[int]
    ) -> tuple[RoomRecord, int]:
        """Fill a free seat with a bot, or (with ``seat``) let a bot play for a vanished player
        until they come back and act."""
        room = await self.room(code)
        self._check_host(self.seat_of(room, token))
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
                self._tables.pop(code, None)  # the seat record changed: reload
                await self.bus.publish(room_channel(code), {"type": "room"})
                self._changed(code)
            return await self.room(code), seat
        self._check_open(room)
        # Named after the seat it will most likely take (the lowest free one: a seat emptied
        # before the start fills first), so two bots never share a name.
        free = [n for n in range(room.seat_count) if room.seat(n) is None]
        number = free[0] if free else len(room.seats)
        taken = await self.repo.take_seat(
            room, name=f"Bot {number + 1}", token_hash=None, bot_level=level
        )
        if taken is None:
            room = await self.room(code)
            self._check_open(room)
            raise CovenError("room_full", "every seat is taken")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.room(code), taken

    async def remove_seat(
        self, code: str, token: str | None, seat: int, connected: set[int]
    ) -> RoomRecord:
        """Before the start, the host empties a bot's seat or that of a player who is not
        here (never her own, never a connected player's)."""
        room = await self.room(code)
        self._check_host(self.seat_of(room, token))
        self._check_open(room)
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
        room = await self.room(code)
        seat = self.seat_of(room, token)
        if seat is None:
            raise CovenError("unauthorized", "this needs your seat's bearer token", 401)
        self._check_open(room)
        if seat == 0:
            raise CovenError("host_cannot_leave", "the host cannot leave her own table")
        return await self._free(code, room, seat)

    async def move_seat(self, code: str, token: str | None, seat: int, to: int) -> RoomRecord:
        """Before the start, the host changes the seat order: ``seat`` and ``to`` exchange
        places (``to`` may be free). The host's own seat 0 stays hers."""
        room = await self.room(code)
        self._check_host(self.seat_of(room, token))
        self._check_open(room)
        if room.seat(seat) is None:
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        if 0 in (seat, to) or not 0 <= to < room.seat_count:
            raise CovenError("bad_seat", f"seat {seat} can move to seats 1–{room.seat_count - 1}")
        if seat != to and not await self.repo.swap_seats(room, seat, to):
            raise CovenError("already_started", "the match has already started")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.room(code)

    async def _free(self, code: str, room: RoomRecord, seat: int) -> RoomRecord:
        if not await self.repo.free_seat(room, seat):
            room = await self.room(code)
            self._check_open(room)
            raise CovenError("no_such_seat", f"seat {seat} is empty")
        await self.bus.publish(room_channel(code), {"type": "room"})
        return await self.room(code)

    async def start(self, code: str, token: str | None) -> Table:
        # A join (or a bot) landing while the match is set up makes the start set it up
        # again for the seats the room has then: a seat is in the match or refused.
        for _ in range(MAX_RETRIES):
            room = await self.room(code)
            self._check_host(self.seat_of(room, token))
            self._check_open(room)
            game = self.game(room.game_id)
            players = len(room.seats)
            if players < game.min_players:
                raise CovenError(
                    "not_enough_players", f"{game.title} needs at least {game.min_players} players"
                )
            seed = secrets.randbits(52)  # exact in JavaScript numbers too
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
                )
            except SeatsChanged:
                continue
            break
        else:
            raise CovenError("busy", "seats keep changing; try again")
        if match is None:
            raise CovenError("already_started", "the match has already started")
        table = await self.table(code)
        await self.bus.publish(room_channel(code), {"type": "room"})
        await self.bus.publish(room_channel(code), {"type": "version", "version": 0, "events": []})
        self._changed(code)
        return table

    # -- the committed state ----------------------------------------------------------------

    async def table(self, code: str, at_least: int | None = None, *, fresh: bool = False) -> Table:
        """The latest committed version (reusing this worker's copy when it is current).

        With ``at_least``, this worker's copy is enough when it is that new; ``fresh``
        always asks the database for the match."""
        cached = self._tables.get(code)
        if not fresh and cached is not None and at_least is not None and cached.version >= at_least:
            return cached
        if cached is not None and cached.result is None:
            caught = await self._catch_up(code, cached)
            if caught is not None:
                return caught
        # Seats change rarely and every change is announced ("room" on the bus), so the
        # room comes from this worker's copy; the match always from the database.
        room = await self.room(code, cached=True)
        if room.status == "open":
            room = await self.room(code)  # it may have started through another worker
        if room.status == "open":
            raise CovenError("not_started", "the match has not started yet")
        head = await self.repo.match_head(room.id)
        if head is None:
            raise CovenError("not_started", "the match has not started yet")
        return await self._adopt(code, room, *head)

    async def _catch_up(self, code: str, cached: Table) -> Table | None:
        """This worker's copy brought up to date by replaying the actions committed since
        (another worker's moves): one small read instead of the snapshot. ``None`` when the
        replay cannot be trusted (a gap, a refusal, a different stage): read it all."""
        head = await self.repo.moves.head(cached.match.id, cached.version)
        if head is None:
            return None
        latest = self._tables.get(code)
        if latest is not None and latest.match.id == cached.match.id:
            cached = latest  # moved on meanwhile (this worker's own commit)
        if head.version <= cached.version:
            return cached
        done = [d for d in head.done if d.version > cached.version]
        if [d.version for d in done] != list(range(cached.version + 1, head.version + 1)):
            return None
        game, state = cached.game, cached.state
        stages = match_stages(cached, cached.match)
        history = dict(cached.history)
        try:
            for d in done:
                state = game.apply(state, d.seat, d.action).state
                stages[d.version - 1] = d.stage
                history[d.version] = d.events
        except IllegalAction:
            return None
        if game.stage(state) != head.stage or (game.result(state) is not None) != head.finished:
            return None
        room = await self.room(code, cached=True)
        match = dataclasses.replace(
            cached.match,
            version=head.version,
            snapshot={},  # not kept: this copy's state is the replayed one
            stage=head.stage,
            stage_since=head.stage_since,
            finished=head.finished,
            acted=tuple(head.acted) if head.acted is not None else cached.match.acted,
            owing_since=(
                tuple(head.owing_since)
                if head.owing_since is not None
                else cached.match.owing_since
            ),
        )
        table = self._make_table(room, match, game, state, done[-1].events)
        table.stages = {v: st for v, st in stages.items() if v > head.version - STAGES_KEPT}
        table.stages[head.version] = head.stage
        table.history = {v: e for v, e in history.items() if v > head.version - STAGES_KEPT}
        self._tables[code] = table
        return table

    async def _adopt(
        self, code: str, room: RoomRecord, match: MatchRecord, events: list[Event]
    ) -> Table:
        """This worker's copy becomes ``match`` as read from the database (unless it already
        holds that version or a newer one)."""
        cached = self._tables.get(code)
        if cached is not None and cached.version == match.version:
            cached.room = room
            return cached
        if cached is not None and cached.version > match.version:
            return cached  # a newer commit landed meanwhile; never go backwards
        game = self.game(match.game_id)
        state = game.load(match.snapshot)
        match = await self._complete(match, game, state)
        table = self._make_table(room, match, game, state, events)
        if cached is not None and cached.match.id == match.id:
            table.stages = match_stages(cached, cached.match)
            table.history = recent_history(cached, match.version, events)
        else:
            table.history[match.version] = events
        table.stages[match.version] = match.stage
        self._tables[code] = table
        return table

    async def _complete(self, match: MatchRecord, game: Game, state: Any) -> MatchRecord:
        """Fill in the per-seat bookkeeping of a match stored before migration 0002."""
        if match.acted is not None and match.owing_since is not None:
            return match
        acted = match.acted
        if acted is None:
            acted = tuple([await self.repo.last_acted(match.id, s) for s in range(match.players)])
        owing = match.owing_since
        if owing is None:
            to_move = game.to_move(state)
            owing = tuple(match.stage_since if s in to_move else None for s in range(match.players))
        return dataclasses.replace(match, acted=acted, owing_since=owing)

    @staticmethod
    def _make_table(
        room: RoomRecord, match: MatchRecord, game: Game, state: Any, events: list[Event]
    ) -> Table:
        result = game.result(state)
        return Table(
            room=room,
            match=match,
            game=game,
            state=state,
            events=events,
            to_move=game.to_move(state),
            result=result.as_dict() if result is not None else None,
        )

    def cached(self, code: str) -> Table | None:
        """This worker's latest copy, without asking the database (may be behind)."""
        return self._tables.get(code)

    def forget(self, code: str) -> None:
        self._tables.pop(code, None)
        self._rooms.pop(code, None)
        lock = self._locks.get(code)
        if lock is not None and not lock.locked():
            del self._locks[code]

    def release_idle(self, keep: set[str]) -> int:
        """Forget this worker's copies of finished matches, and of rooms with no match in
        memory, except the rooms in ``keep`` (sockets are open here): a long-running worker's
        memory stays flat. Copies are caches; the next look reads the database."""
        idle = [c for c, t in self._tables.items() if c not in keep and t.result is not None]
        idle += [c for c in self._rooms if c not in keep and c not in self._tables]
        for code in idle:
            self.forget(code)
        return len(idle)

    # -- acting -----------------------------------------------------------------------------

    async def act(
        self,
        code: str,
        seat: int | None,
        action: Any,
        client_id: str,
        version: int | None = None,
        *,
        by_bot: bool = False,
    ) -> Ack:
        if seat is None:
            raise CovenError("spectator", "spectators cannot act; join the room to take a seat")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise CovenError("unknown_action", "an action is a JSON object with a 'type'")
        if not by_bot and client_id.startswith(BOT_PREFIX):
            raise CovenError(
                "reserved_client_id", f"client_ids starting with {BOT_PREFIX!r} are the bots'"
            )
        async with self.lock(code):
            # Optimistic: start from this worker's copy (current unless another worker
            # committed); the version-guarded UPDATE is what guarantees correctness. A refusal
            # is only given after checking it against the database.
            table = self._tables.get(code)
            verified = table is None
            if table is None:
                table = await self.table(code)
            for _ in range(MAX_RETRIES):
                match = table.match
                try:
                    new, step = await self._apply(table, seat, action, client_id, version, by_bot)
                except CovenError:
                    twin = await self._twin(match.id, seat, client_id)
                    if twin is not None:
                        return twin
                    if verified:
                        raise
                    table, verified = await self.table(code, fresh=True), True
                    continue
                try:
                    committed = await self.repo.commit_action(match, new)
                except ClientIdTaken:
                    twin = await self._twin(match.id, seat, client_id)
                    if twin is not None:
                        return twin
                    committed = None
                if committed is None and self.repo.locks_rows:
                    # Another worker moved the match first: wait for the match row, then
                    # re-validate and commit holding it (this cannot lose again).
                    locked = await self._act_locked(
                        code, table, seat, action, client_id, version, by_bot
                    )
                    if isinstance(locked, Ack):
                        return locked
                    table, match, new, step, committed = locked
                if committed is None:
                    # Another worker moved the match first: reload, re-validate, retry.
                    table, verified = await self.table(code, fresh=True), True
                    continue
                room = table.room
                came_back = committed.came_back
                if came_back:
                    room = await self.room(code)
                new_match = dataclasses.replace(
                    match,
                    version=match.version + 1,
                    snapshot=new.snapshot,
                    stage=new.stage_after,
                    stage_since=committed.stage_since,
                    finished=new.finished,
                    acted=tuple(new.acted),
                    owing_since=tuple(new.owing_since),
                )
                stages = match_stages(table, match)
                stages[new_match.version] = new.stage_after
                history = recent_history(table, new_match.version, new.events)
                table = self._make_table(room, new_match, table.game, step.state, new.events)
                table.stages = stages
                table.history = history
                self._tables[code] = table
                break
            else:
                raise CovenError("busy", "the table is very busy; try again")
        await self.bus.publish(
            room_channel(code),
            {
                "type": "version",
                "version": match.version + 1,
                "events": public_events(new.events),
            },
        )
        if came_back:
            await self.bus.publish(room_channel(code), {"type": "room"})
        elif new.finished:
            # Only the room's status changed: every worker updates its copy, no reload.
            await self.bus.publish(room_channel(code), {"type": "room", "status": "finished"})
        self._changed(code)
        return Ack(client_id, match.version + 1)

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: dict[str, Any],
        client_id: str,
        version: int | None,
        by_bot: bool,
    ) -> tuple[NewAction, Step]:
        match = table.match
        if table.result is not None or match.finished:
            raise CovenError("match_over", "the match is over")
        await self._check_version(table, seat, version)
        if seat not in table.to_move:
            raise CovenError("not_your_turn", f"seat {seat} owes no decision now")
        try:
            step = table.game.apply(table.state, seat, action)
        except IllegalAction as exc:
            raise CovenError.from_illegal(exc) from None
        assert match.acted is not None and match.owing_since is not None  # see _complete
        acted = list(match.acted)
        acted[seat] = match.version + 1
        record = table.room.seat(seat)
        back = frozenset({seat}) if not by_bot and record is not None and record.away else None
        now = time.time()
        owing = owing_after(
            table.to_move,
            table.game.to_move(step.state),
            match.owing_since,
            now,
            back or frozenset(),
        )
        new = NewAction(
            seat=seat,
            action=action,
            client_id=client_id,
            stage_before=match.stage,
            events=list(step.events),
            by_bot=by_bot,
            snapshot=table.game.dump(step.state),
            stage_after=table.game.stage(step.state),
            finished=table.game.result(step.state) is not None,
            # A person's move takes the seat back from a bot, if one was playing for it.
            clear_away=not by_bot,
            acted=acted,
            owing_since=owing,
            at=now,
        )
        return new, step

    async def _act_locked(
        self,
        code: str,
        table: Table,
        seat: int,
        action: dict[str, Any],
        client_id: str,
        version: int | None,
        by_bot: bool,
    ) -> Ack | tuple[Table, MatchRecord, NewAction, Step, Committed]:
        """The move again, holding the match row (PostgreSQL): the match as it is now, the
        action re-validated against it, the commit inside the same transaction. A refusal
        here is a real one (checked against the committed state)."""
        refused: CovenError | None = None
        async with self.repo.locked_match(table.match.id) as (locked, head):
            if head is None:
                raise CovenError("not_started", "the match has not started yet")
            fresh = await self._adopt(code, table.room, *head)
            match = fresh.match
            try:
                new, step = await self._apply(fresh, seat, action, client_id, version, by_bot)
            except CovenError as exc:
                refused = exc
            else:
                try:
                    committed = await self.repo.commit_action(match, new, locked)
                except ClientIdTaken:
                    refused = CovenError("client_id_taken", "this client_id was used")
                else:
                    if committed is None:  # cannot happen: the row is held
                        raise CovenError("busy", "the table is very busy; try again")
                    return fresh, match, new, step, committed
        twin = await self._twin(table.match.id, seat, client_id)
        if twin is not None:
            return twin
        raise refused

    async def _twin(self, match_id: int, seat: int, client_id: str) -> Ack | None:
        """The acknowledgement of an already-applied submission with this client_id."""
        twin = await self.repo.action_by_client_id(match_id, client_id)
        if twin is None:
            return None
        if twin.seat != seat:
            raise CovenError("client_id_taken", "another seat used this client_id")
        return Ack(client_id, twin.version, duplicate=True)

    async def _check_version(self, table: Table, seat: int, version: int | None) -> None:
        """An older version is accepted only from a seat that has not acted since it, and only
        while the match is still in the stage it was in then: two players choosing at once
        never see stale_version, and a sub-action sent twice (two tabs, a retry under a new
        client_id) never applies twice. No version: checked against the current state only."""
        current = table.match.version
        if version is None or version == current:
            return
        if version > current or version < 0:
            raise CovenError("bad_version", f"version {version} is ahead of the match ({current})")
        assert table.match.acted is not None  # see _complete
        if table.match.acted[seat] > version:
            raise CovenError(
                "stale_version",
                f"seat {seat} has acted since version {version} (now {current}); re-sync and retry",
            )
        stage = table.stages.get(version)
        if stage is None:
            seen = await self.repo.action_at(table.match.id, version + 1)
            stage = seen.stage if seen is not None else None
        if stage != table.match.stage:
            raise CovenError(
                "stale_version",
                f"the table moved on since version {version} (now {current}); re-sync and retry",
            )

    async def bot_act(
        self, code: str, table: Table, seat: int, action: Action, client_id: str | None = None
    ) -> Ack:
        """Submit a bot's (or the turn clock's stand-in's) choice, made at ``table``'s version
        from ``seat``'s view, under the bots' client_id namespace."""
        return await self.act(
            code,
            seat,
            action,
            client_id or bot_client_id(seat, table.version),
            table.version,
            by_bot=True,
        )

    # -- the log ----------------------------------------------------------------------------

    async def log(self, code: str) -> dict[str, Any]:
        room = await self.room(code)
        match = await self.repo.match(room.id)
        if match is None:
            return {"version": 0, "finished": False, "events": [], "replay": None}
        # One snapshot: the match row was read first, so only actions up to its version
        # belong to it (moves committed since are the next log's).
        actions = [a for a in await self.repo.actions(match.id) if a.version <= match.version]
        events = [
            {"version": a.version, **event} for a in actions for event in public_events(a.events)
        ]
        replay = None
        if match.finished:
            replay = {
                "game": match.game_id,
                "seed": match.seed,
                "players": match.players,
                "options": match.options,
                "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_level} for s in room.seats],
                "actions": [
                    {"version": a.version, "seat": a.seat, "action": a.action, "bot": a.by_bot}
                    for a in actions
                ],
            }
        return {
            "version": match.version,
            "finished": match.finished,
            "events": events,
            "replay": replay,
        }
