"""Rooms spread over several PostgreSQL databases (``COVEN_ROOM_DATABASE_URLS``).

Every room's rows — the room, its seed, seats, match, actions and chat — live in one room
database, picked by a stable hash of the room's code when the room is created; everything
that is not one room's (profiles, circles, results, notifications, ...) stays in the default
database (``COVEN_DATABASE_URL``), which also keeps the rooms created before the room
databases were listed.

Which database holds a room is written in its ids: the n-th room database (1-based, in the
order listed) numbers its rooms and matches from ``n × ID_STRIDE + 1`` (its sequences are
bounded to that range, claimed when the worker starts), and the default database's stay
below ``ID_STRIDE``. So every call the room layer makes by room id or match id goes straight
to its database, and a call by code goes to the hashed one (then, for a room it does not
hold, the default and the others: rooms made before a database was appended to the list).
Nothing ever joins two rooms; the few reads over all rooms (the lobby, the bot sweep, the
count) read every database and merge.

This is the ``Repository`` the room layer uses: the same class, each method sent to the
room's own database. The stores beside the room layer that read room rows (results and
ratings, profiles' seats and My tables, rematches, notifications, circles' tables) take a
``RoomDatabases``: which ``Database`` holds a room or match id, and all of them — see
docs/CAPACITY.md, "Rooms in several databases", for what follows and what is not covered.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.fairness.seeds import Secret
from app.store.database import Database
from app.store.db import DEFAULT_POOLS, PoolSizes, make_engine, migrate
from app.store.models import RoomRow
from app.store.moves import Head, LockedMatch, Move
from app.store.repository import (
    ActionRecord,
    ChatRecord,
    Committed,
    MatchRecord,
    NewAction,
    Repository,
    RoomRecord,
)

# Ids of the n-th room database: n × ID_STRIDE + 1 … (n + 1) × ID_STRIDE. The id columns are
# 32-bit integers: 20 room databases of 100 million rooms (and matches) each.
ID_STRIDE = 100_000_000
MAX_ROOM_DATABASES = 20
# The sequences whose numbers say where a room is (the rest need no range: they are never
# looked up without their room or match).
NUMBERED_TABLES = ("rooms", "matches")
# Numbered in the same ranges from the first start that knows it, without refusing a database
# whose older rows are numbered from 1: a seat id is named from the default database (a Web
# Push subscription's ``seat_id``), so it must not mean two seats. Seats made in a room
# database before then keep their low ids (their subscriptions get no push: see
# docs/CAPACITY.md).
RANGED_TABLES = ("seats",)


class RoomDatabaseMismatch(RuntimeError):
    """A listed room database holds ids of another position (the list was reordered)."""


def room_database_index(code: str, count: int) -> int:
    """The room database (0-based) a new room with this code goes to: a hash that is the same
    in every worker and every run (Python's ``hash`` of a str is salted per process)."""
    digest = hashlib.blake2b(code.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


def position_of_id(row_id: int) -> int:
    """0 for the default database, n for the n-th room database."""
    return row_id // ID_STRIDE


async def _sequence_of(conn: Any, table: str) -> tuple[str, tuple[int, int]]:
    """``table``'s id sequence (its name, quoted by PostgreSQL) and its (min, max)."""
    sequence = (
        await conn.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table})
    ).scalar_one()
    low, high = (
        await conn.execute(
            text("SELECT seqmin, seqmax FROM pg_sequence WHERE seqrelid = CAST(:s AS regclass)"),
            {"s": sequence},
        )
    ).one()
    return sequence, (low, high)


