"""This worker's copies of rooms and matches: ``Table`` (one committed version of a match, with
its rendered ``state`` messages) and ``Tables``, the cache that loads them, brings them up to
date with other workers' moves, and lets them go.

A copy is a cache, never the truth: the move path's version-guarded commit is what keeps a
match right, and every change of a room's seats is announced on the bus ("room"), which drops
the copies here (``room_changed``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app import wire
from app.clock import pace_of
from app.errors import CovenError
from app.fairness.public import fairness
from app.rooms.in_flight import Flights
from app.rooms.keys import hash_token, seat_of
from app.rooms.private_steps import Faces, hidden_after, viewer_version
from app.rooms.sealed_moves import MoveSeal, head_of
from app.store.moves import Head
from app.store.repository import ActionRecord, MatchRecord, NewAction, Repository, RoomRecord
from engine import registry
from engine.protocol import Event, Game, IllegalAction, events_for

STAGES_KEPT = 64

T = TypeVar("T")


def find_game(game_id: str) -> Game:
    try:
        return registry.get(game_id)
    except IllegalAction as exc:
        raise CovenError.from_illegal(exc) from None


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
    # Private steps (app/rooms/private_steps.py): per seat, how many up to this version; the
    # seat each recent version's action was private to (None: public; absent: not known here).
    hidden: tuple[int, ...] = ()
    private: dict[int, int | None] = field(default_factory=dict)
    # The events each viewer was last shown: those of the latest action visible to her. Not
    # ``events`` when the latest action was a private step: the others still see the events of
    # the latest public one (``public_events``), and a seat whose own private step came after
    # it sees that step's (``own_events``).
    public_events: list[Event] | None = None
    own_events: dict[int, list[Event]] = field(default_factory=dict)
    faces: Faces | None = None
    _rendered: dict[int | None, str] = field(default_factory=dict)
    # The seed proof every viewer of this version is shown, with the room record it was read
    # from: built once for all the seats, again only if the room record is replaced.
    _proof: tuple[RoomRecord, dict[str, Any] | None] | None = None
    # What every viewer of this version is shown alike (``to_move`` in order, the clocks),
    # with the room record it was built from: once for all the seats, like the proof.
    _alike: tuple[RoomRecord, list[int], dict[str, Any] | None] | None = None

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def public_version(self) -> int:
        """The version a spectator sees: the public actions so far."""
        return viewer_version(self.version, self.hidden, None)

    def version_for(self, viewer: int | None) -> int:
        """The version ``viewer`` sees (a seat, None: a spectator): the actions visible to her."""
        return viewer_version(self.version, self.hidden, viewer)

    def events_seen_by(self, viewer: int | None) -> list[Event]:
        """Every event of the latest action visible to ``viewer`` (to be filtered for her)."""
        if viewer is not None and viewer in self.own_events:
            return self.own_events[viewer]
        return self.events if self.public_events is None else self.public_events

    def face(self) -> Faces:
        if self.faces is None:
            self.faces = Faces(self.game, self.state, self.to_move)
        return self.faces

    def events_since(self, seen: int) -> list[Event] | None:
        """Every event of versions ``seen + 1`` … now, if this copy still holds them all."""
        if all(v in self.history for v in range(seen + 1, self.version + 1)):
            return [e for v in range(seen + 1, self.version + 1) for e in self.history[v]]
        return None

    def message(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: spectator), in its own numbering of
        the versions: nothing in it moves with another seat's private steps."""
        faces = self.face()
        alike = self._alike
        if alike is None or alike[0] is not self.room:
            alike = self._alike = (self.room, sorted(self.to_move), self.clock())
        return {
            "type": "state",
            "version": self.version_for(seat),
            # What presence messages carry (one text for the whole room): a client behind it
            # missed a push.
            "public_version": self.public_version,
            "seat": seat,
            "view": faces.view(seat),
            "to_move": alike[1],
            "legal": faces.legal(seat),
            "undo": faces.undo(seat),
            "events": events_for(self.events_seen_by(seat), seat),
            "result": self.result,
            "clock": alike[2],
            # The seed proof: the secret seed only once the match is over (app/fairness).
            "fairness": self.proof(),
        }

    def proof(self) -> dict[str, Any] | None:
        """The seed proof as this version shows it: the secret only once the match is over."""
        kept = self._proof
        if kept is None or kept[0] is not self.room:
            over = self.match if self.result is not None else None
            kept = self._proof = (self.room, fairness(self.room, over))
        return kept[1]

    def clock(self) -> dict[str, Any] | None:
        """The turn clocks, public like ``to_move``: per seat, when its time runs out (epoch
        seconds by the server's clock; null: it owes nothing), or None without a clock. A
        socket learns the server's time from its ``clock`` message to count down from."""
        turn = self.room.turn_seconds
        if not turn or self.result is not None:
            return None
        owing = self.match.owing_since
        if owing is None:
            owing = tuple(
                self.match.stage_since if s in self.to_move else None
                for s in range(self.match.players)
            )
        return {
            "turn_seconds": turn,
            "pace": pace_of(turn),
            "rule": self.room.clock_rule,
            "due": [None if since is None else since + turn for since in owing],
        }

    def catch_up_text(self, seat: int | None, events: list[Event], since: int) -> str:
        """The ``state`` message for a socket that missed versions: ``events`` holds every
        event after version ``since`` (the last it was sent, in its own numbering), and
        ``since`` says so: the table log has no holes, and the client reads nothing to fill
        them."""
        message = self.message(seat)
        message["events"] = events_for(events, seat)
        message["since"] = since
        return wire.dumps(message)

    def message_text(self, seat: int | None) -> str:
        text = self._rendered.get(seat)
        if text is None:
            text = wire.dumps(self.message(seat))
            self._rendered[seat] = text
        return text


