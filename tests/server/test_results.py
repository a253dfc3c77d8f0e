"""History and ratings (app/results): a finished match recorded once, whatever races to record
it; ratings equal to what OpenSkill computes from the same places; who may see which profile;
head to head; paging. On SQLite and PostgreSQL.

Profiles are rows inserted here (a name, a browser key whose secret the test sends as the
``coven_profile`` cookie) and given seats directly, as the profile routes would.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import delete, func, select, update

from app.results.ledger import Ledger
from app.results.reaction import Recorder
from app.settings import Settings
from app.store.db import make_engine, migrate
from app.store.models import (
    MatchPlayerRow,
    MatchResultRow,
    MatchRow,
    ProfileKeyRow,
    ProfileRow,
    RatingRow,
    RoomRow,
    SeatRow,
)
from engine import registry
from tests.support.client import TIMEOUT, open_room
from tests.support.server import ThreadServer

COOKIE = "coven_profile"


@dataclass(frozen=True)
class Profile:
    id: int
    public_id: str
    secret: str
    name: str

    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.secret}

    def cookie_header(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.secret}"}


class Database:
    """The test's own connection to the server's database."""

    def __init__(self, settings: Settings) -> None:
        self.engine = make_engine(settings.database_url, settings.database_schema)

    async def profile(self, name: str, *, listed: bool = True) -> Profile:
        secret = secrets.token_urlsafe(32)
        now = time.time()
        async with self.engine.begin() as conn:
            public_id = secrets.token_hex(16)
            created = await conn.execute(
                ProfileRow.__table__.insert()
                .values(public_id=public_id, name=name, listed=listed, created_at=now)
                .returning(ProfileRow.id)
            )
            profile_id = created.scalar_one()
            await conn.execute(
                ProfileKeyRow.__table__.insert().values(
                    profile_id=profile_id,
                    secret_hash=hashlib.sha256(secret.encode()).hexdigest(),
                    via="created",
                    created_at=now,
                    last_used_at=now,
                )
            )
        return Profile(profile_id, public_id, secret, name)

    async def give_seat(self, code: str, seat: int, profile: Profile) -> None:
        room_id = select(RoomRow.id).where(RoomRow.code == code).scalar_subquery()
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                .values(profile_id=profile.id)
            )

    async def match_id(self, code: str) -> int:
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(MatchRow.id).join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(RoomRow.code == code)
            )
            return int(found.scalar_one())

    async def recorded_rows(self, code: str) -> tuple[int, int]:
        """(match_results rows, match_players rows) of the room's match."""
        match_id = await self.match_id(code)
        async with self.engine.connect() as conn:
            results = await conn.execute(
                select(func.count()).select_from(MatchResultRow)
                .where(MatchResultRow.match_id == match_id)
            )
            players = await conn.execute(
                select(func.count()).select_from(MatchPlayerRow)
                .where(MatchPlayerRow.match_id == match_id)
            )
            return int(results.scalar_one()), int(players.scalar_one())

    async def forget_result(self, code: str) -> None:
        """As if the worker that ended the match died before recording it."""
        match_id = await self.match_id(code)
        async with self.engine.begin() as conn:
            await conn.execute(delete(MatchResultRow).where(MatchResultRow.match_id == match_id))

    async def ratings(self, profile: Profile) -> list[Any]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(RatingRow).where(RatingRow.profile_id == profile.id))
            return list(rows.all())

    async def close(self) -> None:
        await self.engine.dispose()


@pytest.fixture
def quick(settings: Settings) -> Settings:
    """The server's settings with a sweep that races the trigger to record every match."""
    return dataclasses.replace(settings, results_sweep_seconds=0.05)


@pytest.fixture
def quick_server(quick: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(quick) as running:
        yield running


@pytest.fixture
async def db(quick: Settings) -> AsyncIterator[Database]:
    await asyncio.to_thread(migrate, quick.database_url, quick.database_schema)
    database = Database(quick)
    yield database
    await database.close()


async def recorded(url: str, code: str, cookies: dict[str, str] | None = None) -> dict[str, Any]:
    """The room's results once recorded."""
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, cookies=cookies) as http:
        deadline = time.monotonic() + 30
        while True:
            answer = await http.get(f"/api/rooms/{code}/results")
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            if body["recorded"]:
                return body
            assert time.monotonic() < deadline, f"room {code} was never recorded: {body}"
            await asyncio.sleep(0.05)


async def final_state(url: str, code: str) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    """The match replayed here through the engine from its log: the final state, every event
    the engine made on the way, and the result as the room reports it."""
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
        log = (await http.get(f"/api/rooms/{code}/log")).json()["replay"]
        result = (await http.get(f"/api/rooms/{code}/state")).json()["result"]
    game = registry.get(log["game"])
    state = game.setup(log["players"], log["seed"], log["options"])
    events: list[dict[str, Any]] = []
    for entry in log["actions"]:
        step = game.apply(state, entry["seat"], entry["action"])
        state, events = step.state, events + step.events
    return state, events, result


