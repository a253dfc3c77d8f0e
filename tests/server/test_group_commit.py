"""Group commit on PostgreSQL (issue 24, item 1; app/store/group_commit.py).

Real PostgreSQL, the move writer a worker uses (``PostgresMoves``), rows made with plain SQL:
moves that arrive together go in one statement and every one of them is answered as if it had
been committed alone — landed, "the match moved first", the seat taken back, the room
finished, a client_id already taken — and two workers' batches over the same matches in
opposite orders finish without a deadlock.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from app.store.moves import ClientIdCollision, Move, PostgresMoves
from tests.server.conftest import PG_URL

pytestmark = pytest.mark.postgres

PLAIN_URL = PG_URL.replace("postgresql+asyncpg://", "postgresql://")


async def _connect(schema: str) -> Any:
    return await asyncpg.connect(PLAIN_URL, server_settings={"search_path": schema})


async def _matches(schema: str, n: int, *, away_seat: int | None = None) -> list[tuple[int, int]]:
    """``n`` rooms playing a match each at version 0: their (match id, room id)."""
    conn = await _connect(schema)
    made = []
    try:
        for _ in range(n):
            room = await conn.fetchval(
                "INSERT INTO rooms (code, game_id, name, visibility, options, status, seat_count,"
                " created_at) VALUES ($1, 'test-guess', 'r', 'public', '{}', 'playing', 2, 0)"
                " RETURNING id",
                uuid.uuid4().hex[:12],
            )
            for seat in range(2):
                await conn.execute(
                    "INSERT INTO seats (room_id, seat, name, away, away_level, former, for_good)"
                    " VALUES ($1, $2, 'p', $3, $4, false, false)",
                    room,
                    seat,
                    seat == away_seat,
                    "random" if seat == away_seat else None,
                )
            match = await conn.fetchval(
                "INSERT INTO matches (room_id, game_id, seed, players, options, snapshot,"
                " version, stage, stage_since, finished, created_at)"
                " VALUES ($1, 'test-guess', 1, 2, '{}', '{}', 0, 'play', 0, false, 0)"
                " RETURNING id",
                room,
            )
            made.append((match, room))
    finally:
        await conn.close()
    return made


def _move(match: int, room: int, seen: int, **changes: Any) -> Move:
    move = Move(
        match_id=match,
        room_id=room,
        seen=seen,
        snapshot={"n": seen + 1},
        stage_before="play",
        stage_after="play",
        stage_since=0.0,
        finished=False,
        acted=[seen + 1, 0],
        owing_since=[None, 1.5],
        due_at=None,
        seat=0,
        action={"type": "guess", "n": seen},
        client_id=uuid.uuid4().hex,
        events=[{"type": "guessed"}],
        by_bot=False,
        clear_away=False,
        at=1.0,
    )
    return replace(move, **changes)


@pytest.fixture
async def writer(pg_schema: str) -> AsyncIterator[PostgresMoves]:
    moves = PostgresMoves(make_url(PG_URL), pg_schema)
    try:
        yield moves
    finally:
        await moves.close()


async def test_moves_arriving_together_share_statements_and_all_land(
    writer: PostgresMoves, pg_schema: str
) -> None:
    matches = await _matches(pg_schema, 40)
    for seen in range(3):
        answers = await asyncio.gather(
            *(writer.commit(_move(match, room, seen)) for match, room in matches)
        )
        assert answers == [False] * len(matches)
    # 120 moves; 40 arriving together each time: far fewer statements than moves.
    assert writer.group.statements <= 30, writer.group.statements
    assert writer.group.batched >= 90
    conn = await _connect(pg_schema)
    try:
        ids = [match for match, _ in matches]
        rows = await conn.fetch(
            "SELECT id, version, snapshot::text, acted::text FROM matches WHERE id = ANY($1)", ids
        )
        assert {r["version"] for r in rows} == {3}
        assert {r["snapshot"] for r in rows} == {'{"n":3}'}
        assert {r["acted"] for r in rows} == {"[3,0]"}
        actions = await conn.fetch(
            "SELECT match_id, version, action::text, events::text FROM actions"
            " WHERE match_id = ANY($1) ORDER BY match_id, version",
            ids,
        )
        assert len(actions) == 120
        assert [a["version"] for a in actions[:3]] == [1, 2, 3]
        assert actions[0]["action"] == '{"type":"guess","n":0}'
    finally:
        await conn.close()


async def test_each_move_of_a_batch_gets_its_own_answer(
    writer: PostgresMoves, pg_schema: str
) -> None:
    (m1, r1), (m2, r2), (m3, r3), (m4, r4) = await _matches(pg_schema, 4, away_seat=0)
    assert await writer.commit(_move(m2, r2, 0)) is False  # m2 is at version 1 now
    statements = writer.group.statements
    answers = await asyncio.gather(
        writer.commit(_move(m1, r1, 0, clear_away=True)),  # the seat comes back from a bot
        writer.commit(_move(m2, r2, 0)),  # stale: another writer moved it first
        writer.commit(_move(m3, r3, 0, finished=True)),  # the last move: the room finishes
        writer.commit(_move(m4, r4, 0)),
    )
    assert answers == [True, None, False, False]
    assert writer.group.statements == statements + 1  # one statement for the four
    conn = await _connect(pg_schema)
    try:
        away = await conn.fetchval("SELECT away FROM seats WHERE room_id = $1 AND seat = 0", r1)
        assert away is False
        assert await conn.fetchval("SELECT away FROM seats WHERE room_id = $1 AND seat = 0", r4)
        status = await conn.fetch(
            "SELECT id, status FROM rooms WHERE id = ANY($1) ORDER BY id", [r3, r4]
        )
        assert [s["status"] for s in status] == ["finished", "playing"]
        versions = await conn.fetch(
            "SELECT id, version FROM matches WHERE id = ANY($1) ORDER BY id", [m1, m2, m3, m4]
        )
        assert [v["version"] for v in versions] == [1, 1, 1, 1]
        assert await conn.fetchval("SELECT count(*) FROM actions WHERE match_id = $1", m2) == 1
    finally:
        await conn.close()


async def test_two_moves_of_one_match_never_share_a_statement(
    writer: PostgresMoves, pg_schema: str
) -> None:
    ((match, room),) = await _matches(pg_schema, 1)
    first, second = await asyncio.gather(
        writer.commit(_move(match, room, 0)), writer.commit(_move(match, room, 0))
    )
    assert (first, second) == (False, None)
    third = await writer.commit(_move(match, room, 1))
    assert third is False


async def test_a_client_id_taken_fails_its_move_alone(
    writer: PostgresMoves, pg_schema: str
) -> None:
    (m1, r1), (m2, r2), (m3, r3) = await _matches(pg_schema, 3)
    taken = _move(m2, r2, 0)
    assert await writer.commit(taken) is False
    results = await asyncio.gather(
        writer.commit(_move(m1, r1, 0)),
        writer.commit(_move(m2, r2, 1, client_id=taken.client_id)),
        writer.commit(_move(m3, r3, 0)),
        return_exceptions=True,
    )
    assert results[0] is False and results[2] is False
    assert isinstance(results[1], ClientIdCollision)
    conn = await _connect(pg_schema)
    try:
        versions = await conn.fetch(
            "SELECT version FROM matches WHERE id = ANY($1) ORDER BY id", [m1, m2, m3]
        )
        assert [v["version"] for v in versions] == [1, 1, 1]
    finally:
        await conn.close()


async def test_two_workers_batches_over_the_same_matches_do_not_deadlock(
    writer: PostgresMoves, pg_schema: str
) -> None:
    other = PostgresMoves(make_url(PG_URL), pg_schema)
    matches = await _matches(pg_schema, 30)
    try:
        for seen in range(4):
            # Both workers move every match from the same version, in opposite orders.
            ours = [writer.commit(_move(m, r, seen)) for m, r in matches]
            theirs = [other.commit(_move(m, r, seen)) for m, r in reversed(matches)]
            answers = await asyncio.gather(*ours, *theirs)
            landed = [a for a in answers if a is not None]
            assert len(landed) == len(matches), answers  # one of the two per match
        assert writer.group.batched + other.group.batched > 0
        assert writer.group.one_by_one == other.group.one_by_one == 0  # no deadlock
    finally:
        await other.close()
    conn = await _connect(pg_schema)
    try:
        ids = [m for m, _ in matches]
        versions = await conn.fetch("SELECT version FROM matches WHERE id = ANY($1)", ids)
        assert {v["version"] for v in versions} == {4}
        count = await conn.fetchval("SELECT count(*) FROM actions WHERE match_id = ANY($1)", ids)
        assert count == 4 * len(matches)
    finally:
        await conn.close()


async def _versions(schema: str, ids: list[int]) -> tuple[list[int], list[tuple[int, int, str]]]:
    """The matches' versions (by id) and their action rows (match, version, client_id)."""
    conn = await _connect(schema)
    try:
        versions = await conn.fetch(
            "SELECT version FROM matches WHERE id = ANY($1) ORDER BY id", ids
        )
        actions = await conn.fetch(
            "SELECT match_id, version, client_id FROM actions WHERE match_id = ANY($1)"
            " ORDER BY match_id, version",
            ids,
        )
    finally:
        await conn.close()
    return [v["version"] for v in versions], [tuple(a) for a in actions]


