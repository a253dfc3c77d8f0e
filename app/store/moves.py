"""One move's transaction, in plain SQL straight on the driver (the hot path of the server).

A move is: the version-guarded UPDATE of the match, the action row, and (for a person's move)
taking the seat back from a bot, plus the room's status when the match ends. Building these
through SQLAlchemy cost more than executing them (statement building, cache keys, coercion,
a thread hop on SQLite), so they are written once here as SQL text with parameters:

- **SQLite**: a plain ``sqlite3`` connection, committed on the event loop's own thread (a WAL
  commit at ``synchronous=NORMAL`` writes the log and does not fsync; it survives a killed
  process). Its busy timeout is 0: if another *process* holds the write lock (a second worker
  on the same file, ``coven migrate``), the move is committed on a writer thread that waits
  for the lock instead of the loop. Checkpoints run on that thread too, so the loop never
  copies the log into the database file.
- **PostgreSQL**: one statement per move (data-modifying CTEs), autocommitted, over asyncpg's
  own pool with its prepared-statement cache: one round trip; moves that arrive together share
  one statement and one commit (``app/store/group_commit.py``). When another worker moved the
  match first, ``locked`` takes the match row ``FOR UPDATE`` so the retry cannot lose again.

Nothing is acknowledged before ``commit`` returns: the contract stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import URL

from app import wire
from app.store.group_commit import PG_MOVES, GroupCommit


@dataclass(frozen=True, slots=True)
class Move:
    """What one move writes (the repository fills it from the match and the new action)."""

    match_id: int
    room_id: int
    seen: int  # the version the move was applied to; it produces seen + 1
    snapshot: dict[str, Any]
    stage_before: str
    stage_after: str
    stage_since: float
    finished: bool
    acted: list[int]
    owing_since: list[float | None]
    due_at: float | None  # the earliest turn clock's end (``MatchRow.due_at``)
    seat: int
    action: dict[str, Any]
    client_id: str
    events: list[dict[str, Any]]
    by_bot: bool
    clear_away: bool
    at: float
    private_to: int | None = None  # a private step's seat (app/rooms/private_steps.py)


@dataclass(frozen=True, slots=True)
class Done:
    """One committed action, as a worker replays it to catch up."""

    version: int
    seat: int
    action: dict[str, Any]
    stage: str  # the stage it was applied in
    events: list[dict[str, Any]]
    private_to: int | None = None


@dataclass(frozen=True, slots=True)
class Head:
    """The match row without its snapshot, and the actions after a given version."""

    version: int
    stage: str
    stage_since: float
    finished: bool
    acted: list[int] | None
    owing_since: list[float | None] | None
    done: list[Done]


class ClientIdCollision(Exception):
    """The (match, client_id) key is taken: the same submission landed first."""


class MoveWriter(Protocol):
    async def commit(self, move: Move) -> bool | None:
        """``None``: the match is no longer at ``move.seen`` (nothing written); else whether
        the mover's seat was taken back from a bot."""
        ...

    async def head(self, match_id: int, after: int) -> Head | None:
        """The match without its snapshot, and every action after version ``after``: what a
        worker needs to replay the moves another worker committed (one read)."""
        ...

    async def close(self) -> None: ...


class LockedMatch(Protocol):
    """The match row held ``FOR UPDATE`` (no other writer can move it) until the block ends."""

    row: dict[str, Any] | None  # the match columns and the current version's events

    async def commit(self, move: Move) -> bool: ...


# -- SQLite ----------------------------------------------------------------------------------

SQLITE_UPDATE_MATCH = (
    "UPDATE matches SET version = ?, snapshot = ?, stage = ?, stage_since = ?, finished = ?,"
    " acted = ?, owing_since = ?, due_at = ? WHERE id = ? AND version = ?"
)
SQLITE_INSERT_ACTION = (
    "INSERT INTO actions (match_id, version, seat, action, client_id, stage, events, by_bot,"
    " created_at, private_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SQLITE_SEAT_BACK = (
    "UPDATE seats SET away = 0, away_level = NULL"
    " WHERE room_id = ? AND seat = ? AND away = 1 AND for_good = 0"
)
SQLITE_FINISH_ROOM = "UPDATE rooms SET status = 'finished' WHERE id = ?"
SQLITE_HEAD = (
    "SELECT version, stage, stage_since, finished, acted, owing_since FROM matches WHERE id = ?"
)
SQLITE_DONE = (
    "SELECT version, seat, action, stage, events, private_to FROM actions"
    " WHERE match_id = ? AND version > ? AND version <= ? ORDER BY version"
)
CHECKPOINT_EVERY = 500  # commits between two passive checkpoints on the writer thread