async def claim_id_range(engine: AsyncEngine, position: int) -> None:
    """Bound this database's room and match sequences to its position's range (once, while
    it holds no rows of another range); refuse a database that holds another position's."""
    low, high = position * ID_STRIDE + 1, (position + 1) * ID_STRIDE
    async with engine.begin() as conn:
        # One claim at a time across workers starting together.
        await conn.execute(text("SELECT pg_advisory_xact_lock(2024122401)"))
        for table in NUMBERED_TABLES:
            sequence, bounds = await _sequence_of(conn, table)
            if bounds == (low, high):
                continue
            outside = (
                await conn.execute(
                    text(f"SELECT count(*) FROM {table} WHERE id < :low OR id > :high"),
                    {"low": low, "high": high},
                )
            ).scalar_one()
            if outside:
                raise RoomDatabaseMismatch(
                    f"room database {position} holds {table} numbered outside "
                    f"{low}..{high}: COVEN_ROOM_DATABASE_URLS must keep its order (append only)"
                )
            # ``sequence`` comes from PostgreSQL itself, already quoted as an identifier.
            await conn.execute(
                text(
                    f"ALTER SEQUENCE {sequence} MINVALUE {low} MAXVALUE {high} "
                    f"START WITH {low} RESTART WITH {low} NO CYCLE"
                )
            )
        for table in RANGED_TABLES:
            sequence, bounds = await _sequence_of(conn, table)
            if bounds == (low, high):
                continue
            top = (
                await conn.execute(
                    text(f"SELECT max(id) FROM {table} WHERE id BETWEEN :low AND :high"),
                    {"low": low, "high": high},
                )
            ).scalar_one()
            start = low if top is None else top + 1
            await conn.execute(
                text(
                    f"ALTER SEQUENCE {sequence} MINVALUE {low} MAXVALUE {high} "
                    f"START WITH {low} RESTART WITH {start} NO CYCLE"
                )
            )
        # Seats may belong to a profile, whose row lives in the default database only.
        await conn.execute(
            text(
                "DO $$ DECLARE c text; BEGIN "
                "FOR c IN SELECT conname FROM pg_constraint "
                "WHERE conrelid = 'seats'::regclass AND confrelid = 'profiles'::regclass LOOP "
                "EXECUTE format('ALTER TABLE seats DROP CONSTRAINT %I', c); END LOOP; END $$"
            )
        )


def migrate_room_databases(urls: Sequence[str], schema: str | None) -> None:
    """Apply the migrations to every room database (blocking, like ``migrate``)."""
    for url in urls:
        migrate(url, schema)


async def open_room_databases(
    default: AsyncEngine,
    urls: Sequence[str],
    schema: str | None,
    pools: PoolSizes = DEFAULT_POOLS,
) -> Repository:
    """The repository of this deployment: the plain one without room databases, else one
    that sends every room's rows to its own database (each claimed for its position)."""
    if not urls:
        return Repository(default, schema, pools.moves)
    if len(urls) > MAX_ROOM_DATABASES:
        raise ValueError(f"at most {MAX_ROOM_DATABASES} room databases (ids are 32-bit)")
    engines = [make_engine(url, schema, pools) for url in urls]
    try:
        for position, engine in enumerate(engines, start=1):
            await claim_id_range(engine, position)
        await drop_cross_database_keys(default)
    except BaseException:
        for engine in engines:
            await engine.dispose()
        raise
    return RoomShards(
        default,
        schema,
        [Repository(engine, schema, pools.moves) for engine in engines],
        pools.moves,
    )


# The default database's tables whose rows name a room, match or seat that may live in a
# room database (history, circles' tables, notifications): their foreign keys to ``rooms``,
# ``matches`` and ``seats`` cannot hold there (dropped when the room databases are opened; a
# deployment without them keeps every key).
CROSS_DATABASE_KEYS = (
    "match_results",
    "circle_rooms",
    "webhooks",
    "notifications",
    "push_subscriptions",
)


async def drop_cross_database_keys(engine: AsyncEngine) -> None:
    """Drop the default database's foreign keys from ``CROSS_DATABASE_KEYS`` to ``rooms``,
    ``matches`` and ``seats`` (idempotent: a second start finds none)."""
    tables = ",".join(f"'{t}'::regclass" for t in CROSS_DATABASE_KEYS)
    async with engine.begin() as conn:
        await conn.execute(text("SELECT pg_advisory_xact_lock(2024122401)"))
        await conn.execute(
            text(
                "DO $$ DECLARE r record; BEGIN "
                "FOR r IN SELECT conrelid::regclass AS t, conname FROM pg_constraint "
                f"WHERE contype = 'f' AND conrelid IN ({tables}) "
                "AND confrelid IN ('rooms'::regclass, 'matches'::regclass, 'seats'::regclass) "
                "LOOP "
                "EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.t, r.conname); "
                "END LOOP; END $$"
            )
        )


