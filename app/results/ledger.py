"""The writes of history: a finished match's result rows and the ratings it moves, in one
transaction, exactly once.

"Exactly once" rests on the ``match_results`` primary key (the match id): the transaction
begins by inserting that row with ON CONFLICT DO NOTHING, so of two workers (or a trigger and
a sweep) recording the same match, the second inserts nothing (PostgreSQL makes it wait for
the first to commit or roll back) and stops there. Ratings rows are created if missing, then
read ``FOR UPDATE`` in profile order (PostgreSQL; SQLite has one writer at a time), so two
matches of the same players never both read the old ratings, and never deadlock.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, and_, exists, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.results.finish import SeatHolder
from app.results.ratings import first_rating, rate, rated_places
from app.results.records import FinishedMatch, SkillRating
from app.store.models import (
    ActionRow,
    MatchPlayerRow,
    MatchResultRow,
    MatchRow,
    RatingRow,
    SeatRow,
)


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """What recording a finished match reads: the final snapshot, every event in order, who
    sat where, and when the last action was applied."""

    match_id: int
    room_id: int
    game_id: str
    snapshot: dict[str, Any]
    events: list[dict[str, Any]]
    holders: list[SeatHolder]
    finished_at: float


class Ledger:
    def __init__(self, engine: AsyncEngine) -> None:
        self.dialect = engine.dialect.name
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.readers = async_sessionmaker(
            engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False
        )
        # SQLite: this worker's writers queue here rather than in SQLite's busy handler.
        self._write_lock = asyncio.Lock() if self.dialect == "sqlite" else None

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncSession]:
        async with contextlib.AsyncExitStack() as stack:
            if self._write_lock is not None:
                await stack.enter_async_context(self._write_lock)
            session = await stack.enter_async_context(self.sessions.begin())
            yield session

    def _insert(self, table: Any) -> Insert:
        """INSERT … ON CONFLICT DO NOTHING in this database's dialect."""
        if self.dialect == "postgresql":
            return postgresql.insert(table).on_conflict_do_nothing()
        return sqlite.insert(table).on_conflict_do_nothing()

    async def unrecorded(self, limit: int = 20, skip: list[int] | None = None) -> list[int]:
        """Finished matches without a result row (a worker died before recording, or the
        match ended before history existed), in the order they finished (ratings move in
        that order); ``skip``: matches this worker gave up on."""
        query = (
            select(MatchRow.id)
            .join(
                ActionRow,
                and_(ActionRow.match_id == MatchRow.id, ActionRow.version == MatchRow.version),
            )
            .where(
                MatchRow.finished.is_(True),
                ~exists().where(MatchResultRow.match_id == MatchRow.id),
            )
            .order_by(ActionRow.created_at, MatchRow.id)
            .limit(limit)
        )
        if skip:
            query = query.where(MatchRow.id.not_in(skip))
        async with self.readers() as session:
            return list((await session.execute(query)).scalars().all())

    async def is_recorded(self, match_id: int) -> bool:
        query = select(MatchResultRow.match_id).where(MatchResultRow.match_id == match_id)
        async with self.readers() as session:
            return (await session.execute(query)).first() is not None

    async def load(self, match_id: int) -> StoredMatch | None:
        """The finished match ``match_id`` as recording needs it; ``None`` if it is not over."""
        async with self.readers() as session:
            match = (
                await session.execute(
                    select(
                        MatchRow.room_id, MatchRow.game_id, MatchRow.snapshot,
                        MatchRow.version, MatchRow.finished,
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
            seats = (
                await session.execute(
                    select(
                        SeatRow.seat, SeatRow.name, SeatRow.bot_level, SeatRow.profile_id,
                        SeatRow.former,
                    ).where(SeatRow.room_id == match.room_id)
                )
            ).all()
        return StoredMatch(
            match_id=match_id,
            room_id=match.room_id,
            game_id=match.game_id,
            snapshot=match.snapshot,
            events=[event for step in steps for event in step.events],
            holders=[
                SeatHolder(s.seat, s.name, s.bot_level, s.profile_id, s.former) for s in seats
            ],
            finished_at=steps[-1].created_at if steps else time.time(),
        )

    async def write(self, finished: FinishedMatch) -> bool:
        """Record ``finished`` and move the ratings it moves; ``False`` when it was recorded
        already (by another worker, or an earlier pass)."""
        places = rated_places(finished.seats)
        async with self._write() as session:
            created = await session.execute(
                self._insert(MatchResultRow)
                .values(
                    match_id=finished.match_id,
                    room_id=finished.room_id,
                    game_id=finished.game_id,
                    players=len(finished.seats),
                    finished_at=finished.finished_at,
                    rated=places is not None,
                )
                .returning(MatchResultRow.match_id)
            )
            if created.first() is None:
                return False
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
            if places is not None:
                await self._move_ratings(session, finished.game_id, places)
        return True

    async def _move_ratings(
        self, session: AsyncSession, game_id: str, places: dict[int, int]
    ) -> None:
        now = time.time()
        prior = first_rating()
        profiles = sorted(places)
        await session.execute(
            self._insert(RatingRow).values(
                [
                    {
                        "profile_id": p, "game_id": game_id, "mu": prior.mu,
                        "sigma": prior.sigma, "ordinal": prior.ordinal, "matches": 0,
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
