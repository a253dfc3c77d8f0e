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
another writer moved first comes back "not moved" and the others land.

A move may be sent *after* another of its match that is not committed yet (``submit``'s
``after``: the room took its next move while the last one's commit was out,
``app/rooms/in_flight.py``). Such a chain shares a statement: its match row is guarded at the
first move's version and set to the last move's, and every move's action row goes in, so the
chain lands whole or not at all. A move whose predecessor is already out waits for it; once
that one is not moved (or failed) the move is not moved either, without being sent. Two moves
of one match that are not chained never share a batch (the second waits for the next). When
the statement fails as a whole — a ``(match, client_id)`` collision, a deadlock with some
other writer — its moves are committed one by one with ``PG_MOVE``, each chain in its order,
so each gets its own answer.
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
), f AS (
    SELECT DISTINCT ON (match_id) i.*, min(seen) OVER (PARTITION BY match_id) AS first_seen
      FROM i ORDER BY match_id, seen DESC
), l AS (
    SELECT id FROM matches WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE
), m AS (
    UPDATE matches
       SET version = f.seen + 1, snapshot = f.snapshot::json, stage = f.stage,
           stage_since = f.stage_since, finished = f.finished, acted = f.acted::json,
           owing_since = f.owing_since::json, due_at = f.due_at
      FROM f JOIN l ON l.id = f.match_id
     WHERE matches.id = f.match_id AND matches.version = f.first_seen
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
 RETURNING m.id AS match_id, seats.seat
), r AS (
    UPDATE rooms SET status = 'finished'
      FROM f JOIN m ON m.id = f.match_id
     WHERE f.finished AND rooms.id = m.room_id
)
SELECT i.match_id, i.seen, m.id IS NOT NULL AS moved,
       i.clear_away AND EXISTS (SELECT 1 FROM s WHERE s.match_id = i.match_id AND s.seat = i.seat)
       AND NOT EXISTS (SELECT 1 FROM i AS e WHERE e.match_id = i.match_id AND e.seat = i.seat
                                             AND e.clear_away AND e.seen < i.seen) AS back
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


Entry = tuple[Any, "asyncio.Future[Answer]", "asyncio.Future[Answer] | None"]  # move, answer, after


def landed(after: asyncio.Future[Answer]) -> bool:
    """Whether a predecessor that is done was committed (a chain goes on only after it)."""
    return not after.cancelled() and after.exception() is None and after.result() is not None


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
        self._waiting: list[Entry] = []
        self._out = 0
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.statements = 0  # how many statements carried moves (for the tests)
        self.batched = 0  # how many moves went in a statement of more than one
        self.chained = 0  # how many moves went in the same statement as their predecessor
        self.one_by_one = 0  # how many statements failed as a whole (their moves went singly)

    async def commit(self, move: Any) -> Answer:
        return await self.submit(move)

    def submit(
        self, move: Any, after: asyncio.Future[Answer] | None = None
    ) -> asyncio.Future[Answer]:
        """Queue ``move`` (now, in the order of the calls) and return its answer to come.

        ``after``: the answer of the move of the same match that ``move`` was applied after,
        while that one is not committed yet; ``move`` lands only with or after it."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, future, after))
        self._schedule()
        return future

    def _schedule(self) -> None:
        if not self._scheduled and self._out < IN_FLIGHT and self._waiting:
            # After the callbacks of this turn of the loop: the moves they bring join.
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send)

    def _send(self) -> None:
        self._scheduled = False
        while self._waiting and self._out < IN_FLIGHT:
            batch: list[Entry] = []
            rest: list[Entry] = []
            matches: set[int] = set()
            taken: set[asyncio.Future[Answer]] = set()
            for entry in self._waiting:
                move, future, after = entry
                if after is not None and after.done():
                    if not landed(after):
                        future.set_result(None)  # its predecessor did not land
                        continue
                    after = None
                if len(batch) >= MOST:
                    rest.append(entry)
                elif after is not None:
                    if after in taken:  # chained to its predecessor in this statement
                        self.chained += 1
                        batch.append(entry)
                        taken.add(future)
                    else:
                        rest.append(entry)  # its predecessor is out: wait for its answer
                elif move.match_id not in matches:
                    matches.add(move.match_id)
                    batch.append(entry)
                    taken.add(future)
                else:
                    rest.append(entry)
            self._waiting = rest
            if not batch:
                return
            batch.sort(key=lambda entry: (entry[0].match_id, entry[0].seen))
            self._out += 1
            task = asyncio.create_task(self._run(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, batch: list[Entry]) -> None:
        try:
            self.statements += 1
            if len(batch) == 1:
                await self._one(batch[0][0], batch[0][1])
                return
            moves = [move for move, _, _ in batch]
            try:
                rows = await self._many(batch_params(moves))
            except self._whole_failures:
                self.one_by_one += 1
                chains: dict[int, list[Entry]] = {}
                for entry in batch:
                    chains.setdefault(entry[0].match_id, []).append(entry)
                await asyncio.gather(*(self._chain(chain) for chain in chains.values()))
                return
            except BaseException as exc:
                for _, future, _ in batch:
                    if not future.done():
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                return
            self.batched += len(batch)
            answers = {(row[0], row[1]): (bool(row[3]) if row[2] else None) for row in rows}
            for move, future, _ in batch:
                if not future.done():
                    future.set_result(answers[move.match_id, move.seen])
        finally:
            self._out -= 1
            self._schedule()

    async def _chain(self, chain: list[Entry]) -> None:
        """A match's moves one by one, in order; after one that does not land, none."""
        previous: asyncio.Future[Answer] | None = None
        for move, future, _ in chain:
            if previous is not None and not landed(previous):
                if not future.done():
                    future.set_result(None)
            else:
                await self._one(move, future)
            previous = future

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