class RoomDatabases:
    """Where rooms' rows are, for the stores beside the room layer (results, ...): without
    room databases ``sharded`` is false and every answer is the default database."""

    def __init__(self, default: Database, by_position: Sequence[Database] = ()) -> None:
        self.default = default
        # By position: 0 the default database (its own rooms), n the n-th room database.
        self.all: list[Database] = list(by_position) or [default]
        self.sharded = len(self.all) > 1

    def of(self, row_id: int) -> Database:
        """The database of this room id or match id."""
        return self.all[position_of_id(row_id)] if self.sharded else self.default

    def grouped(self, ids: Iterable[int]) -> dict[Database, list[int]]:
        """Room or match ids by the database that holds them."""
        found: dict[Database, list[int]] = {}
        for row_id in ids:
            found.setdefault(self.of(row_id), []).append(row_id)
        return found

    async def rooms_columns(self, ids: Iterable[int], *columns: Any) -> dict[int, tuple[Any, ...]]:
        """``columns`` of ``RoomRow`` for these room ids, each read in its room's database (a
        room gone since is missing)."""
        found: dict[int, tuple[Any, ...]] = {}
        for db, room_ids in self.grouped(ids).items():
            async with db.readers() as session:
                query = select(RoomRow.id, *columns).where(RoomRow.id.in_(room_ids))
                found.update((row[0], tuple(row[1:])) for row in await session.execute(query))
        return found

    async def codes(self, ids: Iterable[int]) -> dict[int, str]:
        """Room id → code, each read in its room's database (a room gone since is missing)."""
        return {
            room_id: row[0]
            for room_id, row in (await self.rooms_columns(ids, RoomRow.code)).items()
        }

    def by_code(self, code: str) -> list[Database]:
        """The databases to ask for a room by its code, the likeliest first (its hash's, then
        the default one and the others: rooms made before a database was appended)."""
        if not self.sharded:
            return [self.default]
        hashed = self.all[1 + room_database_index(code, len(self.all) - 1)]
        return [hashed, *(db for db in self.all if db is not hashed)]


def room_databases(repo: Repository) -> RoomDatabases:
    """The ``RoomDatabases`` of the repository ``open_room_databases`` gave."""
    if isinstance(repo, RoomShards):
        return RoomDatabases(repo.db, [r.db for r in repo.by_position])
    return RoomDatabases(repo.db)


class ShardMoves:
    """The move writer of each match's own database (``Repository.moves``)."""

    def __init__(self, repos: list[Repository]) -> None:
        self._repos = repos

    async def commit(self, move: Move) -> bool | None:
        return await self._repos[position_of_id(move.match_id)].moves.commit(move)

    async def head(self, match_id: int, after: int) -> Head | None:
        return await self._repos[position_of_id(match_id)].moves.head(match_id, after)

    async def close(self) -> None:
        for repo in self._repos:
            await repo.moves.close()