# --- a whole match, recorded once --------------------------------------------------------------


async def test_a_whole_bot_match_is_recorded_once_even_racing_and_after_a_restart(
    quick: Settings, quick_server: ThreadServer, db: Database
) -> None:
    # The host's clock runs out at once: a random bot plays her seat, two bots the others.
    code, (host,) = await open_room(
        quick_server.url, "whirling-witchcraft", ["Hostess"], turn_seconds=0.05
    )
    hostess = await db.profile("Hostess")
    await db.give_seat(code, 0, hostess)
    for _ in range(2):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    body = await recorded(quick_server.url, code, hostess.cookies())
    await host.close()

    state, events, result = await final_state(quick_server.url, code)
    match = body["match"]
    assert body["finished"] and body["game"] == "whirling-witchcraft"
    assert body["statistic_names"] == list(registry.get("whirling-witchcraft").statistic_names)
    assert [s["place"] for s in match["seats"]] == result["placings"]
    assert [s["score"] for s in match["seats"]] == result["scores"]
    assert [s["bot"] for s in match["seats"]] == [None, "random", "random"]
    assert [s["public_id"] for s in match["seats"]] == [hostess.public_id, None, None]
    assert [s["you"] for s in match["seats"]] == [True, False, False]
    game = registry.get("whirling-witchcraft")
    assert [s["stats"] for s in match["seats"]] == game.statistics(state, events)
    # One profile among bots: nothing to rate.
    assert match["rated"] is False and await db.ratings(hostess) == []

    # The sweep looked again many times meanwhile: still one result.
    await asyncio.sleep(0.5)
    assert await db.recorded_rows(code) == (1, 3)

    # A worker that died before recording: the next start's sweep records it, once.
    await db.forget_result(code)
    assert await db.recorded_rows(code) == (0, 0)
    with ThreadServer(quick) as restarted:
        again = await recorded(restarted.url, code)
        assert again["match"]["seats"] == [{**s, "you": False} for s in match["seats"]]
        await asyncio.sleep(0.3)
    assert await db.recorded_rows(code) == (1, 3)


async def test_the_move_that_ends_a_match_records_it_without_a_sweep(
    quick: Settings, db: Database
) -> None:
    # The sweep runs once at the start, then not for an hour: only the trigger is left.
    with ThreadServer(dataclasses.replace(quick, results_sweep_seconds=3600)) as server:
        jo, kim = await db.profile("Jo"), await db.profile("Kim")
        code = await play_guess(server.url, db, [jo, kim])
        started = time.monotonic()
        body = await recorded(server.url, code)
        assert time.monotonic() - started < 5
    assert body["match"]["rated"] is True
    assert await db.recorded_rows(code) == (1, 2)


async def test_recorders_racing_on_one_match_write_it_once(
    quick: Settings, db: Database
) -> None:
    one, other = await db.profile("One"), await db.profile("Other")
    with ThreadServer(quick) as server:
        code = await play_guess(server.url, db, [one, other])
        await recorded(server.url, code)
    rating_before = await db.ratings(one)
    await db.forget_result(code)
    # Two workers' worth of recorders (each its own engine and pool), four tries each, at once.
    engines = [make_engine(quick.database_url, quick.database_schema) for _ in range(2)]
    try:
        recorders = [Recorder(Ledger(e), registry.get, 3600) for e in engines]
        match_id = await db.match_id(code)
        written = await asyncio.gather(
            *(r.record(match_id) for r in recorders for _ in range(4))
        )
    finally:
        for engine in engines:
            await engine.dispose()
    assert sorted(written) == [False] * 7 + [True]
    assert await db.recorded_rows(code) == (1, 2)
    # Forgetting the result does not roll back its ratings: recording again moved them once
    # more (one more rated match), never twice.
    (after,) = await db.ratings(one)
    assert after.matches == rating_before[0].matches + 1


# --- ratings -----------------------------------------------------------------------------------