async def test_a_chain_sent_ahead_lands_whole_in_one_statement(
    writer: PostgresMoves, pg_schema: str
) -> None:
    """A room's next moves, applied while its last one's commit is out, go together once it
    lands: the match row ends at the last one's state, every action row is in, and the seat
    comes back from a bot with the first of her moves in the chain only."""
    (m1, r1), (m2, r2) = await _matches(pg_schema, 2, away_seat=1)
    group = writer.group
    first = group.submit(_move(m1, r1, 0))
    chain = [first]
    for seen in (1, 2, 3):  # queued while the first is out: each after the one before
        seat = 1 if seen >= 2 else 0
        move = _move(m1, r1, seen, seat=seat, clear_away=seat == 1, finished=seen == 3)
        chain.append(group.submit(move, after=chain[-1]))
    other = group.submit(_move(m2, r2, 0))  # another match, in the same statements
    statements = group.statements
    answers = await asyncio.gather(*chain, other)
    assert answers == [False, False, True, False, False]
    assert group.statements - statements <= 2  # the first (with m2), then the chain of three
    assert group.chained >= 2
    versions, actions = await _versions(pg_schema, [m1, m2])
    assert versions == [4, 1]
    assert [a[1] for a in actions if a[0] == m1] == [1, 2, 3, 4]
    conn = await _connect(pg_schema)
    try:
        row = await conn.fetchrow("SELECT snapshot::text, finished FROM matches WHERE id = $1", m1)
        assert row["snapshot"] == '{"n":4}' and row["finished"] is True
        assert await conn.fetchval("SELECT status FROM rooms WHERE id = $1", r1) == "finished"
        assert (
            await conn.fetchval("SELECT away FROM seats WHERE room_id = $1 AND seat = 1", r1)
            is False
        )
    finally:
        await conn.close()


