"""The writes of history: a finished match's result rows, its players' running totals and the
ratings it moves, in one transaction, exactly once.

"Exactly once" rests on the ``match_results`` primary key (the match id): the transaction
begins by inserting that row with ON CONFLICT DO NOTHING, so of two workers (or a trigger and
a sweep) recording the same match, the second inserts nothing (PostgreSQL makes it wait for
the first to commit or roll back) and stops there. The same transaction sets
``matches.recorded``, which takes the match out of the sweep's partial index.

Who sat where is read inside that transaction, after the result row, with the room's seats
locked ``FOR SHARE`` in id order: a claim (``app/profiles/claims.py``) locks the seats it
takes ``FOR UPDATE`` in id order before it gives their recorded matches to the profile. So
either the claim committed first and this transaction reads its profile (PostgreSQL waits
for the claim's lock, then reads the row as the claim left it; on SQLite the claim's write
came before this one's), or the claim waits for this commit and then finds the match's rows
to give her. A claim can never fall between the read of the seats and the write of the rows.

With room databases (``app/store/room_shards.py``) the match and its seats are in the room's
database and history in the default one: the recording transaction there runs inside a
transaction on the room's database that holds the seats ``FOR SHARE`` until history has
committed, and marks the match ``recorded`` after it (a crash between the two leaves the mark
unset: the sweep finds the match, its result row is there already, and it only marks it). A
claim of those seats locks them the same way around its own write of history, so the two
still never miss each other.

Totals and ratings rows are created if missing, then read ``FOR UPDATE`` in profile order
(PostgreSQL; SQLite has one writer at a time), so two matches of the same players never both
read the old values, and never deadlock.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.results import totals
from app.results.finish import SeatHolder, seated
from app.results.ratings import first_rating, rate, rated_places
from app.results.records import FinishedMatch, MatchOutcome, SkillRating
from app.store.database import Database, insert_ignoring
from app.store.models import (
    UNRECORDED,
    ActionRow,
    MatchPlayerRow,
    MatchResultRow,
    MatchRow,
    RatingRow,
    SeatRow,
)
from app.store.room_shards import RoomDatabases


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """What recording a finished match reads before its transaction: the final snapshot, every
    event in order, and when the last action was applied (who sat where is read inside it)."""

    match_id: int
    room_id: int
    game_id: str
    snapshot: dict[str, Any]
    events: list[dict[str, Any]]
    finished_at: float


class Ledger:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        self.dialect = db.dialect
        self.readers = db.readers
        # Where matches and seats are: ``db`` itself unless room databases are listed.
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    def _write(self) -> contextlib.AbstractAsyncContextManager[AsyncSession]:
        return self.db.write()

    async def unrecorded(self, limit: int = 20, skip: list[int] | None = None) -> list[int]:
        """Finished matches not recorded yet (a worker died before recording, or the match
        ended before history existed), in the order they finished (ratings move in that
        order); ``skip``: matches this worker gave up on."""
        if self.rooms is not None:
            return await self._unrecorded_everywhere(self.rooms, limit, skip)
        async with self.readers() as session:
            return list((await session.execute(self.unrecorded_query(limit, skip))).scalars())

    @classmethod
    async def _unrecorded_everywhere(
        cls, rooms: RoomDatabases, limit: int, skip: list[int] | None
    ) -> list[int]:
        """Each database's first ``limit``, merged in the order they finished."""
        query = cls.unrecorded_query(limit, skip).add_columns(ActionRow.created_at)

        async def of(db: Database) -> list[tuple[float, int]]:
            async with db.readers() as session:
                return [(at, match_id) for match_id, at in await session.execute(query)]

        found = await asyncio.gather(*(of(db) for db in rooms.all))
        merged = heapq.merge(*found)
        return [match_id for _, (_, match_id) in zip(range(limit), merged, strict=False)]

    @staticmethod
    def unrecorded_query(limit: int, skip: list[int] | None) -> Select[int]:
        """One range of the partial index ``ix_matches_unrecorded``, which holds only those
        matches: its cost does not grow with the matches ever finished."""
        query = (
            select(MatchRow.id)
            .join(
                ActionRow,
                and_(ActionRow.match_id == MatchRow.id, ActionRow.version == MatchRow.version),
            )
            .where(UNRECORDED)
            .order_by(ActionRow.created_at, MatchRow.id)
            .limit(limit)
        )
        if skip:
            query = query.where(MatchRow.id.not_in(skip))
        return query

    async def is_recorded(self, match_id: int) -> bool:
        query = select(MatchResultRow.match_id).where(MatchResultRow.match_id == match_id)
        async with self.readers() as session:
            return (await session.execute(query)).first() is not None

    async def load(self, match_id: int) -> StoredMatch | None:
        """The finished match ``match_id`` as recording needs it; ``None`` if it is not over."""
        readers = self.readers if self.rooms is None else self.rooms.of(match_id).readers
        async with readers() as session:
            match = (
                await session.execute(
                    select(
                        MatchRow.room_id,
                        MatchRow.game_id,
                        MatchRow.snapshot,
                        MatchRow.version,
                        MatchRow.finished,
                    ).where(MatchRow.id == match_id)
                )
            ).first()
            if match is None or not match.finished:
                return None
            steps = (
                await session.execute(
                    select(ActionRow.events, ActionRow.created_at)
                    .where(ActionRow.match_id == match_id, ActionRow.version <= match.version)
                    .order_by(ActionRow.version)
                )
            ).all()
        return StoredMatch(
            match_id=match_id,
            room_id=match.room_id,
            game_id=match.game_id,
            snapshot=match.snapshot,
            events=[event for step in steps for event in step.events],
            finished_at=steps[-1].created_at if steps else time.time(),
        )

    async def write(self, outcome: MatchOutcome) -> FinishedMatch | None:
        """Record ``outcome`` with who holds its seats now, add to its players' totals and move
        the ratings it moves; the match as written, or ``None`` when it was recorded already
        (by another worker, or an earlier pass)."""
        if self.rooms is not None:
            return await self._write_beside(outcome, self.rooms.of(outcome.match_id))
        async with self._write() as session:
            created = await session.execute(self._result_row(outcome))
            if created.first() is None:
                # Recorded already. A result row written without the mark (by hand, or a tool
                # that copies rows in) would keep the match in the sweep's range: mark it.
                await session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == outcome.match_id, MatchRow.recorded.is_(False))
                    .values(recorded=True)
                )
                return None
            finished = seated(outcome, await self._holders(session, outcome.room_id))
            await session.execute(
                update(MatchRow).where(MatchRow.id == finished.match_id).values(recorded=True)
            )
            await self._history(session, finished)
        return finished

    async def _write_beside(self, outcome: MatchOutcome, rooms: Database) -> FinishedMatch | None:
        """``write`` for a match in a room database: history in the default database, inside
        the room's transaction that holds its seats (see the module's docstring)."""
        async with rooms.write() as room_session:
            holders = await self._holders(room_session, outcome.room_id)
            async with self._write() as session:
                created = await session.execute(self._result_row(outcome))
                finished = None
                if created.first() is not None:
                    finished = seated(outcome, holders)
                    await self._history(session, finished)
            await room_session.execute(
                update(MatchRow)
                .where(MatchRow.id == outcome.match_id, MatchRow.recorded.is_(False))
                .values(recorded=True)
            )
        return finished

    def _result_row(self, outcome: MatchOutcome) -> Any:
        """The match's result row, written unless it is there already (returns its id when
        written)."""
        return (
            insert_ignoring(self.dialect, MatchResultRow)
            .values(
                match_id=outcome.match_id,
                room_id=outcome.room_id,
                game_id=outcome.game_id,
                players=len(outcome.seats),
                finished_at=outcome.finished_at,
                rated=False,
            )
            .returning(MatchResultRow.match_id)
        )

    async def _history(self, session: AsyncSession, finished: FinishedMatch) -> None:
        """The match's rows, its players' totals and ratings (its result row is written)."""
        places = rated_places(finished.seats)
        if places is not None:
            await session.execute(
                update(MatchResultRow)
                .where(MatchResultRow.match_id == finished.match_id)
                .values(rated=True)
            )
        await session.execute(
            insert(MatchPlayerRow),
            [
                {
                    "match_id": finished.match_id,
                    "seat": s.seat,
                    "profile_id": s.profile_id,
                    "name": s.name,
                    "bot_level": s.bot_level,
                    "former": s.former,
                    "place": s.place,
                    "score": s.score,
                    "stats": s.stats,
                    "game_id": finished.game_id,
                    "finished_at": finished.finished_at,
                }
                for s in finished.seats
            ],
        )
        await totals.add(
            session,
            self.dialect,
            [
                totals.PlayedSeat(s.profile_id, finished.game_id, s.place, s.stats)
                for s in finished.seats
                if s.profile_id is not None
            ],
        )
        if places is not None:
            await self._move_ratings(session, finished.game_id, places)

    async def _holders(self, session: AsyncSession, room_id: int) -> list[SeatHolder]:
        """Who holds the room's seats, read in the recording transaction with the seats locked
        against a claim until it commits (see the module's docstring)."""
        rows = await session.execute(
            select(
                SeatRow.seat, SeatRow.name, SeatRow.bot_level, SeatRow.profile_id, SeatRow.former
            )
            .where(SeatRow.room_id == room_id)
            .order_by(SeatRow.id)
            .with_for_update(read=True)
        )
        return [SeatHolder(s.seat, s.name, s.bot_level, s.profile_id, s.former) for s in rows]

    async def _move_ratings(
        self, session: AsyncSession, game_id: str, places: dict[int, int]
    ) -> None:
        now = time.time()
        prior = first_rating()
        profiles = sorted(places)
        await session.execute(
            insert_ignoring(self.dialect, RatingRow).values(
                [
                    {
                        "profile_id": p,
                        "game_id": game_id,
                        "mu": prior.mu,
                        "sigma": prior.sigma,
                        "ordinal": prior.ordinal,
                        "matches": 0,
                        "updated_at": now,
                    }
                    for p in profiles
                ]
            )
        )
        rows = (
            (
                await session.execute(
                    select(RatingRow)
                    .where(and_(RatingRow.game_id == game_id, RatingRow.profile_id.in_(profiles)))
                    .order_by(RatingRow.profile_id)
                    .with_for_update()
                )
            )
            .scalars()
            .all()
        )
        before = {r.profile_id: SkillRating(r.mu, r.sigma, r.matches) for r in rows}
        after = rate(before, places)
        for row in rows:
            new = after[row.profile_id]
            row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal
            row.matches, row.updated_at = new.matches, now