def bounded(marks: dict[int, T], above: int) -> dict[int, T]:
    """A copy of ``marks`` without its versions ``above`` or older. Each move copies three of
    these: a table's marks were bounded one version ago, so usually none falls out and a plain
    copy (in C) does, with no comprehension over every kept version."""
    if not marks or min(marks) > above:
        return marks.copy()
    return {v: mark for v, mark in marks.items() if v > above}


def recent_private(table: Table, version: int, private: int | None) -> dict[int, int | None]:
    """``table``'s recent private-step marks with ``version``'s own, bounded like the stages."""
    marks = bounded(table.private, version - STAGES_KEPT)
    marks[version] = private
    return marks


def shown_after(
    table: Table, events: list[Event], private: int | None
) -> tuple[list[Event] | None, dict[int, list[Event]]]:
    """``public_events`` and ``own_events`` (see ``Table``) after one more action."""
    if private is None:
        return None, {}
    return table.events_seen_by(None), {**table.own_events, private: events}


def match_stages(table: Table, match: MatchRecord) -> dict[int, str]:
    """The recent stage history of ``table``, with ``match``'s own version, bounded."""
    stages = bounded(table.stages, match.version - STAGES_KEPT)
    stages[match.version] = match.stage
    return stages


def recent_history(table: Table, version: int, events: list[Event]) -> dict[int, list[Event]]:
    """``table``'s recent events with ``version``'s own, bounded like the stages."""
    history = bounded(table.history, version - STAGES_KEPT)
    history[version] = events
    return history


def make_table(
    room: RoomRecord,
    match: MatchRecord,
    game: Game,
    state: Any,
    events: list[Event],
    faces: Faces | None = None,
    **kept: Any,
) -> Table:
    """The table of ``match`` at ``state``; ``kept``: the bookkeeping fields a worker carries
    from its copy of the version before (``next_table``)."""
    result = game.result(state)
    return Table(
        room=room,
        match=match,
        game=game,
        state=state,
        events=events,
        to_move=faces.to_move if faces is not None else game.to_move(state),
        result=result.as_dict() if result is not None else None,
        faces=faces,
        **kept,
    )


def newer(table: Table, than: Table) -> bool:
    """Whether ``table`` is a later version than ``than`` (or of a later match of the room:
    its id is higher)."""
    return (table.match.id, table.version) > (than.match.id, than.version)


def next_table(
    table: Table,
    room: RoomRecord,
    new: NewAction,
    state: Any,
    stage_since: float,
    faces: Faces | None = None,
) -> Table:
    """The copy after this worker committed ``new`` onto ``table``: built from what it
    committed, with no read (``faces``: what the private-step test already rendered)."""
    match = table.match
    new_match = dataclasses.replace(
        match,
        version=match.version + 1,
        snapshot=new.snapshot,
        stage=new.stage_after,
        stage_since=stage_since,
        finished=new.finished,
        acted=tuple(new.acted),
        owing_since=tuple(new.owing_since),
    )
    stages = match_stages(table, match)
    stages[new_match.version] = new.stage_after
    public_events, own_events = shown_after(table, new.events, new.private_to)
    nxt = make_table(
        room,
        new_match,
        table.game,
        state,
        new.events,
        faces,
        stages=stages,
        history=recent_history(table, new_match.version, new.events),
        hidden=hidden_after(table.hidden, match.players, new.private_to),
        private=recent_private(table, new_match.version, new.private_to),
        public_events=public_events,
        own_events=own_events,
    )
    if table.result is None and nxt.result is None:
        # The seed proof of an unfinished match depends on the room record alone (``proof``
        # builds it again if ``room`` is another record).
        nxt._proof = table._proof
    return nxt


