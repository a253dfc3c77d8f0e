"""What lives beside rooms follows them into room databases (COVEN_ROOM_DATABASE_URLS,
app/store/room_shards.py): a match finished in a room database gets its result, its players'
history, totals and ratings in the default database, whoever records it (the move that ended
it, or the sweep after a worker died before recording).

This module has its own default schema (created, migrated and dropped here): opening room
databases drops the default database's foreign keys from history to rooms and matches,
which the other tests of the run keep. Two room databases are created for it and dropped."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.profiles.claims import Claims
from app.profiles.records import SeatToken
from app.results.ledger import Ledger
from app.results.reaction import Recorder
from app.store.database import Database as StoreDatabase
from app.store.db import PoolSizes, make_engine, migrate
from app.store.room_shards import ID_STRIDE, RoomDatabases, room_database_index
from engine import registry
from tests.server.conftest import PG_URL
from tests.support.client import Client, open_room
from tests.support.push_service import PushService
from tests.support.server import ProcessServer
from tests.support.table import play_to_end
from tests.support.webhook_receiver import WebhookReceiver

pytestmark = [pytest.mark.postgres]

PLAIN = PG_URL.replace("postgresql+asyncpg://", "postgresql://")
COOKIE = "coven_profile"


def _url_of(database: str) -> str:
    base, _, _ = PG_URL.rpartition("/")
    return f"{base}/{database}"


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PLAIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def schema() -> Iterator[str]:
    """This module's default schema (not the run's: its history keys are dropped here)."""
    name = f"coven_shardfeat_{uuid.uuid4().hex[:8]}"
    asyncio.run(_admin(f'CREATE SCHEMA "{name}"'))
    try:
        migrate(PG_URL, name)
        yield name
    finally:
        asyncio.run(_admin(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))


@pytest.fixture(scope="module")
def room_urls(schema: str) -> Iterator[list[str]]:
    suffix = uuid.uuid4().hex[:8]
    names = [f"coven_shardfeat_a_{suffix}", f"coven_shardfeat_b_{suffix}"]
    for name in names:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    urls = [_url_of(name) for name in names]
    try:
        for url in urls:
            migrate(url, schema)
        yield urls
    finally:
        for name in names:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def server(schema: str, room_urls: list[str]) -> Iterator[ProcessServer]:
    """One worker with small pools (PostgreSQL's 100 connections are shared) and a quick
    results sweep."""
    running = ProcessServer(
        {
            "COVEN_DATABASE_URL": PG_URL,
            "COVEN_DATABASE_SCHEMA": schema,
            "COVEN_ROOM_DATABASE_URLS": ",".join(room_urls),
            "COVEN_MIGRATE_ON_START": "0",
            "COVEN_BOT_DELAY": "0",
            "COVEN_RESULTS_SWEEP_SECONDS": "0.2",
            "COVEN_REMATCH_SECONDS": "1",
            "COVEN_SWEEP_SECONDS": "0.3",
            "COVEN_DB_POOL_SIZE": "2",
            "COVEN_DB_POOL_OVERFLOW": "2",
            "COVEN_MOVE_POOL_SIZE": "2",
            "COVEN_WEBHOOK_ALLOW_PRIVATE": "1",
            # One server for the whole module, whose tests open more rooms than an address may
            # in two minutes (the limit is not what they test).
            "COVEN_ROOMS_BURST": "1000",
            "COVEN_NOTIFY_SWEEP_SECONDS": "0.1",
        }
    ).start()
    try:
        yield running
    finally:
        running.stop()


class Sql:
    """The test's own connections: the default database and each room database."""

    def __init__(self, schema: str, room_urls: list[str]) -> None:
        self.schema = schema
        self.urls = [PLAIN] + [
            u.replace("postgresql+asyncpg://", "postgresql://") for u in room_urls
        ]

    async def run(self, position: int, sql: str, *args: Any) -> list[Any]:
        conn = await asyncpg.connect(
            self.urls[position], server_settings={"search_path": self.schema}
        )
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()


@pytest.fixture
def sql(schema: str, room_urls: list[str]) -> Sql:
    return Sql(schema, room_urls)


@dataclass(frozen=True)
class Profile:
    id: int
    public_id: str
    secret: str

    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.secret}