def _sqlite_connection(path: str, busy_ms: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA busy_timeout={busy_ms}")
    return conn


def _sqlite_write(conn: sqlite3.Connection, move: Move) -> bool | None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        moved = conn.execute(
            SQLITE_UPDATE_MATCH,
            (
                move.seen + 1,
                wire.dumps(move.snapshot),
                move.stage_after,
                move.stage_since,
                int(move.finished),
                wire.dumps(move.acted),
                wire.dumps(move.owing_since),
                move.due_at,
                move.match_id,
                move.seen,
            ),
        ).rowcount
        if moved != 1:
            conn.execute("ROLLBACK")
            return None
        conn.execute(
            SQLITE_INSERT_ACTION,
            (
                move.match_id,
                move.seen + 1,
                move.seat,
                wire.dumps(move.action),
                move.client_id,
                move.stage_before,
                wire.dumps(move.events),
                int(move.by_bot),
                move.at,
                move.private_to,
            ),
        )
        came_back = (
            move.clear_away
            and conn.execute(SQLITE_SEAT_BACK, (move.room_id, move.seat)).rowcount > 0
        )
        if move.finished:
            conn.execute(SQLITE_FINISH_ROOM, (move.room_id,))
        conn.execute("COMMIT")
        return came_back
    except sqlite3.IntegrityError as exc:
        conn.execute("ROLLBACK")
        raise ClientIdCollision(move.client_id) from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


class SqliteMoves:
    """Moves on the loop thread; on the writer thread only when another process writes."""

    def __init__(self, url: URL) -> None:
        path = url.database or ":memory:"
        self._loop_conn = _sqlite_connection(path, busy_ms=0)
        # The loop never checkpoints (that copies pages into the database file and fsyncs).
        self._loop_conn.execute("PRAGMA wal_autocheckpoint=0")
        self._thread_conn = _sqlite_connection(path, busy_ms=30000)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._since_checkpoint = 0
        self._checkpointing = False

    async def commit(self, move: Move) -> bool | None:
        try:
            done = _sqlite_write(self._loop_conn, move)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            # Another process holds the write lock: wait for it off the loop.
            loop = asyncio.get_running_loop()
            done = await loop.run_in_executor(self.executor, _sqlite_write, self._thread_conn, move)
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY and not self._checkpointing:
            self._since_checkpoint = 0
            self._checkpointing = True
            asyncio.get_running_loop().run_in_executor(self.executor, self._checkpoint)
        return done

    def _checkpoint(self) -> None:
        try:
            self._thread_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            pass  # the next one will do; readers may hold the log meanwhile
        finally:
            self._checkpointing = False

    async def head(self, match_id: int, after: int) -> Head | None:
        conn = self._loop_conn
        conn.execute("BEGIN")  # one snapshot for both reads (WAL: never waits for a writer)
        try:
            row = conn.execute(SQLITE_HEAD, (match_id,)).fetchone()
            if row is None:
                return None
            done = [
                Done(v, seat, wire.loads(action), stage, wire.loads(events), private_to)
                for v, seat, action, stage, events, private_to in conn.execute(
                    SQLITE_DONE, (match_id, after, row[0])
                )
            ]
        finally:
            conn.execute("COMMIT")
        version, stage, stage_since, finished, acted, owing = row
        return Head(
            version,
            stage,
            stage_since,
            bool(finished),
            wire.loads(acted) if acted is not None else None,
            wire.loads(owing) if owing is not None else None,
            done,
        )

    async def close(self) -> None:
        def shut() -> None:
            with contextlib.suppress(sqlite3.Error):
                self._thread_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._thread_conn.close()

        await asyncio.get_running_loop().run_in_executor(self.executor, shut)
        self.executor.shutdown(wait=True)
        self._loop_conn.close()


# -- PostgreSQL ------------------------------------------------------------------------------

PG_MOVE = """
WITH m AS (
    UPDATE matches
       SET version = $3, snapshot = $4::json, stage = $5, stage_since = $6, finished = $7,
           acted = $8::json, owing_since = $9::json, due_at = $18
     WHERE id = $1 AND version = $2
 RETURNING room_id
), a AS (
    INSERT INTO actions (match_id, version, seat, action, client_id, stage, events, by_bot,
                         created_at, private_to)
    SELECT $1, $3, $10, $11::json, $12, $13, $14::json, $15, $16, $19 FROM m
), s AS (
    UPDATE seats SET away = false, away_level = NULL
     WHERE $17 AND room_id = (SELECT room_id FROM m) AND seat = $10 AND away AND NOT for_good
 RETURNING 1
), r AS (
    UPDATE rooms SET status = 'finished' WHERE $7 AND id = (SELECT room_id FROM m)
)
SELECT (SELECT count(*) FROM m) AS moved, (SELECT count(*) FROM s) AS back
"""

# Two statements, not one with a subquery: under READ COMMITTED a statement that waited
# for the row lock sees the row as the other transaction left it, but its subqueries still
# see the snapshot taken when it began (without that transaction's action row).
PG_LOCK = """
SELECT id, room_id, game_id, seed, players, options::text AS options,
       snapshot::text AS snapshot, version, stage, stage_since, finished,
       acted::text AS acted, owing_since::text AS owing_since,
       rules_version, server_seed, seed_salt
  FROM matches WHERE id = $1 FOR UPDATE
"""
PG_EVENTS = "SELECT events::text FROM actions WHERE match_id = $1 AND version = $2"


PG_HEAD = """
SELECT m.version, m.stage, m.stage_since, m.finished, m.acted::text AS acted,
       m.owing_since::text AS owing_since,
       (SELECT json_agg(json_build_array(a.version, a.seat, a.action, a.stage, a.events,
                                          a.private_to)
                        ORDER BY a.version)::text
          FROM actions a
         WHERE a.match_id = m.id AND a.version > $2 AND a.version <= m.version) AS done
  FROM matches m WHERE m.id = $1
"""


def _pg_params(move: Move) -> tuple[Any, ...]:
    return (
        move.match_id,
        move.seen,
        move.seen + 1,
        wire.dumps(move.snapshot),
        move.stage_after,
        move.stage_since,
        move.finished,
        wire.dumps(move.acted),
        wire.dumps(move.owing_since),
        move.seat,
        wire.dumps(move.action),
        move.client_id,
        move.stage_before,
        wire.dumps(move.events),
        move.by_bot,
        move.at,
        move.clear_away,
        move.due_at,
        move.private_to,
    )


def _pg_dsn(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


# A pooled connection PostgreSQL dropped (restart, failover, a killed backend) fails at its
# next use: the move is sent once more on a fresh one. It is safe: the version guard and the
# (match, client_id) key make a second copy of a move that did land a no-op.
RETRY_ON = (OSError, ConnectionError)


class _PgLocked:
    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.row: dict[str, Any] | None = None

    async def commit(self, move: Move) -> bool:
        import asyncpg  # type: ignore[import-untyped]

        try:
            found = await self.conn.fetchrow(PG_MOVE, *_pg_params(move))
        except asyncpg.UniqueViolationError as exc:
            raise ClientIdCollision(move.client_id) from exc
        if found["moved"] != 1:  # cannot happen: the row is ours until the block ends
            raise RuntimeError("the locked match moved")
        return bool(found["back"])


async def _keep(connection: Any) -> None:
    """A pooled move connection goes back as it is: single autocommitted statements and
    transactions that always end leave nothing to reset."""


class PostgresMoves:
    def __init__(self, url: URL, schema: str | None, size: int = 20) -> None:
        import asyncpg

        self._dsn = _pg_dsn(url)
        self._schema = schema
        self._size = size
        self._pool: Any = None
        self._opening = asyncio.Lock()
        self.group = GroupCommit(
            self._commit_one,
            self._commit_many,
            (asyncpg.UniqueViolationError, asyncpg.DeadlockDetectedError),
        )

    async def _get_pool(self) -> Any:
        if self._pool is None:
            import asyncpg

            async with self._opening:
                if self._pool is None:
                    settings = {"search_path": self._schema} if self._schema else None
                    self._pool = await asyncpg.create_pool(
                        self._dsn,
                        min_size=1,
                        max_size=self._size,
                        server_settings=settings,
                        max_inactive_connection_lifetime=300,
                        # No reset query on release (asyncpg's default is one more round
                        # trip per move): these connections never keep session state.
                        reset=_keep,
                    )
        return self._pool

    async def commit(self, move: Move) -> bool | None:
        return await self.group.commit(move)

    async def _commit_many(self, params: tuple[Any, ...]) -> list[Any]:
        """``PG_MOVES`` for a batch (``app/store/group_commit.py``): its rows."""
        import asyncpg

        pool = await self._get_pool()
        for attempt in range(2):
            try:
                async with pool.acquire() as conn:
                    return list(await conn.fetch(PG_MOVES, *params))
            except (*RETRY_ON, asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError):
                if attempt:
                    raise
                await asyncio.sleep(0.05)
        raise AssertionError("unreachable")

    async def _commit_one(self, move: Move) -> bool | None:
        import asyncpg

        pool = await self._get_pool()
        params = _pg_params(move)
        for attempt in range(2):
            try:
                async with pool.acquire() as conn:
                    found = await conn.fetchrow(PG_MOVE, *params)
                break
            except asyncpg.UniqueViolationError as exc:
                raise ClientIdCollision(move.client_id) from exc
            except (*RETRY_ON, asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError):
                if attempt:
                    raise
                await asyncio.sleep(0.05)
        if found["moved"] != 1:
            return None
        return bool(found["back"])

    async def head(self, match_id: int, after: int) -> Head | None:
        pool = await self._get_pool()
        async with pool.acquire() as conn:
            row = await conn.fetchrow(PG_HEAD, match_id, after)
        if row is None:
            return None
        done = [Done(*entry) for entry in wire.loads(row["done"])] if row["done"] else []
        return Head(
            row["version"],
            row["stage"],
            row["stage_since"],
            row["finished"],
            wire.loads(row["acted"]) if row["acted"] is not None else None,
            wire.loads(row["owing_since"]) if row["owing_since"] is not None else None,
            done,
        )

    @contextlib.asynccontextmanager
    async def locked(self, match_id: int) -> AsyncIterator[LockedMatch]:
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            locked = _PgLocked(conn)
            row = await conn.fetchrow(PG_LOCK, match_id)
            if row is not None:
                locked.row = dict(row)
                locked.row["events"] = await conn.fetchval(PG_EVENTS, match_id, row["version"])
            yield locked

    async def close(self) -> None:
        await self.group.close()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), 5)
            except Exception:
                pool.terminate()