async def test_moves_after_one_that_did_not_land_never_land(
    writer: PostgresMoves, pg_schema: str
) -> None:
    """Another writer moved the match first: the move sent at the old version is not moved, and
    neither is any move queued after it — even one whose version the match now has (it was
    applied to a state that never was)."""
    ((match, room),) = await _matches(pg_schema, 1)
    assert await writer.commit(_move(match, room, 0)) is False  # "another writer": now at 1
    group = writer.group
    stale = group.submit(_move(match, room, 0))
    behind = group.submit(_move(match, room, 1), after=stale)  # version 1: the match's own
    further = group.submit(_move(match, room, 2), after=behind)
    assert await asyncio.gather(stale, behind, further) == [None, None, None]
    versions, actions = await _versions(pg_schema, [match])
    assert versions == [1] and len(actions) == 1
    # Sent after the first answered, too: the same.
    gone = group.submit(_move(match, room, 0))
    assert await gone is None
    assert await group.submit(_move(match, room, 1), after=gone) is None
    assert (await _versions(pg_schema, [match]))[0] == [1]


async def test_a_chain_whose_statement_fails_goes_one_by_one_in_order(
    writer: PostgresMoves, pg_schema: str
) -> None:
    """A client_id already taken fails the chain's statement as a whole: each move is then
    committed by itself in order, the one before the taken id lands, the taken one raises, and
    the one after it is not moved."""
    ((match, room),) = await _matches(pg_schema, 1)
    taken = _move(match, room, 0)
    assert await writer.commit(taken) is False
    group = writer.group
    head = group.submit(_move(match, room, 1))
    await asyncio.sleep(0)  # the first goes out alone
    second = group.submit(_move(match, room, 2), after=head)
    third = group.submit(_move(match, room, 3, client_id=taken.client_id), after=second)
    fourth = group.submit(_move(match, room, 4), after=third)
    results = await asyncio.gather(head, second, third, fourth, return_exceptions=True)
    assert results[:2] == [False, False]
    assert isinstance(results[2], ClientIdCollision)
    assert results[3] is None
    assert group.one_by_one == 1
    versions, actions = await _versions(pg_schema, [match])
    assert versions == [3]
    assert [a[1] for a in actions] == [1, 2, 3]