async def make_profile(sql: Sql, name: str) -> Profile:
    """A profile row and a browser key, as the profile routes make them."""
    secret, public_id, now = secrets.token_urlsafe(32), secrets.token_hex(16), time.time()
    rows = await sql.run(
        0,
        "INSERT INTO profiles (public_id, name, listed, created_at) "
        "VALUES ($1, $2, true, $3) RETURNING id",
        public_id,
        name,
        now,
    )
    profile_id = rows[0]["id"]
    await sql.run(
        0,
        "INSERT INTO profile_keys (profile_id, secret_hash, via, created_at, last_used_at) "
        "VALUES ($1, $2, 'created', $3, $3)",
        profile_id,
        hashlib.sha256(secret.encode()).hexdigest(),
        now,
    )
    return Profile(profile_id, public_id, secret)


async def room_in(url: str, position: int, names: list[str]) -> tuple[str, list[Client]]:
    """A public room of test-guess whose code hashes to room database ``position`` (0-based)."""
    for _ in range(60):
        code, seated = await open_room(url, "test-guess", names)
        if room_database_index(code, 2) == position:
            return code, seated
    raise AssertionError(f"no room landed in room database {position}")


async def play(url: str, code: str, seated: list[Client]) -> None:
    players = [Client(url, s.token, n) for n, s in enumerate(seated)]
    spectator = Client(url)
    for client in [*players, spectator]:
        await client.connect(code)
    try:
        assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
        final = await play_to_end(players, spectator, random.Random(code))
        assert final["result"] is not None
    finally:
        for client in [*players, spectator]:
            await client.close()