def shown_from(table: Table, latest: list[ActionRecord]) -> None:
    """Fill ``table``'s private-step marks and each viewer's latest events from ``latest``:
    the latest public action and the private steps after it, as read from the store."""
    for action in latest:
        table.private[action.version] = action.private_to
    steps = [a for a in latest if a.private_to is not None]
    if steps and steps[-1].version == table.version:
        public = next((a for a in latest if a.private_to is None), None)
        table.public_events = list(public.events) if public is not None else []
    table.own_events = {}
    for step in steps:
        assert step.private_to is not None
        table.own_events[step.private_to] = list(step.events)


class Tables:
    """The rooms and matches this worker holds, and one lock per room for its moves."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._locks: dict[str, asyncio.Lock] = {}
        self._tables: dict[str, Table] = {}
        self._rooms: dict[str, RoomRecord] = {}
        # Other workers' moves as their ``version`` messages brought them, sealed, by room
        # and version: a copy catches up from these without a read (``_catch_up``).
        self.seal = MoveSeal(repo)
        self._heard: dict[str, dict[int, str]] = {}
        # Moves of this worker that lost their commit to another worker's and wait to hear
        # the winner's sealed move (``caught_up``), by room.
        self._hearing: dict[str, asyncio.Future[None]] = {}
        # Rooms whose bus channel this worker hears (sockets open here: app/rooms/hub.py).
        self.listening: set[str] = set()
        # Each room's last move whose commit is out (app/rooms/in_flight.py).
        self.flights: Flights[Table] = Flights()

    def lock(self, code: str) -> asyncio.Lock:
        """The room's lock for applying a move (its commit may still be out after it)."""
        lock = self._locks.get(code)
        if lock is None:
            lock = self._locks[code] = asyncio.Lock()
        return lock

    async def settle(self, code: str) -> None:
        """Inside ``lock``: wait until this worker's moves of the room in flight have answered,
        so what follows starts from the match as committed (the last of them kept if it
        landed)."""
        flight = await self.flights.settled(code)
        if flight is not None:
            self.keep_newer(code, flight.table)

    # -- rooms ------------------------------------------------------------------------------

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

    def forget_all(self) -> None:
        """Drop every copy of a room and match (the bus lost messages: any may be stale)."""
        self._rooms.clear()
        self._tables.clear()
        self._heard.clear()

    def seats_changed(self, code: str) -> None:
        """A seat record of a started match changed here: the next look reads the match."""
        self._tables.pop(code, None)

    async def seat_for(self, code: str, token: str | None) -> tuple[RoomRecord, int | None]:
        """The room and the seat ``token`` holds, from this worker's copy when it knows the
        token (a seat taken through another worker makes it look again)."""
        room = await self.room(code, cached=True)
        if token and room.seat_for_token_hash(hash_token(token)) is None:
            room = await self.room(code)
        return room, seat_of(room, token)

    # -- matches ----------------------------------------------------------------------------

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
        return await self.adopt(code, room, *head)

    def heard(self, code: str, message: dict[str, Any]) -> None:
        """Another worker's ``version`` message for ``code``: keep its sealed move (if any)
        for the catch-up that follows (only this worker's copies' rooms reach here)."""
        sealed, version = message.get("move"), message.get("version")
        if not isinstance(sealed, str) or not isinstance(version, int):
            return
        cached = self._tables.get(code)
        if cached is not None and cached.version >= version:
            return  # this worker's own move (or one it has already)
        heard = self._heard.setdefault(code, {})
        heard[version] = sealed
        if len(heard) > STAGES_KEPT:
            del heard[min(heard)]
        waiting = self._hearing.pop(code, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def caught_up(self, code: str, table: Table, seconds: float) -> Table | None:
        """``table`` brought past its version by the sealed moves of the other workers' commits,
        heard within ``seconds`` (a move that lost its commit to another worker's: the winner's
        message is usually on its way). ``None``: not heard in time, or not replayable."""
        if code not in self.listening:
            return None  # nothing will be heard: no socket of this room is open here
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            latest = self._tables.get(code)
            if (
                latest is not None
                and latest.match.id == table.match.id
                and latest.version > table.version
            ):
                return latest  # already caught up (the fan-out replayed it)
            if await self._heard_head(code, table) is not None:
                caught = await self._catch_up(code, table)
                return caught if caught is not None and caught.version > table.version else None
            left = deadline - loop.time()
            if left <= 0:
                return None
            waiting = self._hearing.get(code)
            if waiting is None or waiting.done():
                waiting = self._hearing[code] = loop.create_future()
            try:
                await asyncio.wait_for(asyncio.shield(waiting), left)
            except TimeoutError:
                return None

    async def _heard_head(self, code: str, cached: Table) -> Head | None:
        """What the database would answer ``_catch_up``, from the sealed moves heard since
        ``cached``'s version, if every one of them was heard and opens."""
        heard = self._heard.get(code)
        if not heard:
            return None
        for version in [v for v in heard if v <= cached.version]:
            del heard[version]
        if cached.version + 1 not in heard or not await self.seal.ready():
            return None
        moves = []
        version = cached.version + 1
        while version in heard:
            opened = self.seal.open(code, heard[version])
            if opened is None or opened.get("version") != version:
                return None
            moves.append(opened)
            version += 1
        return head_of(cached.match.id, moves)

    async def _catch_up(self, code: str, cached: Table) -> Table | None:
        """This worker's copy brought up to date by replaying the actions committed since
        (another worker's moves): from their sealed ``version`` messages when every one was
        heard, else one small read instead of the snapshot. ``None`` when the replay cannot
        be trusted (a gap, a refusal, a different stage): read it all."""
        head = await self._heard_head(code, cached)
        if head is None:
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
        shown = cached
        try:
            for d in done:
                state = game.apply(state, d.seat, d.action).state
                stages[d.version - 1] = d.stage
                history[d.version] = d.events
                # Only the bookkeeping of private steps is carried along, step by step.
                public_events, own_events = shown_after(shown, d.events, d.private_to)
                shown = dataclasses.replace(
                    shown,
                    events=d.events,
                    hidden=hidden_after(shown.hidden, cached.match.players, d.private_to),
                    private=recent_private(shown, d.version, d.private_to),
                    public_events=public_events,
                    own_events=own_events,
                    faces=None,
                    _rendered={},
                )
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
        table = make_table(room, match, game, state, done[-1].events)
        table.stages = {v: st for v, st in stages.items() if v > head.version - STAGES_KEPT}
        table.stages[head.version] = head.stage
        table.history = {v: e for v, e in history.items() if v > head.version - STAGES_KEPT}
        table.hidden, table.private = shown.hidden, shown.private
        table.public_events, table.own_events = shown.public_events, shown.own_events
        self._tables[code] = table
        return table

    async def adopt(
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
        game = find_game(match.game_id)
        state = game.load(match.snapshot)
        match = await self._complete(match, game, state)
        hidden = await self.repo.hidden_steps(match.id, match.version)
        latest = await self.repo.since_public(match.id, match.version)
        table = make_table(room, match, game, state, events)
        if cached is not None and cached.match.id == match.id:
            table.stages = match_stages(cached, cached.match)
            table.history = recent_history(cached, match.version, events)
            table.private = {v: p for v, p in cached.private.items() if v <= cached.version}
        else:
            table.history[match.version] = events
        table.stages[match.version] = match.stage
        table.hidden = tuple(hidden.get(s, 0) for s in range(match.players))
        shown_from(table, latest)
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

    def keep(self, code: str, table: Table) -> None:
        """``table`` is this worker's copy from now on (its own commit)."""
        self._tables[code] = table

    def keep_newer(self, code: str, table: Table) -> None:
        """``table`` is this worker's copy from now on unless it holds a newer version."""
        cached = self._tables.get(code)
        if cached is None or not newer(cached, table):
            self._tables[code] = table

    def cached(self, code: str) -> Table | None:
        """This worker's latest copy, without asking the database (may be behind)."""
        return self._tables.get(code)

    # -- letting go -------------------------------------------------------------------------

    def forget(self, code: str) -> None:
        self._tables.pop(code, None)
        self._rooms.pop(code, None)
        self._heard.pop(code, None)
        waiting = self._hearing.pop(code, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)  # whoever waits to hear a move reads the match instead
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