class RoomShards(Repository):
    """``Repository`` over the default database and the room databases (see the module)."""

    def __init__(
        self,
        default: AsyncEngine,
        schema: str | None,
        rooms: list[Repository],
        move_pool_size: int = 10,
    ) -> None:
        super().__init__(default, schema, move_pool_size)
        # The default database's own rooms (made before the room databases were listed).
        self._legacy = Repository(default, schema, move_pool_size)
        self._rooms = rooms
        # By position: 0 the default database, n the n-th room database.
        self._by_position: list[Repository] = [self._legacy, *rooms]
        self.moves = ShardMoves(self._by_position)

    @property
    def by_position(self) -> list[Repository]:
        """0 the default database's own rooms, n the n-th room database."""
        return self._by_position

    @property
    def locks_rows(self) -> bool:
        return True  # every room database is PostgreSQL (app/settings.py refuses others)

    @property
    def sends_ahead(self) -> bool:
        return True  # PostgreSQL, each room database with its own group commit

    def send_action(
        self, match: MatchRecord, new: NewAction, after: asyncio.Future[bool | None] | None
    ) -> asyncio.Future[bool | None]:
        return self._at(match.id).send_action(match, new, after)

    def _at(self, row_id: int) -> Repository:
        return self._by_position[position_of_id(row_id)]

    def _hashed(self, code: str) -> Repository:
        return self._rooms[room_database_index(code, len(self._rooms))]

    async def close(self) -> None:
        for repo in self._by_position:
            await repo.close()  # the default database's engine last, with its own rooms

    # -- by code ----------------------------------------------------------------------------

    async def room(self, code: str) -> RoomRecord | None:
        hashed = self._hashed(code)
        found = await hashed.room(code)
        if found is not None:
            return found
        # A room of the default database (made before the room databases), or of a database
        # listed before the last ones were appended (the hash then picked another).
        for repo in self._by_position:
            if repo is hashed:
                continue
            found = await repo.room(code)
            if found is not None:
                return found
        return None

    async def create_room(self, *, code: str, **fields: Any) -> RoomRecord:
        return await self._hashed(code).create_room(code=code, **fields)

    async def recent_chat_by_code(self, code: str, limit: int = 50) -> list[ChatRecord]:
        room = await self.room(code)
        if room is None:
            return []
        return await self._at(room.id).recent_chat(room.id, limit)

    # -- over every database ----------------------------------------------------------------

    async def open_public_rooms(self, limit: int = 100) -> list[RoomRecord]:
        found = await asyncio.gather(*(r.open_public_rooms(limit) for r in self._by_position))
        # Each list is newest first: merge them so, and keep the newest ``limit``.
        merged = heapq.merge(*found, key=lambda room: -room.created_at)
        return [room for _, room in zip(range(limit), merged, strict=False)]

    async def rooms_needing_bots(self) -> list[tuple[str, int, int, float | None]]:
        found = await asyncio.gather(*(r.rooms_needing_bots() for r in self._by_position))
        return [room for rooms in found for room in rooms]

    async def count_rooms(self) -> int:
        return sum(await asyncio.gather(*(r.count_rooms() for r in self._by_position)))

    # -- by room -----------------------------------------------------------------------------

    async def take_seat(self, room: RoomRecord, **fields: Any) -> int | None:
        return await self._at(room.id).take_seat(room, **fields)

    async def free_seat(self, room: RoomRecord, seat: int) -> bool:
        return await self._at(room.id).free_seat(room, seat)

    async def swap_seats(self, room: RoomRecord, one: int, other: int) -> bool:
        return await self._at(room.id).swap_seats(room, one, other)

    async def room_secret(self, room_id: int) -> Secret | None:
        return await self._at(room_id).room_secret(room_id)

    async def set_contribution(self, room: RoomRecord, seat: int, value: str, by: str) -> bool:
        return await self._at(room.id).set_contribution(room, seat, value, by)

    async def set_away(self, room_id: int, seat: int, away: bool, level: str | None = None) -> None:
        await self._at(room_id).set_away(room_id, seat, away, level)

    async def hand_over_for_good(
        self, room_id: int, seat: int, level: str, match_version: int
    ) -> bool:
        return await self._at(room_id).hand_over_for_good(room_id, seat, level, match_version)

    async def take_seat_back(self, room_id: int, seat: int) -> bool:
        return await self._at(room_id).take_seat_back(room_id, seat)

    async def start_match(self, room: RoomRecord, **fields: Any) -> MatchRecord | None:
        return await self._at(room.id).start_match(room, **fields)

    async def match(self, room_id: int) -> MatchRecord | None:
        return await self._at(room_id).match(room_id)

    async def match_head(self, room_id: int) -> tuple[MatchRecord, list[dict[str, Any]]] | None:
        return await self._at(room_id).match_head(room_id)

    async def add_chat(self, room_id: int, seat: int | None, name: str, text: str) -> ChatRecord:
        return await self._at(room_id).add_chat(room_id, seat, name, text)

    async def recent_chat(self, room_id: int, limit: int = 50) -> list[ChatRecord]:
        return await self._at(room_id).recent_chat(room_id, limit)

    # -- by match ----------------------------------------------------------------------------

    async def restart_clock(
        self, match: MatchRecord, seat: int, now: float, turn_seconds: float | None
    ) -> bool:
        return await self._at(match.id).restart_clock(match, seat, now, turn_seconds)

    async def action_by_client_id(self, match_id: int, client_id: str) -> ActionRecord | None:
        return await self._at(match_id).action_by_client_id(match_id, client_id)

    async def action_at(self, match_id: int, version: int) -> ActionRecord | None:
        return await self._at(match_id).action_at(match_id, version)

    async def last_acted(self, match_id: int, seat: int) -> int:
        return await self._at(match_id).last_acted(match_id, seat)

    async def actions(self, match_id: int) -> list[ActionRecord]:
        return await self._at(match_id).actions(match_id)

    async def actions_between(self, match_id: int, after: int, upto: int) -> list[ActionRecord]:
        return await self._at(match_id).actions_between(match_id, after, upto)

    async def hidden_steps(self, match_id: int, upto: int) -> dict[int, int]:
        return await self._at(match_id).hidden_steps(match_id, upto)

    async def visible_actions(
        self, match_id: int, viewer: int | None, after: int, upto: int
    ) -> list[ActionRecord]:
        return await self._at(match_id).visible_actions(match_id, viewer, after, upto)

    async def since_public(self, match_id: int, upto: int) -> list[ActionRecord]:
        return await self._at(match_id).since_public(match_id, upto)

    async def commit_action(
        self, match: MatchRecord, new: NewAction, locked: LockedMatch | None = None
    ) -> Committed | None:
        return await self._at(match.id).commit_action(match, new, locked)

    @contextlib.asynccontextmanager
    async def locked_match(
        self, match_id: int
    ) -> AsyncIterator[tuple[LockedMatch, tuple[MatchRecord, list[dict[str, Any]]] | None]]:
        async with self._at(match_id).locked_match(match_id) as held:
            yield held