async def recorded(url: str, code: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        deadline = time.monotonic() + 30
        while True:
            answer = await http.get(f"/api/rooms/{code}/results")
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            if body["recorded"]:
                return body
            assert time.monotonic() < deadline, f"{code} was never recorded: {body}"
            await asyncio.sleep(0.1)


@pytest.fixture
async def two_players(sql: Sql) -> AsyncIterator[tuple[Profile, Profile]]:
    yield await make_profile(sql, "Agnes"), await make_profile(sql, "Brigid")


async def test_a_match_in_each_room_database_enters_history_totals_and_ratings(
    server: ProcessServer, sql: Sql, two_players: tuple[Profile, Profile]
) -> None:
    agnes, brigid = two_players
    codes: list[str] = []
    for position in range(2):
        code, seated = await room_in(server.url, position, ["Agnes", "Brigid"])
        # Their seats are theirs (as a claim leaves them): rows of the room's own database.
        for seat, who in enumerate((agnes, brigid)):
            await sql.run(
                position + 1,
                "UPDATE seats SET profile_id = $1 WHERE seat = $2 "
                "AND room_id = (SELECT id FROM rooms WHERE code = $3)",
                who.id,
                seat,
                code,
            )
        await play(server.url, code, seated)
        codes.append(code)

    for position, code in enumerate(codes):
        body = await recorded(server.url, code)
        assert body["game"] == "test-guess" and body["match"]["rated"] is True
        seats = body["match"]["seats"]
        assert [s["public_id"] for s in seats] == [agnes.public_id, brigid.public_id]
        assert body["match"]["code"] == code  # the room's code, read in its own database
        # The match is marked in its database; history is in the default one.
        marks = await sql.run(position + 1, "SELECT id, recorded FROM matches")
        [(match_id, mark)] = [tuple(r) for r in marks]
        assert match_id // ID_STRIDE == position + 1 and mark is True
        rows = await sql.run(0, "SELECT room_id FROM match_results WHERE match_id = $1", match_id)
        assert [r["room_id"] // ID_STRIDE for r in rows] == [position + 1]

    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        page = (await http.get(f"/api/profiles/{agnes.public_id}")).json()
    history = page["history"]["matches"]
    assert sorted(m["code"] for m in history) == sorted(codes)
    [rating] = page["ratings"]
    assert rating["game"] == "test-guess" and rating["matches"] == 2
    [games] = page["games"]
    assert games["matches"] == 2


async def test_the_sweep_records_a_match_of_a_room_database_a_worker_missed(
    server: ProcessServer, sql: Sql, two_players: tuple[Profile, Profile]
) -> None:
    agnes, _ = two_players
    code, seated = await room_in(server.url, 1, ["Agnes", "Brigid"])
    await sql.run(
        2,
        "UPDATE seats SET profile_id = $1 WHERE seat = 0 "
        "AND room_id = (SELECT id FROM rooms WHERE code = $2)",
        agnes.id,
        code,
    )
    await play(server.url, code, seated)
    await recorded(server.url, code)
    [match] = await sql.run(
        2, "SELECT m.id FROM matches m JOIN rooms r ON r.id = m.room_id WHERE r.code = $1", code
    )
    # As if the worker died before recording: no history, the match not marked.
    await sql.run(0, "DELETE FROM match_results WHERE match_id = $1", match["id"])
    await sql.run(2, "UPDATE matches SET recorded = false WHERE id = $1", match["id"])
    body = await recorded(server.url, code)  # the sweep (every 0.2 s) finds it again
    assert body["match"]["seats"][0]["public_id"] == agnes.public_id
    deadline = time.monotonic() + 10
    while not (await sql.run(2, "SELECT recorded FROM matches WHERE id = $1", match["id"]))[0][0]:
        assert time.monotonic() < deadline, "the match was never marked recorded again"
        await asyncio.sleep(0.1)


async def test_a_claim_my_tables_and_seat_here_reach_seats_in_room_databases(
    server: ProcessServer, sql: Sql
) -> None:
    """Dora plays as a guest: a finished match in one room database, a table in play in the
    other. Keeping a profile claims both seats (the finished match enters her history), My
    tables lists the table in play by her profile alone, and another browser of hers takes
    her seat there."""
    finished, seated = await room_in(server.url, 0, ["Dora", "Edna"])
    await play(server.url, finished, seated)
    await recorded(server.url, finished)  # recorded as a guest's: no profile yet
    playing, at_play = await room_in(server.url, 1, ["Dora", "Edna"])
    started = await at_play[0].http.post(f"/api/rooms/{playing}/start")
    assert started.status_code == 200, started.text

    async with httpx.AsyncClient(
        base_url=server.url, headers={"Origin": server.url}, timeout=10
    ) as phone:
        made = await phone.post(
            "/api/profile",
            json={
                "name": "Dora",
                "seats": [
                    {"room": finished, "token": seated[0].token},
                    {"room": playing, "token": at_play[0].token},
                ],
            },
        )
        assert made.status_code == 201, made.text
        public_id = made.json()["public_id"]
        # Both seats are hers, each in its own room database.
        for position, code in ((1, finished), (2, playing)):
            rows = await sql.run(
                position,
                "SELECT s.seat, s.profile_id FROM seats s JOIN rooms r ON r.id = s.room_id "
                "WHERE r.code = $1 ORDER BY s.seat",
                code,
            )
            assert rows[0]["profile_id"] is not None and rows[1]["profile_id"] is None
        page = (await phone.get(f"/api/profiles/{public_id}")).json()
        assert [m["code"] for m in page["history"]["matches"]] == [finished]
        assert page["history"]["matches"][0]["seats"][0]["you"] is True
        assert page["games"][0]["matches"] == 1  # the claim added to her totals

        # My tables, by the profile alone (no token sent): the table in play, not the other.
        mine = (await phone.post("/api/me/tables", json={"seats": []})).json()["tables"]
        assert [(t["table"]["code"], t["seat"]) for t in mine] == [(playing, 0)]
        assert [s["name"] for s in mine[0]["table"]["seats"]] == ["Dora", "Edna"]

        # Her seats there, and this browser takes the one at the table in play.
        held = await phone.get(f"/api/rooms/{playing}/profile-seats")
        assert held.json()["seats"] == [0]
        taken = await phone.post(f"/api/rooms/{playing}/seat-here", json={})
        assert taken.status_code == 200, taken.text
        token = taken.json()["token"]

        # Her export names both seats and her match, read in their databases.
        export = (await phone.get("/api/profile/export")).json()
        assert [x["room"] for x in export["seats"]] == [finished, playing]
        assert [x["room"] for x in export["matches"]] == [finished]
    async with httpx.AsyncClient(
        base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
    ) as fresh:
        state = (await fresh.get(f"/api/rooms/{playing}/state")).json()
        assert state["seat"] == 0  # the fresh token holds her seat

    # Deleted, nothing of her stays in either room database: her seats are a former player's.
    async with httpx.AsyncClient(
        base_url=server.url, headers={"Origin": server.url}, timeout=10, cookies=phone.cookies
    ) as same:
        assert (await same.delete("/api/profile")).status_code == 204
    for position, code in ((1, finished), (2, playing)):
        rows = await sql.run(
            position,
            "SELECT s.profile_id, s.former FROM seats s JOIN rooms r ON r.id = s.room_id "
            "WHERE r.code = $1 AND s.seat = 0",
            code,
        )
        assert [tuple(r) for r in rows] == [(None, True)]
    for client in [*seated, *at_play]:
        await client.close()


async def _status(url: str, code: str) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        answer = await http.get(f"/api/rooms/{code}")
        assert answer.status_code == 200, answer.text
        status: str = answer.json()["status"]
        return status


async def test_a_rematch_of_a_room_in_a_room_database_opens_there_and_starts(
    server: ProcessServer, sql: Sql
) -> None:
    """Both come: the rematch starts at once. Only the host comes: at the deadline (one
    second here) the sweep, which reads every database, seats a bot and starts it."""
    for position in range(2):
        code, seated = await room_in(server.url, position, ["Fay", "Gwen"])
        await play(server.url, code, seated)
        host, other = seated
        pressed = await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "keep"})
        assert pressed.status_code == 200, pressed.text
        new = pressed.json()["code"]
        # The new room is in the finished room's database, where its code's hash points.
        assert room_database_index(new, 2) == position
        rows = await sql.run(position + 1, "SELECT id FROM rooms WHERE code = $1", new)
        assert [r["id"] // ID_STRIDE for r in rows] == [position + 1]
        assert not await sql.run(0, "SELECT id FROM rooms WHERE code = $1", new)
        looked = (await other.http.get(f"/api/rooms/{code}/rematch")).json()
        assert looked["code"] == new
        arrivals = [host] if position == 1 else [host, other]
        for player in arrivals:
            arrived = await player.http.post(f"/api/rooms/{new}/arrive")
            assert arrived.status_code == 200, arrived.text
            assert arrived.json()["seat"] == player.seat
        deadline = time.monotonic() + 20
        while await _status(server.url, new) != "playing":
            assert time.monotonic() < deadline, f"the rematch {new} never started"
            await asyncio.sleep(0.1)
        seats = await sql.run(
            position + 1,
            "SELECT s.seat, s.bot_level FROM seats s JOIN rooms r ON r.id = s.room_id "
            "WHERE r.code = $1 ORDER BY s.seat",
            new,
        )
        bots = [r["seat"] for r in seats if r["bot_level"] is not None]
        assert bots == ([1] if position == 1 else [])
        for client in seated:
            await client.close()


KEYS_TO_ROOMS = (
    "SELECT conrelid::regclass::text AS t, confrelid::regclass::text AS r FROM pg_constraint "
    "WHERE contype = 'f' AND connamespace = $1::regnamespace "
    "AND confrelid::regclass::text IN ('rooms', 'matches', 'seats') "
    "AND conrelid::regclass::text IN "
    "('match_results', 'circle_rooms', 'webhooks', 'notifications', 'push_subscriptions')"
)


async def test_only_a_deployment_with_room_databases_drops_the_keys_to_rooms(
    server: ProcessServer, sql: Sql, pg_schema: str
) -> None:
    """The default database of this module's server (room databases listed) keeps no foreign
    key from history, circles' tables or notifications to rooms, matches or seats; the run's
    own schema, which no server with room databases opened, keeps all of them."""
    assert await sql.run(0, KEYS_TO_ROOMS, sql.schema) == []
    plain = Sql(pg_schema, [])
    kept = {(r["t"], r["r"]) for r in await plain.run(0, KEYS_TO_ROOMS, pg_schema)}
    assert kept == {
        ("match_results", "rooms"),
        ("match_results", "matches"),
        ("circle_rooms", "rooms"),
        ("webhooks", "rooms"),
        ("notifications", "rooms"),
        ("push_subscriptions", "seats"),
    }


async def test_a_table_in_a_room_database_posts_its_turns_and_end_to_its_webhook(
    server: ProcessServer, sql: Sql
) -> None:
    """The host sets a webhook (a stand-in receiver on 127.0.0.1): the turns and the end are
    posted, each with the table's link, each once. The notifications lost (as if the worker
    died before writing them), a worker starting up sweeps every database and posts the end
    again."""
    with WebhookReceiver() as receiver:
        code, seated = await room_in(server.url, 1, ["Hild", "Isla"])
        hook = await seated[0].http.put(
            f"/api/rooms/{code}/webhook", json={"url": receiver.url("/t"), "format": "slack"}
        )
        assert hook.status_code == 200, hook.text
        await play(server.url, code, seated)
        link = f"/r/{code}"

        async def sent(kind: str) -> list[Any]:
            return await sql.run(
                0,
                "SELECT key FROM notifications WHERE key LIKE $1 AND outcome = 'sent'",
                f"hook:{kind}:%",
            )

        deadline = time.monotonic() + 20
        while not (await sent("end") and await sent("turn")):
            assert time.monotonic() < deadline, "the turn and end posts were never sent"
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # a post sent twice would show by now
        posts = receiver.received()
        assert len(posts) == len(await sent("end")) + len(await sent("turn")) >= 2
        assert all(link in p.json()["text"] for p in posts)

        [room] = await sql.run(2, "SELECT id FROM rooms WHERE code = $1", code)
        await sql.run(0, "DELETE FROM notifications WHERE room_id = $1", room["id"])
        again = ProcessServer(dict(server.env)).start()  # its sweep runs as it starts
        try:
            await receiver.until(lambda r: len(r) > len(posts), timeout=20, what="the end again")
        finally:
            again.stop()
        assert link in receiver.received()[-1].json()["text"]
        assert len(await sent("end")) == 1
    for client in seated:
        await client.close()


async def test_a_circle_lists_its_tables_matches_and_rematch_in_room_databases(
    server: ProcessServer,
) -> None:
    """Jo opens tables for her circle until there is one in each room database: the circle
    lists them all, newest first; a match played at one is among the circle's matches, and
    its rematch is the circle's table too."""
    url = server.url
    jo = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=10)
    kit = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=10)
    try:
        for who, name in ((jo, "Jo"), (kit, "Kit")):
            made = await who.post("/api/profile", json={"name": name})
            assert made.status_code == 201, made.text
        made = await jo.post("/api/circles", json={"name": "Moonlit"})
        assert made.status_code == 201, made.text
        circle, invite = made.json()["circle"]["public_id"], made.json()["invite"]["code"]
        joined = await kit.post("/api/circle-invite/join", json={"code": invite})
        assert joined.status_code == 200, joined.text
        opened: list[tuple[str, str]] = []  # (code, host's token), oldest first
        while {room_database_index(c, 2) for c, _ in opened} != {0, 1}:
            assert len(opened) < 8, "no table landed in one of the room databases"
            room = await jo.post(
                "/api/rooms",
                json={
                    "game": "test-guess",
                    "name": "Jo",
                    "visibility": "private",
                    "circle": circle,
                },
            )
            assert room.status_code == 201, room.text
            opened.append((room.json()["room"]["code"], room.json()["token"]))
        newest_first = [c for c, _ in reversed(opened)]
        page = (await kit.get(f"/api/circles/{circle}")).json()
        assert [t["code"] for t in page["tables"]] == newest_first
        mine = (await kit.get("/api/circles")).json()
        assert [t["code"] for t in mine[0]["tables"]] == newest_first

        code, host_token = opened[-1]
        seat = await kit.post(f"/api/rooms/{code}/join", json={"name": "Kit"})
        assert seat.status_code == 200, seat.text
        seated = [Client(url, host_token, 0), Client(url, seat.json()["token"], 1)]
        await play(url, code, seated)
        await recorded(url, code)
        page = (await kit.get(f"/api/circles/{circle}")).json()
        assert [m["room"] for m in page["matches"]] == [code]
        pressed = await seated[0].http.post(f"/api/rooms/{code}/rematch", json={})
        assert pressed.status_code == 200, pressed.text
        new = pressed.json()["code"]
        page = (await kit.get(f"/api/circles/{circle}")).json()
        assert page["tables"][0]["code"] == new
        assert code not in [t["code"] for t in page["tables"]]  # finished
        for client in seated:
            await client.close()
    finally:
        await jo.aclose()
        await kit.aclose()