async def play_guess(
    url: str, db: Database, people: list[Profile | None], *, bots: int = 0, rounds: int = 1
) -> str:
    """One match of the test game: a profile or ``None`` (a guest) per person's seat, in seat
    order, then ``bots`` bots; the people pick by a fixed rule. Returns the room's code once
    the match is over."""
    names = [p.name if p is not None else f"Guest{i}" for i, p in enumerate(people)]
    code, clients = await open_room(url, "test-guess", names, options={"rounds": rounds})
    for _ in range(bots):
        added = await clients[0].http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    for seat, holder in enumerate(people):
        if holder is not None:
            await db.give_seat(code, seat, holder)
    assert (await clients[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    deadline = time.monotonic() + 30
    ticket = itertools.count()
    while True:
        state = (await clients[0].http.get(f"/api/rooms/{code}/state")).json()
        if state["result"] is not None:
            break
        assert time.monotonic() < deadline, f"the match in {code} never ended"
        for client in clients:
            mine = (await client.http.get(f"/api/rooms/{code}/state")).json()
            if mine["legal"]:
                # Seat s picks s % 4, so places differ from one table to the next.
                legal = mine["legal"]
                action = legal[(client.seat or 0) % len(legal)]
                await client.http.post(
                    f"/api/rooms/{code}/actions",
                    json={"action": action, "client_id": f"t{next(ticket)}"},
                )
        await asyncio.sleep(0.02)
    for client in clients:
        await client.close()
    return code


def expected_ratings(matches: list[list[tuple[str | None, int]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill's Plackett–Luce, used directly: each match's (profile or None, place) seats,
    in the order they finished; rated when two or more distinct profiles sat, each once."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for seats in matches:
        rated = [(who, place) for who, place in seats if who is not None]
        names = [who for who, _ in rated]
        if len(rated) < 2 or len(set(names)) != len(names):
            continue
        teams = [[ratings.get(who) or model.rating()] for who, _ in rated]
        after = model.rate(teams, ranks=[place for _, place in rated])
        for (who, _), (rating,) in zip(rated, after, strict=True):
            ratings[who] = rating
    return {who: (r.mu, r.sigma) for who, r in ratings.items()}


async def test_ratings_after_a_series_are_openskills_from_the_same_places(
    quick_server: ThreadServer, db: Database
) -> None:
    ann, bea, cat = await db.profile("Ann"), await db.profile("Bea"), await db.profile("Cat")
    series: list[tuple[list[Profile | None], int]] = [
        ([ann, bea], 0),
        ([ann, None, bea], 0),  # a guest among them: her place orders them, nothing more
        ([bea, cat, ann], 1),  # a bot too
        ([ann, ann, cat], 0),  # Ann in two seats: not rated at all
        ([cat, None], 1),  # one profile: not rated
        ([cat, bea, ann], 0),
        ([bea, ann], 0),
    ]
    played: list[list[tuple[str | None, int]]] = []
    for people, bots in series:
        code = await play_guess(quick_server.url, db, people, bots=bots)
        match = (await recorded(quick_server.url, code))["match"]
        played.append([(s["public_id"], s["place"]) for s in match["seats"]])
        profiles = [s["public_id"] for s in match["seats"] if s["public_id"]]
        assert match["rated"] is (len(profiles) >= 2 and len(set(profiles)) == len(profiles))
    expected = expected_ratings(played)
    assert set(expected) == {ann.public_id, bea.public_id, cat.public_id}
    rated_matches = {ann.public_id: 5, bea.public_id: 5, cat.public_id: 2}
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        for who in (ann, bea, cat):
            page = (await http.get(f"/api/profiles/{who.public_id}")).json()
            (rating,) = page["ratings"]
            assert rating["game"] == "test-guess"
            mu, sigma = expected[who.public_id]
            assert rating["mu"] == pytest.approx(mu, abs=1e-9)
            assert rating["sigma"] == pytest.approx(sigma, abs=1e-9)
            assert rating["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
            assert rating["matches"] == rated_matches[who.public_id]
        board = (await http.get("/api/leaderboard/test-guess")).json()["entries"]
    ours = [e for e in board if e["public_id"] in expected]
    assert [e["public_id"] for e in ours] == sorted(
        expected, key=lambda p: -(expected[p][0] - 3 * expected[p][1])
    )


async def test_guests_and_bots_move_nobody(quick_server: ThreadServer, db: Database) -> None:
    dee = await db.profile("Dee")
    code = await play_guess(quick_server.url, db, [dee, None, None], bots=1)
    assert (await recorded(quick_server.url, code))["match"]["rated"] is False
    assert await db.ratings(dee) == []


# --- who sees what -----------------------------------------------------------------------------


async def test_a_private_profile_is_its_owners_alone(
    quick_server: ThreadServer, db: Database
) -> None:
    shy, open_ = await db.profile("Shy", listed=False), await db.profile("Open")
    code = await play_guess(quick_server.url, db, [shy, open_])
    await recorded(quick_server.url, code)
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        stranger = await http.get(f"/api/profiles/{shy.public_id}")
        unknown = await http.get(f"/api/profiles/{secrets.token_hex(16)}")
        assert (stranger.status_code, stranger.json()) == (unknown.status_code, unknown.json())
        assert stranger.json()["error"]["code"] == "profile_not_found"
        assert stranger.status_code == 404
        owner = await http.get(f"/api/profiles/{shy.public_id}", headers=shy.cookie_header())
        assert owner.status_code == 200 and owner.json()["profile"]["you"] is True
        board = (await http.get("/api/leaderboard/test-guess")).json()["entries"]
        assert shy.public_id not in {e["public_id"] for e in board}
        assert open_.public_id in {e["public_id"] for e in board}
        # In the other player's history she is a name without a link.
        theirs = (await http.get(f"/api/profiles/{open_.public_id}")).json()
        seats = theirs["history"]["matches"][0]["seats"]
        assert [(s["name"], s["public_id"]) for s in seats] == [
            ("Shy", None), ("Open", open_.public_id)
        ]
        versus = await http.get(f"/api/profiles/{open_.public_id}/versus/{shy.public_id}")
        assert versus.status_code == 404
        results = (await http.get(f"/api/rooms/{code}/results")).json()
        assert shy.public_id not in str(results)


async def test_with_public_profiles_off_each_sees_only_her_own(
    quick: Settings, db: Database
) -> None:
    with ThreadServer(dataclasses.replace(quick, public_profiles=False)) as server:
        eve, fay = await db.profile("Eve"), await db.profile("Fay")
        code = await play_guess(server.url, db, [eve, fay])
        await recorded(server.url, code)
        async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
            board = await http.get("/api/leaderboard/test-guess")
            assert (board.status_code, board.json()["error"]["code"]) == (404, "leaderboards_off")
            other = await http.get(f"/api/profiles/{fay.public_id}", headers=eve.cookie_header())
            assert (other.status_code, other.json()["error"]["code"]) == (
                404, "profile_not_found"
            )
            own = await http.get(f"/api/profiles/{eve.public_id}", headers=eve.cookie_header())
            assert own.status_code == 200 and own.json()["public_profiles"] is False
            seats = own.json()["history"]["matches"][0]["seats"]
            assert [s["public_id"] for s in seats] == [eve.public_id, None]


# --- head to head, history ---------------------------------------------------------------------


async def test_head_to_head_counts_every_match_both_played(
    quick_server: ThreadServer, db: Database
) -> None:
    gil, hal = await db.profile("Gil"), await db.profile("Hal")
    tables: list[tuple[list[Profile | None], int]] = [
        ([gil, hal], 0), ([hal, gil], 0), ([gil, None, hal], 0), ([hal, gil], 1), ([gil], 1),
    ]
    wins = losses = draws = together = 0
    for people, bots in tables:
        code = await play_guess(quick_server.url, db, people, bots=bots)
        seats = (await recorded(quick_server.url, code))["match"]["seats"]
        place = {s["public_id"]: s["place"] for s in seats if s["public_id"]}
        if hal.public_id in place:
            together += 1
            mine, theirs = place[gil.public_id], place[hal.public_id]
            wins, losses, draws = (
                wins + (mine < theirs), losses + (mine > theirs), draws + (mine == theirs)
            )
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        record = (await http.get(f"/api/profiles/{gil.public_id}/versus/{hal.public_id}")).json()
        mirror = (await http.get(f"/api/profiles/{hal.public_id}/versus/{gil.public_id}")).json()
        same = await http.get(f"/api/profiles/{gil.public_id}/versus/{gil.public_id}")
    assert record["games"] == [
        {"game": "test-guess", "matches": together, "wins": wins, "losses": losses,
         "draws": draws}
    ]
    assert together == 4 and record["total"]["matches"] == 4
    assert (mirror["total"]["wins"], mirror["total"]["losses"]) == (losses, wins)
    assert same.json()["error"]["code"] == "same_profile"


async def test_history_pages_run_newest_first_to_the_last(
    quick_server: ThreadServer, db: Database
) -> None:
    ivy = await db.profile("Ivy")
    for played in range(1, 6):
        code = await play_guess(quick_server.url, db, [ivy, None])
        await recorded(quick_server.url, code)
        # Her figures follow each new match (the server keeps them between views).
        async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
            games = (await http.get(f"/api/profiles/{ivy.public_id}")).json()["games"]
        assert [g["matches"] for g in games] == [played]
    seen: list[float] = []
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        page = (await http.get(f"/api/profiles/{ivy.public_id}/matches?limit=2")).json()
        while True:
            seen += [m["finished_at"] for m in page["matches"]]
            if page["next"] is None:
                break
            page = (
                await http.get(
                    f"/api/profiles/{ivy.public_id}/matches",
                    params={"limit": 2, "before": page["next"]},
                )
            ).json()
        bad = await http.get(f"/api/profiles/{ivy.public_id}/matches?before=yesterday")
        summary = (await http.get(f"/api/profiles/{ivy.public_id}")).json()["games"]
    assert len(seen) == 5 and seen == sorted(seen, reverse=True)
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_cursor")
    (guess,) = summary
    assert guess["game"] == "test-guess" and guess["matches"] == 5
    assert 1 <= guess["average_place"] <= 2 and 0 <= guess["wins"] <= 5
