"""Group commit on PostgreSQL: the moves of many matches in one statement and one commit.

Each move is still committed before it is acknowledged; what changes is how many moves one
commit carries. A move waits for nothing at a quiet moment: it joins whatever moves arrived in
the same turn of the event loop, and at most ``IN_FLIGHT`` statements are out at once, so under
load the moves that arrive while those run go together in the next. One statement for *n*
moves costs PostgreSQL one commit (one WAL flush) and the worker one round trip on asyncpg,
where *n* statements cost *n* of each.

The statement does for every move what ``PG_MOVE`` does for one (``app/store/moves.py``): the
version-guarded UPDATE of its match, its action row, the seat taken back from a bot, the room
finished. It first locks the batch's match rows in the order of their ids, so two workers'
batches over the same matches wait for each other instead of deadlocking. A move whose match
another writer moved first comes back "not moved" and the others land. Two moves of one match
never share a batch (the second waits for the next). When the statement fails as a whole — a
``(match, client_id)`` collision, a deadlock with some other writer — its moves are committed
one by one with ``PG_MOVE`` so each gets its own answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from app import wire

IN_FLIGHT = 2  # statements out at once: more arrive meanwhile and go in the next
MOST = 64  # moves in one statement

PG_MOVES = """
WITH i AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[],
                         $6::bool[], $7::text[], $8::text[], $9::float8[], $10::int[],
                         $11::text[], $12::text[], $13::text[], $14::text[], $15::bool[],
                         $16::float8[], $17::bool[], $18::int[])
        AS t(match_id, seen, snapshot, stage, stage_since, finished, acted, owing_since, due_at,
             seat, action, client_id, stage_before, events, by_bot, created_at, clear_away,
             private_to)
), l AS (
    SELECT id FROM matches WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE
), m AS (
    UPDATE matches
       SET version = i.seen + 1, snapshot = i.snapshot::json, stage = i.stage,
           stage_since = i.stage_since, finished = i.finished, acted = i.acted::json,
           owing_since = i.owing_since::json, due_at = i.due_at
      FROM i JOIN l ON l.id = i.match_id
     WHERE matches.id = i.match_id AND matches.version = i.seen
 RETURNING matches.id, matches.room_id
), a AS (
    INSERT INTO actions (match_id, version, seat, action, client_id, stage, events, by_bot,
                         created_at, private_to)
    SELECT i.match_id, i.seen + 1, i.seat, i.action::json, i.client_id, i.stage_before,
           i.events::json, i.by_bot, i.created_at, i.private_to
      FROM i JOIN m ON m.id = i.match_id
), s AS (
    UPDATE seats SET away = false, away_level = NULL
      FROM i JOIN m ON m.id = i.match_id
     WHERE i.clear_away AND seats.room_id = m.room_id AND seats.seat = i.seat
       AND seats.away AND NOT seats.for_good
 RETURNING i.match_id
), r AS (
    UPDATE rooms SET status = 'finished'
      FROM i JOIN m ON m.id = i.match_id
     WHERE i.finished AND rooms.id = m.room_id
)
SELECT i.match_id, m.id IS NOT NULL AS moved,
       EXISTS (SELECT 1 FROM s WHERE s.match_id = i.match_id) AS back
  FROM i LEFT JOIN m ON m.id = i.match_id
"""

Answer = bool | None  # ``None``: the match was not at the move's version; else seat back
Single = Callable[[Any], Awaitable[Answer]]  # one move by itself (raises as it would)
Many = Callable[[tuple[Any, ...]], Awaitable[Sequence[Any]]]  # the batch statement's rows


# ``PG_MOVES``' arrays in their order: the ``Move`` field each is made of, and whether it goes
# as JSON text.
BATCH_FIELDS = (
    ("match_id", False),
    ("seen", False),
    ("snapshot", True),
    ("stage_after", False),
    ("stage_since", False),
    ("finished", False),
    ("acted", True),
    ("owing_since", True),
    ("due_at", False),
    ("seat", False),
    ("action", True),
    ("client_id", False),
    ("stage_before", False),
    ("events", True),
    ("by_bot", False),
    ("at", False),
    ("clear_away", False),
    ("private_to", False),
)


def batch_params(moves: Sequence[Any]) -> tuple[list[Any], ...]:
    """``PG_MOVES``' arrays, one entry per move (``app.store.moves.Move``)."""
    return tuple(
        [wire.dumps(getattr(m, name)) for m in moves]
        if as_json
        else [getattr(m, name) for m in moves]
        for name, as_json in BATCH_FIELDS
    )


class GroupCommit:
    """Moves waiting for a statement, and the statements out.

    ``single`` commits one move with ``PG_MOVE`` (also what a lone move uses); ``many`` runs
    ``PG_MOVES`` and returns its rows; ``whole_failures`` are the errors after which the
    batch's moves are committed one by one.
    """

    def __init__(
        self, single: Single, many: Many, whole_failures: tuple[type[BaseException], ...]
    ) -> None:
        self._single = single
        self._many = many
        self._whole_failures = whole_failures
        self._waiting: list[tuple[Any, asyncio.Future[Answer]]] = []
        self._out = 0
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.statements = 0  # how many statements carried moves (for the tests)
        self.batched = 0  # how many moves went in a statement of more than one
        self.one_by_one = 0  # how many statements failed as a whole (their moves went singly)

    async def commit(self, move: Any) -> Answer:
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, future))
        self._schedule()
        return await future

    def _schedule(self) -> None:
        if not self._scheduled and self._out < IN_FLIGHT and self._waiting:
            # After the callbacks of this turn of the loop: the moves they bring join.
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send)

    def _send(self) -> None:
        self._scheduled = False
        while self._waiting and self._out < IN_FLIGHT:
            batch: list[tuple[Any, asyncio.Future[Answer]]] = []
            rest: list[tuple[Any, asyncio.Future[Answer]]] = []
            matches: set[int] = set()
            for entry in self._waiting:
                if len(batch) < MOST and entry[0].match_id not in matches:
                    matches.add(entry[0].match_id)
                    batch.append(entry)
                else:
                    rest.append(entry)
            self._waiting = rest
            batch.sort(key=lambda entry: entry[0].match_id)
            self._out += 1
            task = asyncio.create_task(self._run(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, batch: list[tuple[Any, asyncio.Future[Answer]]]) -> None:
        try:
            self.statements += 1
            if len(batch) == 1:
                await self._one(*batch[0])
                return
            moves = [move for move, _ in batch]
            try:
                rows = await self._many(batch_params(moves))
            except self._whole_failures:
                self.one_by_one += 1
                await asyncio.gather(*(self._one(move, future) for move, future in batch))
                return
            except BaseException as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                return
            self.batched += len(batch)
            answers = {row[0]: (bool(row[2]) if row[1] else None) for row in rows}
            for move, future in batch:
                if not future.done():
                    future.set_result(answers[move.match_id])
        finally:
            self._out -= 1
            self._schedule()

    async def _one(self, move: Any, future: asyncio.Future[Answer]) -> None:
        try:
            answer = await self._single(move)
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(answer)

    async def close(self) -> None:
        """Wait for the statements out (their moves are committed or failed)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
