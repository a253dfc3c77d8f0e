"""The move path: a seat's action → the version guard → ``game.apply`` → one version-guarded
commit → publish → notices.

Humans over HTTP, humans over WebSocket, bots and the turn clock all come through
``Moves.act``. Nothing is acknowledged before it commits; a repeat of an applied
``client_id`` gets the same acknowledgement (``duplicate``); when another worker moved the
match first, the move is re-validated against the match as it is now.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from app.bus import Bus, MemoryBus
from app.clock import Clock, due_at
from app.errors import CovenError
from app.observability import metrics, move_watch, tracing
from app.rooms.in_flight import Flight
from app.rooms.keys import room_channel
from app.rooms.notices import Moved, Notices
from app.rooms.private_steps import Faces, private_to
from app.rooms.sealed_moves import sealed_fields
from app.rooms.tables import Table, Tables, newer, next_table
from app.store.group_commit import landed
from app.store.repository import (
    ClientIdTaken,
    Committed,
    MatchRecord,
    NewAction,
    Repository,
    landed_action,
    stage_since_after,
)
from engine.protocol import Action, IllegalAction, Step, public_events

# Tries of one move against other workers' commits before it answers ``busy``.
MAX_RETRIES = 8
# A move that lost its commit to another worker's first waits this long to hear the winner's
# sealed move and replays it (no read), at most this many times, before it reads the match
# holding its row.
HEAR_WAIT = 0.25
HEARD_TRIES = 2

# Bots and the turn clock submit under this prefix; a person's client_id may not start with
# it, so a person can never take the id a bot will use (and make the bot's move look like a
# duplicate of theirs, or refuse it as another seat's).
BOT_PREFIX = "bot:"


def bot_client_id(seat: int, version: int) -> str:
    """A bot's submission id at its seat's ``version`` (its own numbering, which another seat's
    private step does not move; ``@``, not the ``:`` of ids that named match versions)."""
    return f"{BOT_PREFIX}{seat}@{version}"


def bot_seed(match_seed: int, seat: int, version: int) -> int:
    """The same (match, seat, version) always makes the same bot choice, so two workers that
    both play a bot's turn submit the same action under the same client_id."""
    digest = hashlib.sha256(f"{match_seed}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


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


class Moves:
    def __init__(
        self, repo: Repository, bus: Bus, tables: Tables, notices: Notices, clock: Clock
    ) -> None:
        self.clock = clock
        self.repo = repo
        self.bus = bus
        self.tables = tables
        self.notices = notices

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
        since = move_watch.arrived()
        if not tracing.enabled():
            return await self._act(code, seat, action, client_id, version, by_bot, since)
        attributes = {"coven.room": code, "coven.seat": -1 if seat is None else seat}
        with tracing.span("coven.move", {**attributes, "coven.by_bot": by_bot}):
            return await self._act(code, seat, action, client_id, version, by_bot, since)

    async def _act(
        self,
        code: str,
        seat: int | None,
        action: Any,
        client_id: str,
        version: int | None,
        by_bot: bool,
        since: float,
    ) -> Ack:
        if seat is None:
            raise CovenError("spectator", "spectators cannot act; join the room to take a seat")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise CovenError("unknown_action", "an action is a JSON object with a 'type'")
        if not by_bot and client_id.startswith(BOT_PREFIX):
            raise CovenError(
                "reserved_client_id", f"client_ids starting with {BOT_PREFIX!r} are the bots'"
            )
        if self.repo.sends_ahead:
            ack = await self._ahead(code, seat, action, client_id, version, by_bot, since)
            if ack is not None:
                return ack
        async with self.tables.lock(code):
            await self.tables.settle(code)
            # Optimistic: start from this worker's copy (current unless another worker
            # committed); the version-guarded UPDATE is what guarantees correctness. A refusal
            # is only given after checking it against the database.
            table = self.tables.cached(code)
            verified = table is None
            if table is None:
                table = await self.tables.table(code)
            hear = 0 if isinstance(self.bus, MemoryBus) else HEARD_TRIES
            for _ in range(MAX_RETRIES):
                match = table.match
                try:
                    new, step, faces = await self._apply(
                        table, seat, action, client_id, version, by_bot
                    )
                except CovenError:
                    twin = await self._twin(match.id, seat, client_id, action, by_bot)
                    if twin is not None:
                        return twin
                    if verified:
                        raise
                    table, verified = await self.tables.table(code, fresh=True), True
                    continue
                move_watch.stage("applied", since)
                try:
                    with tracing.span("coven.move.commit"):
                        committed = await self.repo.commit_action(match, new)
                except ClientIdTaken:
                    twin = await self._twin(match.id, seat, client_id, action, by_bot)
                    if twin is not None:
                        return twin
                    committed = None
                except Exception:
                    metrics.store_error()
                    raise
                if committed is None and hear > 0:
                    hear -= 1
                    caught = await self.tables.caught_up(code, table, HEAR_WAIT)
                    if caught is not None:
                        metrics.lost_commit("replayed")
                        table, verified = caught, False
                        continue
                if committed is None and self.repo.locks_rows:
                    metrics.lost_commit("locked")
                    # Another worker moved the match first: wait for the match row, then
                    # re-validate and commit holding it (this cannot lose again).
                    locked = await self._act_locked(
                        code, table, seat, action, client_id, version, by_bot
                    )
                    if isinstance(locked, Ack):
                        return locked
                    table, match, new, step, faces, committed = locked
                if committed is None:
                    # Another worker moved the match first: reload, re-validate, retry.
                    metrics.lost_commit("read")
                    table, verified = await self.tables.table(code, fresh=True), True
                    continue
                came_back = committed.came_back
                room = await self.tables.room(code) if came_back else table.room
                table = next_table(table, room, new, step.state, committed.stage_since, faces)
                self.tables.keep(code, table)
                break
            else:
                raise CovenError("busy", "the table is very busy; try again")
        return await self._announce(
            code, seat, client_id, by_bot, match, new, table, came_back, since
        )

    async def _ahead(
        self,
        code: str,
        seat: int,
        action: dict[str, Any],
        client_id: str,
        version: int | None,
        by_bot: bool,
        since: float,
    ) -> Ack | None:
        """The move applied after the room's moves in flight and sent behind them, the lock
        let go while its commit is out (app/rooms/in_flight.py). ``None``: not taken this way
        (a refusal to check against the committed match, a commit that did not land, a copy
        to read first); the careful way follows."""
        flights = self.tables.flights
        async with self.tables.lock(code):
            last = flights.last(code)
            if last is not None and last.sent.done() and not landed(last.sent):
                return None
            cached = self.tables.cached(code)
            table = cached
            if last is not None and (
                cached is None or not last.sent.done() or newer(last.table, cached)
            ):
                table = last.table  # in flight, or landed and not yet taken in
            if table is None:
                return None
            # An older ``version`` is judged in memory here (the marks and stages of the
            # versions in flight are the table's own); a refusal goes the careful way.
            after = last.sent if last is not None and not last.sent.done() else None
            match = table.match
            try:
                new, step, faces = await self._apply(
                    table, seat, action, client_id, version, by_bot
                )
            except CovenError:
                return None
            move_watch.stage("applied", since)
            sent = self.repo.send_action(match, new, after)
            stage_since = stage_since_after(match, new)
            flight = Flight(
                next_table(table, table.room, new, step.state, stage_since, faces), sent
            )
            flights.add(code, flight)
        try:
            with tracing.span("coven.move.commit"):
                committed = await landed_action(match, new, sent)
        except ClientIdTaken:
            committed = None  # the careful way finds the twin
        except Exception:
            flights.done(code, flight)
            metrics.store_error()
            raise
        if committed is None:
            flights.done(code, flight)
            if after is not None:
                metrics.move_behind("careful")
            return None
        if after is not None:
            metrics.move_behind("landed")
        ahead = flight.table
        if committed.came_back:
            room = await self.tables.room(code)
            ahead = next_table(table, room, new, step.state, stage_since, faces)
        self.tables.keep_newer(code, ahead)
        flights.done(code, flight)
        return await self._announce(
            code, seat, client_id, by_bot, match, new, ahead, committed.came_back, since
        )

    async def _announce(
        self,
        code: str,
        seat: int,
        client_id: str,
        by_bot: bool,
        match: MatchRecord,
        new: NewAction,
        table: Table,
        came_back: bool,
        since: float,
    ) -> Ack:
        """A committed move told: to the sockets and the other workers (the bus), to the
        notices; its acknowledgement."""
        move_watch.stage("committed", since)
        metrics.move_committed(table.room.game_id)
        move_watch.published(code, table.room.game_id, match.version + 1, since)
        message: dict[str, Any] = {
            "type": "version",
            "version": match.version + 1,
            "events": public_events(new.events),
        }
        seal = self.tables.seal
        if not isinstance(self.bus, MemoryBus) and (seal.loaded or await seal.ready()):
            # The other workers replay the move from this, with no read (sealed: it holds
            # the action and its private events).
            fields = sealed_fields(match.id, match.version + 1, new, table.match.stage_since)
            message["move"] = seal.seal(code, fields)
        await self.bus.publish(room_channel(code), message)
        if came_back:
            await self.bus.publish(room_channel(code), {"type": "room"})
        elif new.finished:
            # Only the room's status changed: every worker updates its copy, no reload.
            await self.bus.publish(room_channel(code), {"type": "room", "status": "finished"})
        self.notices.changed(code)
        self.notices.moved(Moved(code, seat, by_bot, table))
        return Ack(client_id, table.version_for(seat))

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: dict[str, Any],
        client_id: str,
        version: int | None,
        by_bot: bool,
    ) -> tuple[NewAction, Step, Faces]:
        with tracing.span("coven.move.apply"):
            match = table.match
            if table.result is not None or match.finished:
                raise CovenError("match_over", "the match is over")
            record = table.room.seat(seat)
            if not by_bot and record is not None and record.for_good:
                raise CovenError("seat_handed_over", "a bot plays this seat for good", 409)
            await self._check_version(table, seat, version)
            # An undo may come from a seat that owes nothing (its hidden choice made): the
            # engine judges.
            if seat not in table.to_move and action.get("type") != "undo":
                raise CovenError("not_your_turn", f"seat {seat} owes no decision now")
            try:
                step = table.game.apply(table.state, seat, action)
            except IllegalAction as exc:
                raise CovenError.from_illegal(exc) from None
            assert match.acted is not None and match.owing_since is not None  # see Tables.adopt
            acted = list(match.acted)
            acted[seat] = match.version + 1
            back = frozenset({seat}) if not by_bot and record is not None and record.away else None
            now = self.clock.now()
            faces = Faces(table.game, step.state, table.game.to_move(step.state))
            # A seat taken back from a bot is news to everyone (presence, its clock): never
            # private.
            private = (
                None
                if back
                else private_to(table.game, table.face(), faces, seat, step.events, match.players)
            )
            owing = owing_after(
                table.to_move,
                faces.to_move,
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
                due_at=due_at(owing, table.room.turn_seconds),
                private_to=private,
            )
            return new, step, faces

    async def _act_locked(
        self,
        code: str,
        table: Table,
        seat: int,
        action: dict[str, Any],
        client_id: str,
        version: int | None,
        by_bot: bool,
    ) -> Ack | tuple[Table, MatchRecord, NewAction, Step, Faces, Committed]:
        """The move again, holding the match row (PostgreSQL): the match as it is now, the
        action re-validated against it, the commit inside the same transaction. A refusal
        here is a real one (checked against the committed state)."""
        refused: CovenError | None = None
        async with self.repo.locked_match(table.match.id) as (locked, head):
            if head is None:
                raise CovenError("not_started", "the match has not started yet")
            fresh = await self.tables.adopt(code, table.room, *head)
            match = fresh.match
            try:
                new, step, faces = await self._apply(
                    fresh, seat, action, client_id, version, by_bot
                )
            except CovenError as exc:
                refused = exc
            else:
                try:
                    committed = await self.repo.commit_action(match, new, locked)
                except ClientIdTaken:
                    refused = CovenError("client_id_taken", "this client_id was used")
                except Exception:
                    metrics.store_error()
                    raise
                else:
                    if committed is None:  # cannot happen: the row is held
                        raise CovenError("busy", "the table is very busy; try again")
                    return fresh, match, new, step, faces, committed
        twin = await self._twin(table.match.id, seat, client_id, action, by_bot)
        if twin is not None:
            return twin
        raise refused

    async def _twin(
        self, match_id: int, seat: int, client_id: str, action: dict[str, Any], by_bot: bool
    ) -> Ack | None:
        """The acknowledgement of an already-applied submission with this client_id: the same
        action again is a ``duplicate``; another action under it is refused, never taken for
        the first one (a client that reuses ids must hear that its move was not played). A
        bot's id names its turn, so whatever it chose there stands (a thinking bot on two
        workers may choose differently)."""
        twin = await self.repo.action_by_client_id(match_id, client_id)
        if twin is None:
            return None
        if twin.seat != seat:
            raise CovenError("client_id_taken", "another seat used this client_id")
        if not by_bot and twin.action != action:
            raise CovenError(
                "client_id_reused",
                f"this client_id was used for another action (version {twin.version}); "
                "send a new client_id for a new action",
            )
        # In the seat's own numbering: the versions up to it less the others' private steps.
        hidden = await self.repo.hidden_steps(match_id, twin.version)
        others = sum(n for s, n in hidden.items() if s != seat)
        return Ack(client_id, twin.version - others, duplicate=True)

    async def _check_version(self, table: Table, seat: int, version: int | None) -> None:
        """An older version is accepted only from a seat that has not acted since it, and only
        while the match is still in the stage it was in then: two players choosing at once
        never see stale_version, and a sub-action sent twice (two tabs, a retry under a new
        client_id) never applies twice. No version: checked against the current state only.

        ``version`` is in the seat's own numbering (app/rooms/private_steps.py): another
        seat's private steps since do not make it old."""
        current = table.version_for(seat)
        if version is None or version == current:
            return
        if version > current or version < 0:
            raise CovenError("bad_version", f"version {version} is ahead of the match ({current})")
        seen = await self._match_version(table, seat, version)
        assert table.match.acted is not None  # see Tables.adopt
        if table.match.acted[seat] > seen:
            raise CovenError(
                "stale_version",
                f"seat {seat} has acted since version {version} (now {current}); re-sync and retry",
            )
        stage = table.stages.get(seen)
        if stage is None:
            after = await self.repo.action_at(table.match.id, seen + 1)
            stage = after.stage if after is not None else None
        if stage != table.match.stage:
            raise CovenError(
                "stale_version",
                f"the table moved on since version {version} (now {current}); re-sync and retry",
            )

    async def _match_version(self, table: Table, seat: int, version: int) -> int:
        """The latest match version ``seat`` saw as her ``version`` (older than her current
        one): just before the next action visible to her."""
        match_version, counted = table.version, table.version_for(seat)
        while counted > version and match_version in table.private:
            marked = table.private[match_version]
            if marked is None or marked == seat:
                counted -= 1
            match_version -= 1
        if counted == version:
            return match_version
        found = await self.repo.visible_actions(table.match.id, seat, version, version + 1)
        return found[0].version - 1 if found else table.version

    async def bot_act(
        self, code: str, table: Table, seat: int, action: Action, client_id: str | None = None
    ) -> Ack:
        """Submit a bot's (or the turn clock's stand-in's) choice, made at ``table``'s version
        from ``seat``'s view, under the bots' client_id namespace."""
        seen = table.version_for(seat)
        return await self.act(
            code, seat, action, client_id or bot_client_id(seat, seen), seen, by_bot=True
        )