async def test_a_seat_in_a_room_database_gets_its_web_push(server: ProcessServer, sql: Sql) -> None:
    """Lea opts in on a device (a push service stood up on 127.0.0.1 checks the signature and
    decrypts): as the match starts her clock runs, and the push reaches her device, once
    (her subscription names a seat of a room database; the outbox finds the seat still owing
    in the match there)."""
    key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    with PushService(server_key=key) as push:
        code, (mo, lea) = await room_in(server.url, 0, ["Mo", "Lea"])
        device = push.device()
        answer = await lea.http.post(
            f"/api/rooms/{code}/push", json={"subscription": device.subscription(), "lang": "en"}
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"seat": 1, "subscribed": True}
        [row] = await sql.run(0, "SELECT seat_id FROM push_subscriptions")
        assert row["seat_id"] // ID_STRIDE == 1  # a seat of the first room database
        assert (await mo.http.post(f"/api/rooms/{code}/start")).status_code == 200
        (delivery,) = push.wait_for(device)
        assert delivery.problems == [] and delivery.status == 201
        assert delivery.payload["url"] == f"/r/{code}"
        await asyncio.sleep(0.6)
        assert len(push.to(device)) == 1
        await mo.close()
        await lea.close()


# --- a claim racing the recording of its match, across databases -------------------------------


