"""The outbox sends each notification once: written once by key, claimed by one worker at a
time, retried with back-off, given up or dropped as its outcome says — on SQLite and on
PostgreSQL with two workers' dispatchers (each its own engine) over the same rows.

The channel here is a recording one the test registers (a unique name per test, so rows of
other tests are never claimed): what is under test is the outbox, not a receiver."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import select, update

from app.clock import Clock
from app.notify.outbox import Outbox
from app.notify.records import (
    Gone,
    NewNotification,
    Notification,
    Outcome,
    Refused,
    Retry,
    Sent,
)
from app.notify.turns import Hook, MatchFacts, Subscription, Targets, notes_for
from app.settings import Settings
from app.store.database import Database
from app.store.db import make_engine, migrate
from app.store.models import NotificationRow
from app.store.repository import Repository


class ManualClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now_value = now

    def now(self) -> float:
        return self.now_value


@dataclass
class Recording:
    channel: str
    answers: dict[str, list[Outcome]] = field(default_factory=dict)
    sent: list[str] = field(default_factory=list)
    delay: float = 0.0

    async def start(self) -> None:
        return None

    async def send(self, note: Notification) -> Outcome:
        await asyncio.sleep(self.delay)
        self.sent.append(note.key)
        queue = self.answers.get(note.key)
        return queue.pop(0) if queue else Sent()

    async def close(self) -> None:
        return None


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[tuple[Settings, int]]:
    if settings.database_url.startswith("sqlite"):
        await asyncio.to_thread(migrate, settings.database_url, None)
    engine = make_engine(settings.database_url, settings.database_schema)
    repo = Repository(engine, settings.database_schema)
    room_id = await new_room(repo)
    await repo.close()
    yield settings, room_id


async def new_room(repo: Repository) -> int:
    """A waiting room of two seats (its host's), by id."""
    room = await repo.create_room(
        code=uuid.uuid4().hex[:16],
        game_id="seasons",
        name="t",
        visibility="private",
        options={},
        seat_count=2,
        turn_seconds=None,
        host_name="Ana",
        host_token_hash=uuid.uuid4().hex,
    )
    return room.id


def outbox_for(settings: Settings, sender: Recording, clock: Clock) -> tuple[Outbox, Database]:
    db = Database(make_engine(settings.database_url, settings.database_schema))
    return Outbox(db, clock, [sender], sweep_seconds=0.05, backoff=(10.0, 20.0)), db


def note(channel: str, room_id: int, key: str, after: float = 0.0) -> NewNotification:
    return NewNotification(f"{channel}:{key}", channel, 1, room_id, {"kind": "test"}, after)


async def outcomes(db: Database, channel: str) -> dict[str, tuple[str | None, int]]:
    async with db.readers() as session:
        rows = await session.execute(
            select(NotificationRow.key, NotificationRow.outcome, NotificationRow.attempts).where(
                NotificationRow.channel == channel
            )
        )
        return {key.split(":", 1)[1]: (outcome, attempts) for key, outcome, attempts in rows}


async def until(check: object, timeout: float = 30.0) -> None:
    assert callable(check)
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_two_dispatchers_send_every_notification_once(
    store: tuple[Settings, int],
) -> None:
    settings, room_id = store
    channel = f"test-{uuid.uuid4().hex[:8]}"
    clock = ManualClock()
    senders = [Recording(channel, delay=0.005), Recording(channel, delay=0.005)]
    boxes = [outbox_for(settings, s, clock) for s in senders]
    notes = [note(channel, room_id, str(n)) for n in range(120)]
    # Written twice over (a reaction and a sweep, in two workers): still one row per key.
    await asyncio.gather(boxes[0][0].add(notes), boxes[1][0].add(list(reversed(notes))))
    for box, _ in boxes:
        await box.start()
    try:
        db = boxes[0][1]

        async def all_sent() -> bool:
            done = await outcomes(db, channel)
            return len(done) == 120 and all(o == "sent" for o, _ in done.values())

        await until(all_sent)
        sent = Counter(senders[0].sent + senders[1].sent)
        assert len(sent) == 120 and set(sent.values()) == {1}
    finally:
        for box, db in boxes:
            await box.close()
            await db.engine.dispose()


async def test_outcomes_retry_back_off_give_up_and_wait_for_their_time(
    store: tuple[Settings, int],
) -> None:
    settings, room_id = store
    channel = f"test-{uuid.uuid4().hex[:8]}"
    clock = ManualClock()
    sender = Recording(channel)
    sender.answers = {
        f"{channel}:flaky": [Retry("503")],
        f"{channel}:dead": [Retry("timeout"), Retry("timeout"), Retry("timeout")],
        f"{channel}:refused": [Refused("404")],
        f"{channel}:gone": [Gone("410")],
    }
    box, db = outbox_for(settings, sender, clock)
    await box.add(
        [
            note(channel, room_id, "flaky"),
            note(channel, room_id, "dead"),
            note(channel, room_id, "refused"),
            note(channel, room_id, "gone"),
            note(channel, room_id, "later", after=clock.now_value + 3600),
        ]
    )
    await box.start()
    try:

        async def first_round() -> bool:
            done = await outcomes(db, channel)
            return (
                done["refused"][0] == "failed"
                and done["gone"][0] == "gone"
                and (done["flaky"][1] == 1 and done["dead"][1] == 1)
            )

        await until(first_round)
        await asyncio.sleep(0.3)  # the back-off is in the server's clock: nothing more yet
        assert Counter(sender.sent)[f"{channel}:flaky"] == 1
        assert f"{channel}:later" not in sender.sent
        clock.now_value += 11  # past the first back-off
        box._wake.set()

        async def flaky_sent() -> bool:
            done = await outcomes(db, channel)
            return done["flaky"] == ("sent", 2) and done["dead"][1] == 2

        await until(flaky_sent)
        clock.now_value += 21  # past the second (the last) back-off: one more try, then given up
        box._wake.set()

        async def dead_given_up() -> bool:
            return (await outcomes(db, channel))["dead"] == ("failed", 3)

        await until(dead_given_up)
        clock.now_value += 3600
        box._wake.set()

        async def later_sent() -> bool:
            return (await outcomes(db, channel))["later"] == ("sent", 1)

        await until(later_sent)
        assert Counter(sender.sent) == {
            f"{channel}:flaky": 2,
            f"{channel}:dead": 3,
            f"{channel}:refused": 1,
            f"{channel}:gone": 1,
            f"{channel}:later": 1,
        }
    finally:
        await box.close()
        await db.engine.dispose()


async def test_a_claim_of_a_worker_that_died_runs_out_and_the_row_is_sent(
    store: tuple[Settings, int],
) -> None:
    settings, room_id = store
    channel = f"test-{uuid.uuid4().hex[:8]}"
    clock = ManualClock()
    sender = Recording(channel)
    box, db = outbox_for(settings, sender, clock)
    await box.add([note(channel, room_id, "orphan")])
    # A worker claimed it, then was killed before sending: its claim holds the row a while.
    claimed = await box.claim_due()
    assert [n.key for n in claimed] == [f"{channel}:orphan"]
    await box.start()
    try:
        await asyncio.sleep(0.3)
        assert sender.sent == []
        clock.now_value += 61  # past the lease
        box._wake.set()

        async def sent() -> bool:
            return (await outcomes(db, channel)).get("orphan", (None, 0))[0] == "sent"

        await until(sent)
        assert sender.sent == [f"{channel}:orphan"]
        async with db.write() as session:  # (leave no pending row for other tests)
            await session.execute(
                update(NotificationRow).where(NotificationRow.channel == channel).values(done=True)
            )
    finally:
        await box.close()
        await db.engine.dispose()


def facts(**overrides: object) -> MatchFacts:
    values: dict[str, object] = {
        "room_id": 7,
        "code": "abc",
        "title": "Seasons",
        "names": ("Ana", "Bob", "Bot 3"),
        "people": frozenset({0, 1}),
        "match_id": 11,
        "owing": (None, 500.0, None),
        "turn_seconds": 86400.0,
    }
    values.update(overrides)
    return MatchFacts(**values)  # type: ignore[arg-type]


def test_a_turn_calls_for_a_push_and_a_reminder_per_subscription_and_one_post() -> None:
    targets = Targets(
        (Subscription(1, 1, 100.0), Subscription(2, 1, 100.0), Subscription(3, 0, 100.0)),
        (Hook(9, 100.0),),
    )
    notes = notes_for(facts(), targets)
    by_key = {n.key: n for n in notes}
    assert set(by_key) == {
        "push:turn:1:11:1:500000",
        "push:remind:1:11:1:500000",
        "push:turn:2:11:1:500000",
        "push:remind:2:11:1:500000",
        "hook:turn:9:11:500000",
    }
    reminder = by_key["push:remind:1:11:1:500000"]
    assert reminder.send_after == pytest.approx(500 + 86400 * 0.8)
    assert reminder.payload["due"] == 500 + 86400
    assert by_key["hook:turn:9:11:500000"].payload["seats"] == [1]
    # The same facts again (the sweep after a crash) make the same keys.
    assert {n.key for n in notes_for(facts(), targets)} == set(by_key)


def test_no_push_for_a_bot_no_reminder_on_a_live_clock_nothing_from_before_a_target() -> None:
    bot_turn = facts(owing=(None, None, 500.0))
    targets = Targets((Subscription(1, 2, 100.0),), (Hook(9, 100.0),))
    assert notes_for(bot_turn, targets) == []  # a bot's turn: neither push nor post
    live = notes_for(facts(turn_seconds=60.0), Targets((Subscription(1, 1, 100.0),)))
    assert [n.key.split(":")[1] for n in live] == ["turn"]
    later = Targets((Subscription(1, 1, 600.0),), (Hook(9, 600.0),))
    assert notes_for(facts(), later) == []  # set up after this turn began


def test_the_end_calls_for_one_post_per_webhook_and_no_push() -> None:
    ended = facts(owing=(None, None, None), winners=(1,))
    notes = notes_for(ended, Targets((Subscription(1, 1, 100.0),), (Hook(9, 100.0), Hook(4, 1.0))))
    assert sorted(n.key for n in notes) == ["hook:end:4:11", "hook:end:9:11"]
    assert all(n.payload["winners"] == [1] for n in notes)