class Pause:
    """A pause put into one side of a race: says when that side got there, waits for ``go``."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self) -> None:
        self.reached.set()
        await self.go.wait()


async def no_pause() -> None:
    return None


class PausingDatabase(StoreDatabase):
    """A database whose ``at``-th write transaction pauses before its commit."""

    def __init__(
        self, engine: AsyncEngine, before_commit: Callable[[], Awaitable[None]], at: int = 1
    ) -> None:
        super().__init__(engine)
        self.before_commit, self.at, self.writes = before_commit, at, 0

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        self.writes += 1
        count = self.writes
        async with super().write() as session:
            yield session
            if count == self.at:
                await self.before_commit()


@pytest.fixture
def quiet_databases() -> Iterator[tuple[str, list[str]]]:
    """A default schema and two room databases of this test alone: no other server's sweep
    records what the test leaves unrecorded."""
    suffix = uuid.uuid4().hex[:8]
    schema, names = f"coven_race_{suffix}", [f"coven_race_a_{suffix}", f"coven_race_b_{suffix}"]
    asyncio.run(_admin(f'CREATE SCHEMA "{schema}"'))
    for name in names:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    urls = [_url_of(name) for name in names]
    try:
        migrate(PG_URL, schema)
        for url in urls:
            migrate(url, schema)
        yield schema, urls
    finally:
        for name in names:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        asyncio.run(_admin(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


@pytest.mark.parametrize("paused", ["claim", "recorder"])
async def test_a_claim_racing_the_recording_across_databases_gives_her_the_match(
    quiet_databases: tuple[str, list[str]], paused: str
) -> None:
    """The seats in a room database, history in the default one: whichever of a claim and the
    recording of the match reaches the seats first, the other waits for it to commit both
    transactions, and her history row is hers."""
    schema, urls = quiet_databases
    sql = Sql(schema, urls)
    env = {
        "COVEN_DATABASE_URL": PG_URL,
        "COVEN_DATABASE_SCHEMA": schema,
        "COVEN_ROOM_DATABASE_URLS": ",".join(urls),
        "COVEN_MIGRATE_ON_START": "0",
        "COVEN_DB_POOL_SIZE": "2",
        "COVEN_DB_POOL_OVERFLOW": "2",
        "COVEN_MOVE_POOL_SIZE": "2",
    }
    running = ProcessServer(env).start()
    try:
        code, seated = await room_in(running.url, 1, ["Ron", "Sal"])
        await play(running.url, code, seated)
        await recorded(running.url, code)
    finally:
        running.stop()
    token = seated[0].token or ""
    [match] = await sql.run(
        2, "SELECT m.id FROM matches m JOIN rooms r ON r.id = m.room_id WHERE r.code = $1", code
    )
    match_id = match["id"]
    # Finished and not recorded, as its last move left it.
    await sql.run(0, "DELETE FROM match_results WHERE match_id = $1", match_id)
    await sql.run(2, "UPDATE matches SET recorded = false WHERE id = $1", match_id)
    ron = await make_profile(sql, "Ron")

    pause = Pause()
    default = make_engine(PG_URL, schema, PoolSizes(2, 2, 2))
    engines = [make_engine(url, schema, PoolSizes(2, 2, 2)) for url in urls]
    try:
        history = PausingDatabase(default, pause if paused == "recorder" else no_pause)
        plain = StoreDatabase(default)
        for_claims = RoomDatabases(plain, [plain, *(StoreDatabase(e) for e in engines)])
        # (a claim writes history once per database, in their order: the third is the second
        # room database's, whose seat it holds then)
        claims = Claims(
            PausingDatabase(default, pause if paused == "claim" else no_pause, at=3), for_claims
        )
        for_ledger = RoomDatabases(plain, [plain, *(StoreDatabase(e) for e in engines)])
        ledger = Ledger(history, for_ledger)
        recorder = Recorder(ledger, registry.get, 3600)
        first: asyncio.Task[Any]
        if paused == "claim":
            first = asyncio.create_task(claims.claim(ron.id, [SeatToken(code, token)]))
            await asyncio.wait_for(pause.reached.wait(), 10)
            second = asyncio.create_task(recorder.record(match_id))
        else:
            first = asyncio.create_task(recorder.record(match_id))
            await asyncio.wait_for(pause.reached.wait(), 10)
            second = asyncio.create_task(claims.claim(ron.id, [SeatToken(code, token)]))
        # The other side waits for the paused one's seat locks rather than read around them.
        await asyncio.sleep(0.5)
        assert not second.done()
        pause.go.set()
        done = await asyncio.wait_for(asyncio.gather(first, second), 30)
        assert sorted(map(int, done)) == [1, 1]  # recorded, and one seat claimed
    finally:
        for engine in [default, *engines]:
            await engine.dispose()
    holders = await sql.run(
        0, "SELECT seat, profile_id FROM match_players WHERE match_id = $1 ORDER BY seat", match_id
    )
    assert [tuple(r) for r in holders] == [(0, ron.id), (1, None)]
    totals = await sql.run(
        0, "SELECT matches FROM profile_game_totals WHERE profile_id = $1", ron.id
    )
    assert [r["matches"] for r in totals] == [1]  # counted once, by one side or the other
    for client in seated:
        await client.close()
